/** The e protocol adapter's pure parts (issue 13): JSON-RPC framing, the manifest, message mapping, the handshake. */
import { describe, expect, it } from 'vitest';
import { E_MAX_PENDING_EXT_REQUESTS, E_PANEL_MAX_LINES, E_STATUS_MAX_COLUMNS, E_WIDGET_MAX_ROWS } from '../../src/protocol/limits';
import { eFamily, EProtocol, E_HOST_CAPABILITIES } from '../../src/host/protocols/e';
import { eventFromZut, registerManifest } from '../../src/host/protocols/eManifest';
import { E_PANEL_ID } from '../../src/host/protocols/eUi';
import { classifyLine, summarizeLine } from '../../src/host/protocols/eWire';
import type { ExtMessage, HandshakeStep, HostInfo } from '../../src/host/protocols/types';
import { RequestError } from '../../src/host/types';

const info: HostInfo = { hostVersion: '0.1.0', provider: 'p', model: 'm', cwd: '/proj', extensionDir: '/x', dataDir: '/x', canAsk: true };
const json = (line: string | undefined) => (line === undefined ? undefined : (JSON.parse(line) as unknown));
const line = (o: unknown) => JSON.stringify(o);

/** A protocol past its handshake with `manifest`. */
function connected(manifest: Record<string, unknown> = { name: 'x' }): { p: EProtocol; step: Extract<HandshakeStep, { kind: 'done' }> } {
  const h = eFamily.handshake({ name: 'x', hostInfo: () => info });
  const step = h.onLine(line({ id: 1, result: manifest }));
  if (step.kind !== 'done') throw new Error(`handshake: ${JSON.stringify(step)}`);
  return { p: step.protocol as EProtocol, step };
}
const batch = (m: ExtMessage) => {
  if (m.kind !== 'batch') throw new Error(`not a batch: ${JSON.stringify(m)}`);
  return { messages: m.messages, send: m.send.map(json) };
};

describe('e wire', () => {
  it('tells answers, requests and notifications apart by direction and members', () => {
    expect(classifyLine(line({ id: 3, result: { content: 'hi' } }))).toEqual({ kind: 'answer', key: '3', result: { content: 'hi' } });
    expect(classifyLine(line({ id: 3, error: 'boom' }))).toEqual({ kind: 'answer', key: '3', error: 'boom' });
    expect(classifyLine(line({ id: 3, error: { code: -1, message: 'rpc style' } }))).toEqual({ kind: 'answer', key: '3', error: 'rpc style' });
    expect(classifyLine(line({ id: 4 }))).toEqual({ kind: 'answer', key: '4', result: {} });
    expect(classifyLine(line({ id: { q: 1 }, method: 'ui.select', params: { title: 't' } }))).toEqual({ kind: 'request', id: { q: 1 }, method: 'ui.select', params: { title: 't' } });
    expect(classifyLine(line({ method: 'notify', params: { message: 'm' } }))).toEqual({ kind: 'notification', method: 'notify', params: { message: 'm' } });
    expect(classifyLine('{nope').kind).toBe('invalid');
    expect(classifyLine('[1]').kind).toBe('invalid');
    expect(classifyLine(line({ result: 1 }))).toMatchObject({ kind: 'invalid', message: 'ignored a line with neither "method" nor "id"' });
    expect(summarizeLine(line({ id: 7, method: 'tool_call', params: {} }))).toBe('tool_call #7');
    expect(summarizeLine(line({ id: 'q1', error: 'x' }))).toBe('error #q1');
    expect(summarizeLine(line({ method: 'shutdown' }))).toBe('shutdown');
  });
});

describe('e manifest', () => {
  it('registers tools (parameters as the input schema), commands, events and hooks', () => {
    const r = registerManifest({
      name: 'demo',
      version: '1.0',
      tools: [{ name: 'greet', description: 'say hi', parameters: { type: 'object', properties: { who: { type: 'string' } } } }, { name: 'bare' }],
      commands: [{ name: 'ping', description: 'check', arguments: '<env>' }],
      hooks: ['tool_call', 'before_turn'],
      events: ['session_start', 'tool_start'],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.reg.messages).toEqual([
      { kind: 'notice', notice: { type: 'register_tool', name: 'greet', description: 'say hi', schema: { type: 'object', properties: { who: { type: 'string' } } } } },
      { kind: 'notice', notice: { type: 'register_tool', name: 'bare', schema: { type: 'object', properties: {} } } },
      { kind: 'notice', notice: { type: 'register_command', name: 'ping', description: 'check (arguments: <env>)' } },
      {
        kind: 'notice',
        notice: { type: 'subscribe', events: ['session_start', 'session_opened', 'session_switched', 'session_forked', 'tool_call'], intercept: ['tool_call', 'turn_start'] },
      },
    ]);
    expect(r.reg.diagnostics).toEqual([]);
    expect([r.reg.name, r.reg.version]).toEqual(['demo', '1.0']);
  });

  it('a manifest without events is version 1 (turn_end alone); what cannot map is named in diagnostics', () => {
    const r = registerManifest({
      name: 'v1',
      hooks: ['input', 'render'],
      events: undefined,
      flags: [{ name: 'plan', type: 'boolean' }],
      shortcuts: [{ key: 'ctrl+alt+g' }],
      renders: ['tool:bash'],
      commands: [{ name: 'c', completions: true }],
    });
    if (!r.ok) throw new Error(r.error);
    expect([...r.reg.events]).toEqual(['turn_end']);
    expect(r.reg.diagnostics).toEqual([
      'hook "input" has no counterpart in zut-vscode: it is never called',
      'hook "render" has no counterpart in zut-vscode: it is never called',
      'flags: VS Code starts no e binary with arguments; the flags notification is never sent',
      'shortcuts (ctrl+alt+g) are not bound: run its commands from the Command Palette or /',
      'renders: hook.render is never called (VS Code renders chat itself)',
      'command completions are not offered (command.complete is never sent)',
    ]);
    expect(registerManifest({ name: 'e', events: ['model_change'] })).toMatchObject({ ok: true, reg: { diagnostics: ['event "model_change" has no counterpart in zut-vscode: it is never sent'] } });
  });

  it('a bad manifest is an error naming the field', () => {
    expect(registerManifest({ version: '1' })).toEqual({ ok: false, error: expect.stringMatching(/^invalid initialize result \(the manifest\): field "name": /) });
    expect(registerManifest({ name: 'x', tools: [{ description: 'no name' }] })).toEqual({ ok: false, error: expect.stringContaining('field "tools.0.name"') });
  });

  it('zut lifecycle events become e events, only those asked for', () => {
    const all = new Set(['session_start', 'turn_start', 'turn_end', 'tool_start', 'compact_end']);
    expect(eventFromZut({ event: 'session_forked', session: { id: 'b', path: '/s.jsonl' } }, all)).toEqual({ name: 'session_start', extra: { reason: 'fork', path: '/s.jsonl' } });
    expect(eventFromZut({ event: 'turn_end', stop: 'aborted' }, all)).toEqual({ name: 'turn_end', extra: { aborted: true } });
    expect(eventFromZut({ event: 'tool_call', tool_id: 't1', tool_name: 'bash', tool_args: { c: 1 } }, all)).toEqual({ name: 'tool_start', extra: { id: 't1', name: 'bash', arguments: { c: 1 } } });
    expect(eventFromZut({ event: 'turn_start', step: 2 }, new Set(['turn_end']))).toBeUndefined();
    expect(eventFromZut({ event: 'assistant_message', text: 'x' }, all)).toBeUndefined();
  });
});

describe('e handshake', () => {
  it('speaks first with initialize; notices before the answer are handled; the manifest completes registration', () => {
    const h = eFamily.handshake({ name: 'greet', hostInfo: () => info });
    expect(h.opening.map(json)).toEqual([
      { id: 1, method: 'initialize', params: { protocol: 1, capabilities: [...E_HOST_CAPABILITIES], ui: true, e_version: '0.1.0', cwd: '/proj', extensions_config: {} } },
    ]);
    expect(h.timeoutMs).toBe(5_000);
    const headless = eFamily.handshake({ name: 'greet', hostInfo: () => ({ ...info, canAsk: false }) });
    expect(json(headless.opening[0])).toMatchObject({ params: { ui: false } }); // as under `e -p`
    expect(h.onLine(line({ method: 'notify', params: { message: 'booting' } }))).toEqual({
      kind: 'wait',
      messages: [{ kind: 'notice', notice: { type: 'notify', level: 'info', message: 'booting' } }],
    });
    const step = h.onLine(line({ id: 1, result: { name: 'greeter', version: '2', tools: [{ name: 't' }], hooks: ['tool_call'] } }));
    expect(step).toMatchObject({ kind: 'done', send: [], registration: 'complete', hello: { protocol: 'e', protocolVersion: 1, name: 'greet', version: '2', capabilities: ['hooks', 'events'] } });
    if (step.kind !== 'done') return;
    expect(step.messages?.at(-1)).toEqual({ kind: 'diagnostic', message: 'initialize names the extension "greeter"; it is known here as "greet" (its file name)' });
  });

  it('a question before the manifest is refused at once (nothing to answer it on yet)', () => {
    const h = eFamily.handshake({ name: 'x', hostInfo: () => info });
    expect(h.onLine(line({ id: 'early', method: 'ui.confirm', params: { title: 'now?' } }))).toEqual({
      kind: 'wait',
      messages: [{ kind: 'batch', messages: [], send: [JSON.stringify({ id: 'early', error: 'answer initialize first: questions need the manifest' }) + '\n'] }],
    });
    // Display requests are served as usual.
    expect(h.onLine(line({ id: 2, method: 'ui.notify', params: { message: 'hi' } }))).toMatchObject({ kind: 'wait', messages: [{ kind: 'batch', send: [JSON.stringify({ id: 2, result: {} }) + '\n'] }] });
  });

  it('fails on an initialize error or a bad manifest', () => {
    const h = () => eFamily.handshake({ name: 'x', hostInfo: () => info });
    expect(h().onLine(line({ id: 1, error: 'not today' }))).toEqual({ kind: 'fail', message: 'initialize failed', detail: 'not today' });
    expect(h().onLine(line({ id: 1, result: { tools: [] } }))).toMatchObject({ kind: 'fail', message: expect.stringContaining('field "name"') });
  });
});

describe('e protocol: host requests and replies', () => {
  it('encodes tool_call, command and the two hooks with the correlation id as the wire id', () => {
    const { p } = connected();
    const id = p.nextId();
    expect(id).toBe('2');
    expect(json(p.encodeRequest(id, { kind: 'tool', name: 'greet', args: { who: 'bob' } }))).toEqual({ id: 2, method: 'tool_call', params: { name: 'greet', arguments: { who: 'bob' } } });
    expect(json(p.encodeRequest('3', { kind: 'command', name: 'ping', args: 'a b' }))).toEqual({ id: 3, method: 'command', params: { name: 'ping', args: 'a b' } });
    expect(json(p.encodeRequest('4', { kind: 'intercept', payload: { event: 'tool_call', tool_id: 't', tool_name: 'bash', tool_args: { command: 'ls' } } }))).toEqual({
      id: 4,
      method: 'hook.tool_call',
      params: { name: 'bash', arguments: { command: 'ls' } },
    });
    expect(json(p.encodeRequest('5', { kind: 'intercept', payload: { event: 'turn_start', step: 1 } }))).toEqual({ id: 5, method: 'hook.before_turn', params: { prompt: '' } });
    expect(json(p.encodeRequest('6', { kind: 'intercept', payload: { event: 'turn_start', step: 2, prompt: 'why?' } }))).toEqual({ id: 6, method: 'hook.before_turn', params: { prompt: 'why?' } });
    expect(p.decode(line({ id: 2, result: { content: 'ok' } }))).toEqual({ kind: 'reply', id: '2', body: { kind: 'answer', key: '2', result: { content: 'ok' } } });
  });

  it('maps replies: tool content or error result, command notice/show/prompt, hooks fail open', () => {
    const { p } = connected();
    expect(p.decodeReply('tool', { result: { content: 'done', summary: 's', format: 'markdown' } })).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(p.decodeReply('tool', { error: 'bad args' })).toEqual({ content: [{ type: 'text', text: 'bad args' }], is_error: true });
    expect(p.decodeReply('command', { result: { notice: 'pong' } })).toEqual({ action: 'display', display: 'pong' });
    expect(p.decodeReply('command', { result: { show: { title: 'diff', body: '+a', format: 'diff' }, notice: 'n' } })).toEqual({ action: 'display', display: 'n\n\ndiff\n+a' });
    expect(p.decodeReply('command', { result: { prompt: 'summarize' } })).toEqual({ action: 'prompt', prompt: 'summarize' });
    expect(p.decodeReply('command', { result: { session_name: 'ignored' } })).toEqual({ action: 'noop' });
    expect(p.decodeReply('command', { error: 'nope' })).toEqual({ action: 'noop', error: 'nope' });
    expect(p.decodeReply('intercept', { result: { block: true, reason: 'no rm' } })).toEqual({ block: true, reason: 'no rm' });
    expect(p.decodeReply('intercept', { result: { block: false } })).toEqual({});
    expect(p.decodeReply('intercept', { result: { system_suffix: 'be brief', message: 'phase 2' } })).toEqual({ context: 'be brief\n\nphase 2' });
    expect(p.decodeReply('intercept', { error: 'crashed' })).toEqual({});
    // e's hook.tool_call can only block (e-extensions.md): no field of its answer rewrites the call.
    expect(p.decodeReply('intercept', { result: { modified_args: 'rm -rf /', arguments: 'rm -rf /' } })).toEqual({});
    expect(() => p.decodeReply('tool', {})).toThrow(RequestError);
  });

  it('events go only where asked; shutdown is a notification; cancel and resize have no e message', () => {
    const { p } = connected({ name: 'x', events: ['turn_start'] });
    expect(json(p.encodeNotice({ kind: 'event', event: { event: 'turn_start', step: 1 } }))).toEqual({ method: 'event', params: { name: 'turn_start', extra: { prompt: '', step: 1 } } });
    expect(p.encodeNotice({ kind: 'event', event: { event: 'turn_end', stop: 'end_turn' } })).toBeUndefined();
    expect(json(p.encodeNotice({ kind: 'shutdown' }))).toEqual({ method: 'shutdown' });
    expect(p.encodeNotice({ kind: 'cancel', id: '2' })).toBeUndefined();
    expect(p.encodeNotice({ kind: 'panelResize', panelId: E_PANEL_ID, columns: 80, rows: 20 })).toBeUndefined();
    // A version-1 manifest (no events) receives turn_end alone.
    const v1 = connected().p;
    expect(json(v1.encodeNotice({ kind: 'event', event: { event: 'turn_end', stop: 'end_turn' } }))).toEqual({ method: 'event', params: { name: 'turn_end', extra: { aborted: false } } });
  });
});

describe('e protocol: what the extension asks', () => {
  it('display requests become notices answered {} at once', () => {
    const { p } = connected();
    expect(batch(p.decode(line({ id: 'n1', method: 'ui.notify', params: { message: 'hi', tone: 'warning' } })))).toEqual({
      messages: [{ kind: 'notice', notice: { type: 'notify', level: 'warn', message: 'hi' } }],
      send: [{ id: 'n1', result: {} }],
    });
    const long = 'x'.repeat(100);
    expect(batch(p.decode(line({ id: 2, method: 'ui.status', params: { text: long, key: 'build' } }))).messages).toEqual([
      { kind: 'notice', notice: { type: 'status', key: 'status:build', text: 'x'.repeat(E_STATUS_MAX_COLUMNS) } },
    ]);
    expect(batch(p.decode(line({ id: 3, method: 'ui.status', params: { text: null } }))).messages).toEqual([{ kind: 'notice', notice: { type: 'status', key: 'status', text: '' } }]);
    const rows = Array.from({ length: 12 }, (_, i) => [{ text: `r${i}`, token: 'dim' }]);
    const w = batch(p.decode(line({ id: 4, method: 'ui.widget', params: { lines: rows, key: 'k' } })));
    expect(w.messages).toEqual([{ kind: 'notice', notice: { type: 'widget', id: 'k', lines: rows.slice(0, E_WIDGET_MAX_ROWS).map((r) => r[0]!.text) } }]);
    expect(batch(p.decode(line({ id: 5, method: 'ui.widget', params: { lines: null, key: 'k' } }))).messages).toEqual([{ kind: 'notice', notice: { type: 'widget_clear', id: 'k' } }]);
    expect(batch(p.decode(line({ id: 6, method: 'session.send', params: { content: ' go on ' } }))).messages).toEqual([{ kind: 'notice', notice: { type: 'submit', text: 'go on' } }]);
  });

  it('ui.panel opens our panel, redraws it, closes it; keys reach an interactive panel as ui.key', () => {
    const { p } = connected();
    const lines = Array.from({ length: E_PANEL_MAX_LINES + 5 }, (_, i) => `line ${i}`);
    expect(batch(p.decode(line({ id: 1, method: 'ui.panel', params: { title: 'Todos', lines, interactive: true } }))).messages).toEqual([
      { kind: 'notice', notice: { type: 'open_panel', panel: { id: E_PANEL_ID, title: 'Todos', lines: lines.slice(0, E_PANEL_MAX_LINES), footer: 'keys go to the extension · Esc closes' } } },
    ]);
    expect(json(p.encodeNotice({ kind: 'panelKey', panelId: E_PANEL_ID, key: 'down' }))).toEqual({ method: 'ui.key', params: { key: 'down' } });
    expect(json(p.encodeNotice({ kind: 'panelKey', panelId: E_PANEL_ID, key: 'rune', text: 'x' }))).toEqual({ method: 'ui.key', params: { key: 'x' } });
    expect(batch(p.decode(line({ id: 2, method: 'ui.panel', params: { lines: ['a'] } }))).messages).toEqual([
      { kind: 'notice', notice: { type: 'panel_render', panel_id: E_PANEL_ID, lines: ['a'] } },
    ]);
    expect(p.encodeNotice({ kind: 'panelKey', panelId: E_PANEL_ID, key: 'down' })).toBeUndefined(); // no longer interactive
    expect(json(p.encodeNotice({ kind: 'panelClosed', panelId: E_PANEL_ID }))).toEqual({ method: 'ui.panel_closed', params: {} });
    expect(p.encodeNotice({ kind: 'panelClosed', panelId: E_PANEL_ID })).toBeUndefined();
    expect(batch(p.decode(line({ id: 3, method: 'ui.panel', params: null })))).toEqual({ messages: [], send: [{ id: 3, result: {} }] });
    p.decode(line({ id: 4, method: 'ui.panel', params: { lines: ['again'] } }));
    expect(batch(p.decode(line({ id: 5, method: 'ui.panel', params: null }))).messages).toEqual([{ kind: 'notice', notice: { type: 'panel_close', panel_id: E_PANEL_ID } }]);
  });

  it('questions become ask requests; the answer is shaped as e expects; dismissals and errors too', () => {
    const { p } = connected();
    const sel = p.decode(line({ id: 'q1', method: 'ui.select', params: { title: 'Pick', options: ['a', { label: 'B', description: 'bee', value: 2 }] } }));
    expect(sel).toEqual({
      kind: 'request',
      id: 'q1',
      method: 'ask',
      params: { kind: 'select', title: 'Pick', options: [{ label: 'a', value: 'a' }, { label: 'B', description: 'bee', value: 2 }] },
    });
    expect(json(p.encodeResponse('q1', { kind: 'result', value: { label: 'B', value: 2 } }))).toEqual({ id: 'q1', result: { value: 2, label: 'B' } });
    p.decode(line({ id: 7, method: 'ui.confirm', params: { title: 'Sure?' } }));
    expect(json(p.encodeResponse(7, { kind: 'result', value: undefined }))).toEqual({ id: 7, result: { confirmed: false } });
    p.decode(line({ id: 8, method: 'ui.input', params: { title: 'Name', secret: true } }));
    expect(json(p.encodeResponse(8, { kind: 'result', value: undefined }))).toEqual({ id: 8, result: { cancelled: true } });
    p.decode(line({ id: 9, method: 'ui.input', params: { title: 'Name' } }));
    expect(json(p.encodeResponse(9, { kind: 'result', value: 'pat' }))).toEqual({ id: 9, result: { text: 'pat' } });
    p.decode(line({ id: 10, method: 'ui.select', params: { title: 'x', options: [] } }));
    expect(json(p.encodeResponse(10, { kind: 'error', message: 'no ui' }))).toEqual({ id: 10, error: 'no ui' });
  });

  it('what cannot map is refused at once with an error naming it; so is the 33rd open question', () => {
    const { p } = connected();
    expect(batch(p.decode(line({ id: 1, method: 'session.model', params: { model: 'x' } }))).send).toEqual([
      { id: 1, error: "session.model: model switching is not available: the model is the user's choice in VS Code" },
    ]);
    expect(batch(p.decode(line({ id: 2, method: 'ui.pane', params: null }))).send[0]).toMatchObject({ id: 2, error: expect.stringContaining('ui.pane') });
    expect(batch(p.decode(line({ id: 3, method: 'frobnicate' })))).toEqual({ messages: [{ kind: 'diagnostic', message: 'refused unknown request "frobnicate"' }], send: [{ id: 3, error: 'unknown method "frobnicate"' }] });
    expect(batch(p.decode(line({ id: 4, method: 'ui.notify', params: {} }))).send[0]).toMatchObject({ id: 4, error: expect.stringMatching(/^ui\.notify: invalid params/) });
    expect(batch(p.decode(line({ id: 5, method: 'session.send', params: { content: 'x', internal: true } }))).send[0]).toMatchObject({ error: expect.stringContaining('internal') });
    for (let i = 0; i < E_MAX_PENDING_EXT_REQUESTS; i++) expect(p.decode(line({ id: `a${i}`, method: 'ui.confirm', params: { title: 't' } })).kind).toBe('request');
    expect(batch(p.decode(line({ id: 'over', method: 'ui.confirm', params: { title: 't' } }))).send).toEqual([{ id: 'over', error: `too many unanswered requests (at most ${E_MAX_PENDING_EXT_REQUESTS})` }]);
    p.encodeResponse('a0', { kind: 'result', value: true });
    expect(p.decode(line({ id: 'again', method: 'ui.confirm', params: { title: 't' } })).kind).toBe('request');
  });

  it('notifications: notify, tool.update as progress of the running request; others logged', () => {
    const { p } = connected();
    expect(p.decode(line({ method: 'notify', params: { message: 'hi' } }))).toEqual({ kind: 'notice', notice: { type: 'notify', level: 'info', message: 'hi' } });
    expect(p.decode(line({ method: 'tool.update', params: { id: 3, stream: 'stdout', chunk: 'working\n' } }))).toEqual({ kind: 'progress', id: '3', text: 'working\n' });
    expect(p.decode(line({ method: 'tool.update', params: { id: 3, stream: 'stderr', chunk: 'warn' } }))).toEqual({ kind: 'progress', id: '3', text: 'stderr: warn' });
    expect(p.decode(line({ method: 'pane.select', params: {} }))).toEqual({ kind: 'diagnostic', message: 'ignored notification "pane.select"' });
  });
});
