/**
 * Property tests of the codec and the frame schemas: arbitrary bytes and chunkings, valid frames re-split at
 * every byte, mutated / deep / huge JSON, invalid UTF-8. Nothing may throw, every input yields frames or a
 * clear error, and the decoder's buffer never exceeds its limit. Prints `fuzz: N cases` at the end.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LineDecoder,
  MAX_FRAME_BYTES,
  encodeFrame,
  extFrameSchemas,
  hostFrameSchemas,
  parseExtFrame,
  validateExtFrame,
  type DecodedLine,
  type ExtFrameType,
  type ParseResult,
} from '../../src/protocol';
import { byteSoup, cutsFor, extFrame, split } from './arbitraries';

/** Multiplies every run count (ZUT_STRESS_SCALE=0.2 for a quick run, 5 for a long one). */
const SCALE = Number(process.env.ZUT_STRESS_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
let cases = 0;

afterAll(() => {
  process.stdout.write(`fuzz: ${cases} cases\n`);
});

const KINDS = new Set(['json', 'not_object', 'unknown_type', 'invalid']);

/** Every line yields a frame or an error of a known kind with a message; never an exception. */
function expectClearOutcome(r: ParseResult): void {
  if (r.ok) {
    expect(Object.prototype.hasOwnProperty.call(extFrameSchemas, r.frame.type)).toBe(true);
    return;
  }
  expect(KINDS.has(r.error.kind)).toBe(true);
  expect(r.error.message.length).toBeGreaterThan(0);
  if (r.error.kind === 'invalid') {
    expect(r.error.field.length).toBeGreaterThan(0);
    expect(r.error.message).toContain(`"${r.error.field}"`);
  }
}

/** The decoder's contract, written the obvious way on the whole input. */
function referenceDecode(buf: Buffer, limit: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(10, start);
    const seg = buf.subarray(start, nl === -1 ? buf.length : nl);
    if (seg.length > limit) out.push('overflow');
    else if (nl !== -1) {
      const end = seg.length > 0 && seg[seg.length - 1] === 13 ? seg.length - 1 : seg.length;
      if (end > 0) out.push('line:' + seg.toString('utf8', 0, end));
    }
    if (nl === -1) return out;
    start = nl + 1;
  }
}

function decodeChunks(chunks: Buffer[], limit: number): { tokens: string[]; decoded: DecodedLine[] } {
  const d = new LineDecoder(limit);
  const decoded: DecodedLine[] = [];
  for (const c of chunks) {
    decoded.push(...d.push(c));
    expect(d.pending).toBeLessThanOrEqual(limit);
  }
  const tokens = decoded.map((x) => {
    if ('overflow' in x) {
      expect(x.overflow).toBeGreaterThan(limit);
      return 'overflow';
    }
    return 'line:' + x.line;
  });
  return { tokens, decoded };
}

describe('LineDecoder under arbitrary bytes and chunkings', () => {
  it('matches the whole-input reference, stays bounded, and every line parses or errors clearly', () => {
    const input = byteSoup.chain((buf) => fc.tuple(fc.constant(buf), cutsFor(buf.length), fc.integer({ min: 1, max: 48 })));
    fc.assert(
      fc.property(input, ([buf, cuts, limit]) => {
        cases++;
        const { tokens, decoded } = decodeChunks(split(buf, cuts), limit);
        expect(tokens).toEqual(referenceDecode(buf, limit));
        for (const d of decoded) {
          if (!('line' in d)) continue;
          expect((d.line as unknown as { isWellFormed(): boolean }).isWellFormed()).toBe(true); // invalid UTF-8 became U+FFFD, never lone surrogates
          expectClearOutcome(parseExtFrame(d.line));
        }
      }),
      { numRuns: runs(4000) },
    );
  });
});

describe('valid frames', () => {
  it('survive being re-split at every byte offset', () => {
    fc.assert(
      fc.property(fc.array(extFrame, { minLength: 1, maxLength: 3 }), (frames) => {
        cases++;
        const text = frames.map(encodeFrame).join('');
        const buf = Buffer.from(text);
        const expected = text
          .split('\n')
          .filter(Boolean)
          .map((l) => {
            const v = JSON.parse(l) as { type: ExtFrameType };
            return extFrameSchemas[v.type].parse(v);
          });
        for (let cut = 0; cut <= buf.length; cut++) {
          const { decoded } = decodeChunks([buf.subarray(0, cut), buf.subarray(cut)], MAX_FRAME_BYTES);
          const parsed = decoded.map((d) => ('line' in d ? parseExtFrame(d.line) : d));
          expect(parsed).toEqual(expected.map((frame) => ({ ok: true, frame })));
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('survive arbitrary multi-cut chunkings mixed with garbage lines', () => {
    const input = fc
      .array(fc.oneof(extFrame.map(encodeFrame), fc.string({ unit: 'binary', maxLength: 30 }).map((s) => `${s}\n`)), {
        maxLength: 8,
      })
      .map((parts) => Buffer.from(parts.join('')))
      .chain((buf) => fc.tuple(fc.constant(buf), cutsFor(buf.length)));
    fc.assert(
      fc.property(input, ([buf, cuts]) => {
        cases++;
        const { tokens, decoded } = decodeChunks(split(buf, cuts), MAX_FRAME_BYTES);
        expect(tokens).toEqual(referenceDecode(buf, MAX_FRAME_BYTES));
        for (const d of decoded) if ('line' in d) expectClearOutcome(parseExtFrame(d.line));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('report the named field when one required field is removed or retyped', () => {
    fc.assert(
      fc.property(extFrame, fc.nat(), fc.jsonValue({ maxDepth: 1 }), (frame, pick, replacement) => {
        cases++;
        const keys = Object.keys(frame).filter((k) => k !== 'type');
        if (keys.length === 0) return;
        const key = keys[pick % keys.length]!;
        const mutated = { ...frame, [key]: replacement };
        const r = validateExtFrame(JSON.parse(JSON.stringify(mutated)));
        expectClearOutcome(r);
        if (r.ok) return;
        expect(r.error.kind).toBe('invalid');
        if (r.error.kind === 'invalid') expect(r.error.field.split('.')[0]).toBe(key);
      }),
      { numRuns: runs(3000) },
    );
  });
});

describe('arbitrary JSON', () => {
  it('never throws in validateExtFrame, whatever the type field', () => {
    const types = [...Object.keys(extFrameSchemas), ...Object.keys(hostFrameSchemas), '__proto__', 'constructor'];
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })).chain((o) =>
        fc.oneof(fc.constantFrom(...types), fc.string(), fc.jsonValue({ maxDepth: 1 })).map((type) => ({ ...o, type })),
      ),
    );
    fc.assert(
      fc.property(value, (v) => {
        cases++;
        expectClearOutcome(validateExtFrame(JSON.parse(JSON.stringify(v)) as unknown));
      }),
      { numRuns: runs(5000) },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws on mutated JSON text', () => {
    const mutated = fc
      .tuple(extFrame.map((f) => JSON.stringify(f)), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 4 }))
      .map(([s, edits]) => {
        let t = s;
        for (const [pos, del, ins] of edits) {
          const p = pos % (t.length + 1);
          t = t.slice(0, p) + ins + t.slice(p + (del % 3));
        }
        return t;
      });
    fc.assert(
      fc.property(mutated, (line) => {
        cases++;
        expectClearOutcome(parseExtFrame(line));
      }),
      { numRuns: runs(5000) },
    );
  });

  it('rejects prototype pollution attempts without polluting', () => {
    cases++;
    const r = parseExtFrame('{"type":"status","key":"k","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}');
    expectClearOutcome(r);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('deep and huge frames', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it.each([1_000, 100_000, 1_000_000])('handles %i-deep opaque details without throwing', (depth) => {
    cases++;
    const line = `{"type":"tool_result","id":"d","content":[],"details":${deep(depth)}}`;
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    const out = new LineDecoder().push(Buffer.from(line + '\n'));
    expect(out).toHaveLength(1);
    expectClearOutcome(parseExtFrame((out[0] as { line: string }).line));
  });

  it('reports deep nesting where a string is expected as invalid', () => {
    cases++;
    const r = parseExtFrame(`{"type":"notify","message":${deep(100_000)}}`);
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid', field: 'message' } });
  });

  it('accepts a tool_result just under the 4 MiB limit and overflows just over it', () => {
    cases++;
    const head = '{"type":"tool_result","id":"big","content":[{"type":"text","text":"';
    const tail = '"}]}';
    const fill = MAX_FRAME_BYTES - head.length - tail.length;
    const ok = Buffer.from(head + 'x'.repeat(fill) + tail + '\n');
    const cuts = Array.from({ length: 63 }, (_, i) => (i + 1) * 65536);
    const { decoded } = decodeChunks(split(ok, cuts), MAX_FRAME_BYTES);
    expect(decoded).toHaveLength(1);
    const r = parseExtFrame((decoded[0] as { line: string }).line);
    expect(r.ok && r.frame.type === 'tool_result' && r.frame.content[0]!.text!.length).toBe(fill);
    const over = Buffer.from(head + 'x'.repeat(fill + 1) + tail + '\n{"type":"ready"}\n');
    const res = decodeChunks(split(over, cuts), MAX_FRAME_BYTES).tokens;
    expect(res).toEqual(['overflow', 'line:{"type":"ready"}']);
  });

  it('validates wide frames (100k content blocks, 60k-key details)', () => {
    cases++;
    const content = Array.from({ length: 100_000 }, (_, i) => ({ type: 'text', text: String(i) }));
    const details = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
    const line = JSON.stringify({ type: 'tool_result', id: 'w', content, details });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    const r = parseExtFrame(line);
    expect(r.ok && r.frame.type === 'tool_result' && r.frame.content.length).toBe(100_000);
    const bad = JSON.stringify({ type: 'tool_result', id: 'w', content: [...content, { type: 'text', text: 1 }] });
    expect(parseExtFrame(bad)).toMatchObject({ ok: false, error: { field: 'content.100000.text' } });
  });

  it('keeps memory bounded on 64 MiB without a newline', () => {
    cases++;
    const d = new LineDecoder();
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let overflows = 0;
    for (let i = 0; i < 64; i++) {
      overflows += d.push(chunk).length;
      expect(d.pending).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    }
    expect(overflows).toBe(1);
    expect(d.pending).toBe(0);
  });
});
