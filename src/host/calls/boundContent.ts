/**
 * Bounds tool-result content blocks to a byte budget of text and image data (zot's `call_tool` results and
 * `tool_result` observations: 256 KiB). Text is cut on a UTF-8 character boundary; a block that no longer fits
 * (an image, or anything after the budget ran out) is left out; `truncated` says whether anything was.
 */
import type { ContentBlock } from '../../protocol';

/** The blocks within `maxBytes` (text, base64 data and MIME types counted in UTF-8 bytes), and whether any were cut. */
export function boundContent(content: readonly ContentBlock[], maxBytes: number): { content: ContentBlock[]; truncated: boolean } {
  let left = maxBytes;
  let truncated = false;
  const out: ContentBlock[] = [];
  for (const block of content) {
    const cost = Buffer.byteLength(block.text ?? '') + Buffer.byteLength(block.data ?? '') + Buffer.byteLength(block.mime_type ?? '');
    if (cost <= left) {
      out.push(block);
      left -= cost;
      continue;
    }
    truncated = true;
    if (block.type === 'text' && block.text !== undefined && left > 0) {
      out.push({ ...block, text: cutUtf8(block.text, left) });
      left = 0;
    }
  }
  return { content: out, truncated };
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  // Back up over continuation bytes (10xxxxxx) to the start of the character that would be split.
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}
