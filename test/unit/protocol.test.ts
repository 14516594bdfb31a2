/**
 * Frame schemas and parseExtFrame against the spec (zut-extensions.md) and extproto.go: every example parses,
 * unknown fields are tolerated, unknown types are reported (not fatal), missing/wrong fields are named.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ContentBlock,
  extFrameSchemas,
  hostFrameSchemas,
  parseExtFrame,
  plainToolResult,
  validateExtFrame,
  type FrameError,
  type HostFrameType,
} from '../../src/protocol';

/** Extension → host examples, verbatim from the spec (plus extproto.go's extras). */
const EXT_EXAMPLES: string[] = [
  '{"type":"hello","protocol_version":2,"name":"weather","version":"1.0.0","capabilities":["commands","tools","alerts","panels"]}',
  '{"type":"hello","protocol_version":2,"name":"hello-py","version":"1.0.0","capabilities":["commands"]}',
  '{"type":"register_command","name":"weather","description":"current weather for a city"}',
  '{"type":"register_command","name":"hellopy","description":"say hi (python)"}',
  '{"type":"register_tool","name":"weather","description":"Get the current weather for a city.","schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}',
  '{"type":"register_tool","name":"ask_user","description":"Ask the user a question","schema":{"type":"object"},"interactive":true}',
  '{"type":"ready"}',
  '{"type":"tool_result","id":"...","content":[{"type":"text","text":"Enabled weather lookup"}],"activate_tools":["weather"]}',
  '{"type":"tool_result","id":"...","content":[{"type":"text","text":"Berlin: 16°C, fog"}],"details":{"state":{"version":1}}}',
  '{"type":"tool_result","id":"t1","content":[{"type":"image","mime_type":"image/png","data":"iVBORw0KGgo="}],"is_error":true}',
  '{"type":"subscribe","events":["session_start","turn_start","tool_call","tool_confirmation_requested","turn_end","assistant_message"],"intercept":["tool_call","turn_start","assistant_message"]}',
  '{"type":"event_intercept_response","id":"...","block":true,"reason":"refused: matches danger pattern \\"rm -rf\\""}',
  '{"type":"event_intercept_response","id":"...","modified_args":{"command":"echo GUARDED: ls","timeout":30}}',
  '{"type":"event_intercept_response","id":"...","replace_text":"[redacted]"}',
  '{"type":"event_intercept_response","id":"...","context":"Current phase: parse files\\nRemaining: validate inputs"}',
  '{"type":"command_response","id":"...","action":"prompt","prompt":"Show today\'s weather for Berlin in one line."}',
  '{"type":"command_response","id":"...","action":"open_panel","open_panel":{"id":"todos-main","title":"Todos","lines":["□ ship panel api","✓ persist state"],"footer":"↑/↓ navigate - a add - x complete - esc close"}}',
  '{"type":"submit","text":"Summarize the selected workspace."}',
  '{"type":"panel_render","panel_id":"todos-main","title":"Todos","lines":["□ ship panel api","✓ persist state"],"footer":"↑/↓ navigate - a add - x complete - esc close"}',
  '{"type":"panel_close","panel_id":"todos-main"}',
  '{"type":"status","key":"progress","level":"success","text":"2/4 tasks checked"}',
  '{"type":"widget","id":"progress","position":"above_input","title":"Progress","lines":["Indexing files","12/20 complete"]}',
  '{"type":"widget_clear","id":"plan"}',
  '{"type":"notify","level":"info","message":"refreshed cache (12 entries)"}',
  '{"type":"alert","kind":"bell","reason":"question_ready"}',
  '{"type":"clear_notes"}',
  '{"type":"shutdown_ack"}',
  // extproto.go: spontaneous open_panel and submit_slash
  '{"type":"open_panel","panel":{"id":"todos-main","title":"Todos","lines":["□ a","✓ b"],"footer":"esc close"}}',
  '{"type":"submit_slash","text":"/todo add milk"}',
];

/** Host → extension examples, verbatim from the spec (plus extproto.go's panel_resize). */
const HOST_EXAMPLES: string[] = [
  '{"type":"hello_ack","protocol_version":2,"zut_version":"0.0.7","provider":"anthropic","model":"claude-opus-4-7","cwd":"/path/to/zut","extension_dir":"/path/to/zut/.zut/extensions/todos","data_dir":"/path/to/zut/.zut/extensions/todos","session":{"id":"branch-1","parent_id":"root-1","path":".../session.jsonl","cwd":"/path/to/zut","fork_point":4}}',
  '{"type":"command_invoked","id":"...","name":"weather","args":"berlin"}',
  '{"type":"tool_call","id":"...","name":"weather","args":{"city":"Berlin"}}',
  '{"type":"tool_cancel","id":"..."}',
  '{"type":"event","event":"session_opened","session":{"id":"branch-1","parent_id":"root-1","fork_point":4},"state":{"version":1}}',
  '{"type":"event","event":"turn_start","step":1}',
  '{"type":"event","event":"tool_call","tool_id":"...","tool_name":"read","tool_args":{"path":"foo.go"}}',
  '{"type":"event","event":"tool_confirmation_requested","tool_id":"...","tool_name":"read","tool_preview":"foo.go"}',
  '{"type":"event","event":"turn_end","stop":"end_turn"}',
  '{"type":"event_intercept","id":"...","event":"tool_call","tool_id":"...","tool_name":"bash","tool_args":{"command":"rm -rf /tmp/foo","timeout":30}}',
  '{"type":"event_intercept","id":"...","event":"turn_start","step":3}',
  '{"type":"event_intercept","id":"...","event":"assistant_message","text":"here is your api key: sk-ant-..."}',
  '{"type":"panel_key","panel_id":"todos-main","key":"down"}',
  '{"type":"panel_key","panel_id":"todos-main","key":"rune","text":"x"}',
  '{"type":"panel_close","panel_id":"todos-main"}',
  '{"type":"shutdown"}',
  '{"type":"panel_resize","panel_id":"todos-main","width":80,"height":24}',
];

function expectError(line: string): FrameError {
  const r = parseExtFrame(line);
  if (r.ok) throw new Error(`expected an error for ${line}, got ${JSON.stringify(r.frame)}`);
  return r.error;
}

function parseHost(value: Record<string, unknown>) {
  const type = value.type as HostFrameType;
  return hostFrameSchemas[type].safeParse(value);
}

function without(obj: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(obj);
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
  delete target[keys[keys.length - 1]!];
  return copy;
}

function exampleOf(examples: string[], type: string): Record<string, unknown> {
  const line = examples.find((l) => (JSON.parse(l) as { type: string }).type === type);
  if (!line) throw new Error(`no example for ${type}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe('extension → host frames', () => {
  it.each(EXT_EXAMPLES)('parses the spec example %s', (line) => {
    const r = parseExtFrame(line);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) expect(r.frame.type).toBe((JSON.parse(line) as { type: string }).type);
  });

  it('has an example for every frame type the schemas know', () => {
    const covered = new Set(EXT_EXAMPLES.map((l) => (JSON.parse(l) as { type: string }).type));
    expect([...covered].sort()).toEqual(Object.keys(extFrameSchemas).sort());
  });

  it('keeps the payload of a tool_result', () => {
    const r = parseExtFrame(EXT_EXAMPLES[8]!);
    expect(r).toEqual({
      ok: true,
      frame: {
        type: 'tool_result',
        id: '...',
        content: [{ type: 'text', text: 'Berlin: 16°C, fog' }],
        details: { state: { version: 1 } },
      },
    });
  });

  it('keeps a spontaneous open_panel with its panel', () => {
    const r = parseExtFrame(exampleLine(EXT_EXAMPLES, 'open_panel'));
    expect(r.ok && r.frame.type === 'open_panel' && r.frame.panel).toEqual({
      id: 'todos-main',
      title: 'Todos',
      lines: ['□ a', '✓ b'],
      footer: 'esc close',
    });
  });

  it.each(EXT_EXAMPLES)('tolerates unknown fields in %s', (line) => {
    const value = { ...(JSON.parse(line) as object), future_field: { x: [1, 2] }, another: 'y' };
    const r = validateExtFrame(value);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.frame).not.toHaveProperty('future_field');
  });

  it('turns null arrays (Go nil slices) into defaults', () => {
    const r = parseExtFrame('{"type":"tool_result","id":"a","content":null,"activate_tools":null}');
    expect(r).toEqual({ ok: true, frame: { type: 'tool_result', id: 'a', content: [] } });
    const h = parseExtFrame('{"type":"hello","protocol_version":2,"name":"x","capabilities":null}');
    expect(h.ok && h.frame.type === 'hello' && h.frame.capabilities).toEqual([]);
    const s = parseExtFrame('{"type":"subscribe","events":null}');
    expect(s.ok && s.frame.type === 'subscribe' && [s.frame.events, s.frame.intercept]).toEqual([[], []]);
  });

  it.each(['frobnicate', 'HELLO', 'tool_call', 'constructor', '__proto__', 'toString', ''])(
    'reports unknown type %j as unknown_type',
    (type) => {
      const e = expectError(JSON.stringify({ type, id: 'x' }));
      expect(e).toMatchObject({ kind: 'unknown_type', type });
      expect(e.message).toContain(`"${type}"`);
    },
  );

  it('is not derailed by an unknown type: the next line parses', () => {
    const lines = ['{"type":"nope"}', '{"type":"ready"}'];
    const results = lines.map(parseExtFrame);
    expect(results[0]!.ok).toBe(false);
    expect(results[1]).toEqual({ ok: true, frame: { type: 'ready' } });
  });

  const REQUIRED: [string, string][] = [
    ['hello', 'protocol_version'],
    ['hello', 'name'],
    ['register_command', 'name'],
    ['register_tool', 'name'],
    ['event_intercept_response', 'id'],
    ['tool_result', 'id'],
    ['command_response', 'id'],
    ['command_response', 'action'],
    ['open_panel', 'panel'],
    ['open_panel', 'panel.id'],
    ['panel_render', 'panel_id'],
    ['panel_close', 'panel_id'],
    ['status', 'key'],
    ['widget', 'id'],
    ['widget_clear', 'id'],
    ['alert', 'kind'],
    ['notify', 'message'],
    ['submit_slash', 'text'],
    ['submit', 'text'],
  ];
  it.each(REQUIRED)('%s without %s is reported with the field name', (type, field) => {
    const e = expectError(JSON.stringify(without(exampleOf(EXT_EXAMPLES, type), field)));
    expect(e).toMatchObject({ kind: 'invalid', type, field });
    expect(e.message).toBe(`${type} frame is missing required field "${field}"`);
  });

  const WRONG: [string, Record<string, unknown>, string][] = [
    ['tool_result', { id: 5 }, 'id'],
    ['tool_result', { content: [{ type: 'text', text: 5 }] }, 'content.0.text'],
    ['tool_result', { content: 'text' }, 'content'],
    ['tool_result', { is_error: 'yes' }, 'is_error'],
    ['hello', { protocol_version: '2' }, 'protocol_version'],
    ['hello', { protocol_version: 2.5 }, 'protocol_version'],
    ['hello', { capabilities: 'tools' }, 'capabilities'],
    ['status', { text: 3 }, 'text'],
    ['panel_render', { lines: 'one line' }, 'lines'],
    ['panel_render', { lines: ['a', 1] }, 'lines.1'],
    ['register_tool', { name: '' }, 'name'],
    ['register_tool', { interactive: 'true' }, 'interactive'],
    ['open_panel', { panel: { id: '' } }, 'panel.id'],
    ['open_panel', { panel: 'todos' }, 'panel'],
    ['command_response', { open_panel: { id: 7 } }, 'open_panel.id'],
  ];
  it.each(WRONG)('%s with %j names the wrong field %s', (type, patch, field) => {
    const e = expectError(JSON.stringify({ ...exampleOf(EXT_EXAMPLES, type), ...patch }));
    expect(e).toMatchObject({ kind: 'invalid', type, field });
    expect(e.message).toContain(`"${field}"`);
    expect(e.message).not.toContain('missing');
  });

  it('reports a frame without type', () => {
    expect(expectError('{"id":"1"}')).toMatchObject({ kind: 'invalid', field: 'type' });
    expect(expectError('{"type":7}')).toMatchObject({ kind: 'invalid', field: 'type' });
  });

  it.each(['[1,2]', '"hello"', 'null', '42', 'true'])('reports non-object %s as not_object', (line) => {
    expect(expectError(line).kind).toBe('not_object');
  });

  it.each(['{', '{"type":"ready"', 'not json', '{"type":"ready"}}', '', '\u00ff'])('reports bad JSON %j', (line) => {
    const e = expectError(line);
    expect(e.kind).toBe('json');
    expect(e.message).toMatch(/^invalid JSON: /);
  });
});

describe('tool_result fast path', () => {
  const json = fc.jsonValue({ maxDepth: 2 });
  const str = fc.string({ maxLength: 8 });
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: json });
  const block = fc.oneof(
    { weight: 6, arbitrary: fc.record({ type: maybe(str), text: maybe(str), mime_type: maybe(str), data: maybe(str), extra: json }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: json },
  );
  const frame = fc.record(
    {
      type: fc.constant('tool_result'),
      id: maybe(str),
      content: fc.oneof(fc.array(block, { maxLength: 3 }), fc.constant(null), json),
      is_error: maybe(fc.boolean()),
      activate_tools: fc.oneof(fc.array(maybe(str), { maxLength: 3 }), fc.constant(null), json),
      details: json,
      extra: json,
    },
    { requiredKeys: ['type'] },
  );

  it('knows every field of the schema (a field added to ToolResultFromExt or ContentBlock must be added there too)', () => {
    expect(Object.keys(extFrameSchemas.tool_result.shape).sort()).toEqual(['activate_tools', 'content', 'details', 'id', 'is_error', 'type']);
    expect(Object.keys(ContentBlock.shape).sort()).toEqual(['data', 'mime_type', 'text', 'type']);
  });

  it('gives exactly what the zod schema gives, or leaves the frame to zod', () => {
    let fast = 0;
    fc.assert(
      fc.property(frame, (v) => {
        const mine = plainToolResult(v);
        const zod = extFrameSchemas.tool_result.safeParse(v);
        if (mine) {
          fast++;
          expect(zod.success).toBe(true);
          expect(mine).toStrictEqual(zod.data);
        } else if (zod.success) {
          throw new Error(`valid frame not taken by the fast path: ${JSON.stringify(v)}`);
        }
        const r = validateExtFrame(v);
        expect(r.ok).toBe(zod.success);
        if (r.ok) expect(r.frame).toStrictEqual(zod.data);
      }),
      { numRuns: 3000 },
    );
    expect(fast).toBeGreaterThan(300);
  });
});

describe('host → extension frames', () => {
  it.each(HOST_EXAMPLES)('parses the spec example %s', (line) => {
    const r = parseHost(JSON.parse(line) as Record<string, unknown>);
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });

  it('has an example for every host frame type', () => {
    const covered = new Set(HOST_EXAMPLES.map((l) => (JSON.parse(l) as { type: string }).type));
    expect([...covered].sort()).toEqual(Object.keys(hostFrameSchemas).sort());
  });

  it.each(HOST_EXAMPLES)('tolerates unknown fields in %s', (line) => {
    const r = parseHost({ ...(JSON.parse(line) as Record<string, unknown>), extra: true });
    expect(r.success).toBe(true);
    expect(r.data).not.toHaveProperty('extra');
  });

  const REQUIRED: [HostFrameType, string][] = [
    ['hello_ack', 'protocol_version'],
    ['hello_ack', 'zut_version'],
    ['hello_ack', 'cwd'],
    ['hello_ack', 'session.id'],
    ['command_invoked', 'id'],
    ['command_invoked', 'name'],
    ['tool_call', 'id'],
    ['tool_call', 'name'],
    ['tool_cancel', 'id'],
    ['event', 'event'],
    ['event_intercept', 'id'],
    ['event_intercept', 'event'],
    ['panel_key', 'panel_id'],
    ['panel_key', 'key'],
    ['panel_resize', 'width'],
    ['panel_resize', 'height'],
    ['panel_close', 'panel_id'],
  ];
  it.each(REQUIRED)('%s without %s fails on that path', (type, field) => {
    const r = parseHost(without(exampleOf(HOST_EXAMPLES, type), field));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path.join('.')).toBe(field);
  });

  it('rejects a non-integer panel_resize size', () => {
    const r = parseHost({ type: 'panel_resize', panel_id: 'p', width: 80.5, height: 24 });
    expect(r.error?.issues[0]?.path).toEqual(['width']);
  });
});

function exampleLine(examples: string[], type: string): string {
  return JSON.stringify(exampleOf(examples, type));
}
