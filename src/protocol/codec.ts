/**
 * The line codec: newline-delimited JSON over a byte stream, with a hard per-frame limit.
 */

import { MAX_FRAME_BYTES } from './limits';

/** The largest frame (bytes, without its newline) either side may send (defined in limits.ts). */
export { MAX_FRAME_BYTES };

/** Whether `s` is over `max` bytes of UTF-8 (a UTF-16 unit is at most 3 bytes: counted exactly only near the limit). */
export function overUtf8Bytes(s: string, max: number): boolean {
  return s.length * 3 > max && Buffer.byteLength(s) > max;
}

/** What a decoder hands out: a complete line, or an over-long line that was dropped. */
export type DecodedLine = { line: string } | { overflow: number };

/**
 * Splits a byte stream into lines on `\n`. Works on bytes, so a UTF-8 character split across chunks survives;
 * a trailing `\r` is dropped. A line longer than `limit` is never buffered whole: the decoder reports
 * `{ overflow }` once and discards bytes up to the next newline, so memory stays bounded by `limit`.
 */
export class LineDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(private readonly limit = MAX_FRAME_BYTES) {}

  /** Feeds one chunk; returns the lines it completed, in order. */
  push(chunk: Buffer): DecodedLine[] {
    const out: DecodedLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      if (this.size === 0 && !this.discarding && nl - start <= this.limit) {
        // The common case, a whole line inside this chunk: decoded in place, no copy.
        this.emit(chunk, start, nl, out);
      } else {
        this.take(chunk.subarray(start, nl), out);
        this.finishLine(out);
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), out);
    return out;
  }

  /** Bytes buffered for the current, incomplete line. */
  get pending(): number {
    return this.size;
  }

  private take(bytes: Buffer, out: DecodedLine[]): void {
    if (this.discarding || bytes.length === 0) return;
    if (this.size + bytes.length > this.limit) {
      out.push({ overflow: this.size + bytes.length });
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private finishLine(out: DecodedLine[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const buf = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.emit(buf, 0, buf.length, out);
  }

  /** Hands out bytes `start..end` of `buf` as a line: a trailing `\r` dropped, a blank line skipped. */
  private emit(buf: Buffer, start: number, end: number, out: DecodedLine[]): void {
    if (end > start && buf[end - 1] === 13) end--;
    if (end === start) return; // blank lines carry no frame
    out.push({ line: buf.toString('utf8', start, end) });
  }
}

/** Encodes one frame as a line of JSON. */
export function encodeFrame(frame: object): string {
  return JSON.stringify(frame) + '\n';
}
