/**
 * LineDecoder and encodeFrame: chunk boundaries anywhere, UTF-8 split across chunks, `\r\n`, blank lines,
 * over-long lines dropped with one `overflow` while memory stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { LineDecoder, MAX_FRAME_BYTES, encodeFrame, parseExtFrame, type DecodedLine } from '../../src/protocol';

const MiB = 1024 * 1024;

/** Feeds `bytes` split at the given offsets; checks `pending` stays within the limit after every push. */
function feed(decoder: LineDecoder, bytes: Buffer, cuts: number[], limit = MAX_FRAME_BYTES): DecodedLine[] {
  const out: DecodedLine[] = [];
  let prev = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(prev, cut)));
    expect(decoder.pending).toBeLessThanOrEqual(limit);
    prev = cut;
  }
  return out;
}

function byteByByte(bytes: Buffer): number[] {
  return Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
}

function lines(out: DecodedLine[]): string[] {
  return out.map((d) => ('line' in d ? d.line : `<overflow ${d.overflow}>`));
}

describe('LineDecoder', () => {
  const text = '{"type":"ready"}\n{"type":"notify","level":"info","message":"a"}\n{"type":"status","key":"k"}\n';
  const bytes = Buffer.from(text);
  const expected = text.split('\n').filter(Boolean);

  it('decodes several frames from one chunk', () => {
    expect(lines(new LineDecoder().push(bytes))).toEqual(expected);
  });

  it('decodes the same frames with a single cut at every byte offset', () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(lines(feed(new LineDecoder(), bytes, [cut])), `cut at ${cut}`).toEqual(expected);
    }
  });

  it('decodes the same frames fed byte by byte', () => {
    expect(lines(feed(new LineDecoder(), bytes, byteByByte(bytes)))).toEqual(expected);
  });

  it('keeps an incomplete line pending until its newline arrives', () => {
    const d = new LineDecoder();
    expect(d.push(Buffer.from('{"type":"re'))).toEqual([]);
    expect(d.pending).toBe(11);
    expect(d.push(Buffer.from('ady"}'))).toEqual([]);
    expect(lines(d.push(Buffer.from('\n')))).toEqual(['{"type":"ready"}']);
    expect(d.pending).toBe(0);
  });

  it.each([
    ['CJK', '界'],
    ['emoji', '😀'],
    ['mixed', 'é界😀👩‍👩‍👧 ok'],
  ])('keeps %s characters split byte by byte', (_name, s) => {
    const line = JSON.stringify({ type: 'notify', level: 'info', message: s });
    const buf = Buffer.from(line + '\n' + line + '\n');
    const out = lines(feed(new LineDecoder(), buf, byteByByte(buf)));
    expect(out).toEqual([line, line]);
    const r = parseExtFrame(out[0]!);
    expect(r.ok && r.frame.type === 'notify' && r.frame.message).toBe(s);
  });

  it('drops a trailing \\r but keeps one inside a line', () => {
    const d = new LineDecoder();
    expect(lines(d.push(Buffer.from('{"a":"x\\r"}\r\nab\rcd\r\n')))).toEqual(['{"a":"x\\r"}', 'ab\rcd']);
    // The \r and the \n in different chunks.
    expect(lines(feed(new LineDecoder(), Buffer.from('xy\r\n'), [3]))).toEqual(['xy']);
  });

  it('skips blank lines', () => {
    expect(lines(new LineDecoder().push(Buffer.from('\n\r\n\n{"type":"ready"}\n\n')))).toEqual(['{"type":"ready"}']);
  });

  it('accepts a line of exactly the limit and overflows one byte more', () => {
    const d = new LineDecoder(16);
    const out = d.push(Buffer.from('a'.repeat(16) + '\n' + 'b'.repeat(17) + '\nok\n'));
    expect(lines(out)).toEqual(['a'.repeat(16), '<overflow 17>', 'ok']);
  });

  it.each([
    ['one chunk', 0],
    ['64 KiB chunks', 64 * 1024],
    ['odd 7777-byte chunks', 7777],
  ])('reports a 5 MiB line once (%s), stays bounded and continues with the next line', (_name, chunk) => {
    const big = Buffer.alloc(5 * MiB, 'x'.charCodeAt(0));
    const input = Buffer.concat([Buffer.from('{"type":"ready"}\n'), big, Buffer.from('\n{"type":"clear_notes"}\n')]);
    const cuts: number[] = [];
    if (chunk > 0) for (let i = chunk; i < input.length; i += chunk) cuts.push(i);
    const d = new LineDecoder();
    const out = feed(d, input, cuts);
    const overflows = out.filter((o) => 'overflow' in o);
    expect(overflows).toHaveLength(1);
    expect((overflows[0] as { overflow: number }).overflow).toBeGreaterThan(MAX_FRAME_BYTES);
    expect(lines(out.filter((o) => 'line' in o))).toEqual(['{"type":"ready"}', '{"type":"clear_notes"}']);
    expect(d.pending).toBe(0);
  });

  it('reports two consecutive over-long lines separately', () => {
    const d = new LineDecoder(8);
    const out = feed(d, Buffer.from('x'.repeat(20) + '\n' + 'y'.repeat(20) + '\nz\n'), [5, 13, 22, 30], 8);
    expect(out.filter((o) => 'overflow' in o)).toHaveLength(2);
    expect(lines(out.filter((o) => 'line' in o))).toEqual(['z']);
  });

  it('discards the tail of an over-long line across many chunks without buffering it', () => {
    const d = new LineDecoder(1024);
    let overflows = 0;
    for (let i = 0; i < 100; i++) {
      overflows += d.push(Buffer.alloc(1000, 'q'.charCodeAt(0))).length;
      expect(d.pending).toBeLessThanOrEqual(1024);
    }
    expect(overflows).toBe(1);
    expect(lines(d.push(Buffer.from('\nnext\n')))).toEqual(['next']);
  });

  it('ignores empty chunks', () => {
    const d = new LineDecoder();
    expect(d.push(Buffer.alloc(0))).toEqual([]);
    expect(d.pending).toBe(0);
  });
});

describe('encodeFrame', () => {
  it('writes one line of JSON ending in exactly one newline, even with newlines in strings', () => {
    const frame = { type: 'tool_result', id: 'a\nb', content: [{ type: 'text', text: 'line1\nline2\r\n界😀' }] };
    const s = encodeFrame(frame);
    expect(s.endsWith('\n')).toBe(true);
    expect(s.indexOf('\n')).toBe(s.length - 1);
    expect(JSON.parse(s)).toEqual(frame);
  });

  it('round-trips through the decoder and the parser', () => {
    const frames = [
      { type: 'status', key: 'k', level: 'warn', text: '½ done' },
      { type: 'tool_result', id: 'x', content: [{ type: 'text', text: 'a\nb' }], is_error: false },
    ];
    const buf = Buffer.from(frames.map(encodeFrame).join(''));
    const parsed = lines(feed(new LineDecoder(), buf, byteByByte(buf))).map(parseExtFrame);
    expect(parsed).toEqual(frames.map((frame) => ({ ok: true, frame })));
  });
});
