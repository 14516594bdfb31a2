/**
 * fast-check arbitraries for the fuzz properties: valid extension frames of every type, byte soups biased
 * toward newlines / carriage returns / multi-byte UTF-8 / invalid UTF-8, and chunkings of a buffer.
 */
import fc from 'fast-check';

/** Strings over the whole of Unicode (surrogate pairs included), so UTF-8 gets 1–4 byte characters. */
const str = fc.string({ unit: 'binary', maxLength: 24 });
const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 16 });
const strs = fc.array(str, { maxLength: 5 });
const json = fc.jsonValue({ maxDepth: 3 });

const opt = <T extends Record<string, fc.Arbitrary<unknown>>>(type: string, required: (keyof T)[], model: T) =>
  fc.record({ type: fc.constant(type), ...model }, { requiredKeys: ['type', ...required] as never });

const panel = fc.record(
  { id: name, title: str, lines: strs, footer: str },
  { requiredKeys: ['id'] },
);
const block = fc.record(
  { type: fc.constantFrom('text', 'image'), text: str, mime_type: str, data: fc.base64String({ maxLength: 40 }) },
  { requiredKeys: ['type'] },
);

/** One valid frame of every type an extension may send (optional fields present or not). */
export const extFrame: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  opt('hello', ['protocol_version', 'name'], {
    protocol_version: fc.integer(),
    name: str,
    version: str,
    capabilities: strs,
  }),
  opt('register_command', ['name'], { name, description: str }),
  opt('register_tool', ['name'], {
    name,
    description: str,
    schema: json,
    deferred: fc.boolean(),
    interactive: fc.boolean(),
  }),
  opt('ready', [], {}),
  opt('subscribe', [], { events: strs, intercept: strs }),
  opt('event_intercept_response', ['id'], {
    id: str,
    block: fc.boolean(),
    reason: str,
    modified_args: json,
    replace_text: str,
    context: str,
  }),
  opt('tool_result', ['id'], {
    id: str,
    content: fc.array(block, { maxLength: 4 }),
    is_error: fc.boolean(),
    activate_tools: strs,
    details: json,
  }),
  opt('command_response', ['id', 'action'], {
    id: str,
    action: fc.constantFrom('prompt', 'insert', 'display', 'open_panel', 'noop'),
    prompt: str,
    insert: str,
    display: str,
    open_panel: panel,
    error: str,
  }),
  opt('open_panel', ['panel'], { panel }),
  opt('panel_render', ['panel_id'], { panel_id: str, title: str, lines: strs, footer: str }),
  opt('panel_close', ['panel_id'], { panel_id: str }),
  opt('status', ['key'], { key: str, level: str, text: str }),
  opt('widget', ['id'], { id: str, position: str, title: str, lines: strs }),
  opt('widget_clear', ['id'], { id: str }),
  opt('alert', ['kind'], { kind: str, reason: str }),
  opt('notify', ['message'], { level: fc.constantFrom('info', 'success', 'warn', 'error'), message: str }),
  opt('clear_notes', [], {}),
  opt('submit_slash', ['text'], { text: str }),
  opt('submit', ['text'], { text: str }),
  opt('shutdown_ack', [], {}),
);

/** Bytes that stress the decoder: newlines, CRs, multi-byte and invalid UTF-8, arbitrary bytes. */
const piece: fc.Arbitrary<number[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<number[]>([0x0a]) },
  { weight: 2, arbitrary: fc.constant<number[]>([0x0d]) },
  { weight: 1, arbitrary: fc.constant<number[]>([0x0d, 0x0a]) },
  { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((b) => [b]) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 255 }).map((b) => [b]) },
  { weight: 1, arbitrary: fc.constantFrom(...['界', '😀', 'é', '\u2028'].map((c) => [...Buffer.from(c)])) },
  // Invalid UTF-8: lone continuation, overlong '/', encoded surrogate, truncated 4-byte lead, 0xff.
  { weight: 1, arbitrary: fc.constantFrom<number[]>([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xff]) },
);

export const byteSoup: fc.Arbitrary<Buffer> = fc
  .array(piece, { maxLength: 200 })
  .map((ps) => Buffer.from(ps.flat()));

/** Sorted cut offsets into a buffer of length `n`. */
export function cutsFor(n: number): fc.Arbitrary<number[]> {
  return fc
    .array(fc.integer({ min: 0, max: Math.max(0, n) }), { maxLength: 12 })
    .map((cs) => [...new Set(cs)].sort((a, b) => a - b));
}

/** Splits `buf` at `cuts` (sorted offsets). */
export function split(buf: Buffer, cuts: number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...cuts, buf.length]) {
    out.push(buf.subarray(prev, c));
    prev = c;
  }
  return out;
}
