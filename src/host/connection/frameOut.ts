/**
 * Whether an outgoing message can be a frame: its encoding may throw (a value nested too deep for JSON.stringify's
 * recursion) and its line may be longer than MAX_FRAME_BYTES (the spec's 4 MiB line buffer: the extension could not
 * read it and would fail). Either way it is not sent, and the connection says why (connection.ts). VS Code-free.
 */
import { overUtf8Bytes } from '../../protocol/codec';
import { MAX_FRAME_BYTES } from '../../protocol/limits';

/** The encoded line (with its newline), undefined when the protocol has no such message, or why it cannot be sent. */
export function frameOut(encode: () => string | undefined, maxBytes = MAX_FRAME_BYTES): string | undefined | { why: string } {
  let line: string | undefined;
  try {
    line = encode();
  } catch (e) {
    return { why: `it cannot be encoded (${e instanceof Error ? e.message : String(e)})` };
  }
  // The newline does not count.
  if (line !== undefined && overUtf8Bytes(line, maxBytes + 1)) return { why: `it is over ${maxBytes} bytes` };
  return line;
}
