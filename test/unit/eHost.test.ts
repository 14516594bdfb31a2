/**
 * e extensions end to end (issue 13): the REAL fixture children (test/fixtures/e: enode in Node, epy in Python)
 * discovered in an e home, started with `initialize`, and driven through the Manager: commands, tools through the
 * guarded path (the e guard blocks), turn context, events, questions, panels, refusals, shutdown.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoop } from '../../src/host/chat/loop';
import { Manager } from '../../src/host/manager';
import { E_PANEL_ID } from '../../src/host/protocols/eUi';
import { RecordingSink, ScriptedModel, call, flatten, text } from '../fixtures/chat/helpers';
import { RecordingUi, alive, cleanupTemps, tempDir, until, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

const E_FIXTURES = path.resolve(__dirname, '../fixtures/e');
afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** An e home whose extensions dir links the fixtures; a Manager over it (zut home empty). */
async function started(fixtures: string[] = ['enode', 'epy'], settings?: string) {
  const eHome = tempDir('e-home-');
  const exts = path.join(eHome, 'extensions');
  fs.mkdirSync(exts);
  if (settings !== undefined) fs.writeFileSync(path.join(eHome, 'settings.json'), settings);
  for (const f of fixtures) fs.symlinkSync(path.join(E_FIXTURES, f), path.join(exts, f));
  const ui = new RecordingUi();
  const m = new Manager({ folders: [tempDir('e-project-')], zutHome: zutHome().home, e: { home: eHome }, ui, hostVersion: '9.9.9' });
  keepManager(m);
  const report = await m.start();
  return { m, ui, report, exts };
}
const session = { id: 'b1' };

describe('e extensions through the Manager', () => {
  it('initialize registers tools (parameters as schema), commands, hooks; both fixtures run', async () => {
    const { m, report } = await started();
    expect(report.errors).toEqual([]);
    expect(report.ready.sort()).toEqual(['enode', 'epy']);
    const enode = m.extensions().find((e) => e.name === 'enode')!;
    expect(enode).toMatchObject({ ecosystem: 'e', state: 'running', version: '1.0.0', readyMode: 'ready', interceptions: ['tool_call', 'turn_start'] });
    expect(enode.subscriptions).toEqual(expect.arrayContaining(['turn_end', 'tool_call', 'session_start']));
    expect(enode.diagnostics).toContain('shortcuts (ctrl+alt+g) are not bound: run its commands from the Command Palette or /');
    expect(m.allTools().find((t) => t.name === 'e_greet')?.schema).toEqual({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] });
    expect(m.commands().map((c) => c.name)).toEqual(expect.arrayContaining(['e_ping', 'e_ask', 'py_hello', 'py_fail']));
    expect(m.extensions().find((e) => e.name === 'epy')!.subscriptions).toEqual(['turn_end']); // version 1: turn_end alone
  });

  it('commands: notice and show are displayed, prompt submitted, an error answer is the error', async () => {
    const { m } = await started();
    expect(await m.invokeCommand('e_ping', ' x ')).toMatchObject({ ext: 'enode', action: 'display', display: 'pong x' });
    expect(await m.invokeCommand('e_show', '')).toMatchObject({ action: 'display', display: 'diff a.txt\n-old\n+new' });
    expect(await m.invokeCommand('e_prompt', 'the diff')).toMatchObject({ action: 'prompt', prompt: 'summarize the diff' });
    expect(await m.invokeCommand('py_hello', 'x')).toMatchObject({ ext: 'epy', action: 'display', display: 'hello from python\nargs: x' });
    expect(await m.invokeCommand('py_fail', '')).toMatchObject({ ext: 'epy', action: 'noop', error: 'py_fail failed on purpose' });
  });

  it('tools through the guarded path: results, progress, ui.notify, error answers; the e guard blocks', async () => {
    const { m, ui } = await started();
    const progress: string[] = [];
    const r = await m.invokeTool('e_greet', { who: 'bob' }, { session, origin: 'chat', onProgress: (t) => progress.push(t) });
    expect(r).toMatchObject({ ext: 'enode', isError: false, content: [{ type: 'text', text: 'hello bob' }] });
    expect(progress).toEqual(['greeting…']);
    expect(ui.of('notify').map((c) => c.args)).toContainEqual(['info', 'greeting bob']);
    expect(await m.invokeTool('py_add', { a: 2, b: 3 }, { session, origin: 'chat' })).toMatchObject({ ext: 'epy', isError: false, content: [{ type: 'text', text: '5' }] });
    expect(await m.invokeTool('py_boom', {}, { session, origin: 'chat' })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'py_boom always fails' }] });
    const blocked = await m.invokeTool('e_danger', {}, { session, origin: 'chat' });
    expect(blocked).toMatchObject({ isError: true, blocked: { ext: 'enode', reason: 'enode refuses e_danger' } });
    const guarded = await m.invokeTool('py_add', { a: 1, b: 1, note: 'rm -rf /' }, { session, origin: 'chat' });
    expect(guarded.blocked).toEqual({ ext: 'enode', reason: 'enode refuses py_add' });
  });

  it('hook.before_turn adds context to the turn; events arrive as e events', async () => {
    const { m } = await started(['enode']);
    expect(await m.interceptTurnStart(1)).toEqual({ context: '[enode]\nAnswer in one line.' });
    m.emit({ event: 'turn_end', stop: 'end_turn' });
    m.emit({ event: 'assistant_message', text: 'not asked for' });
    // Notifications and requests travel the same pipe in order: e_events answers after handling turn_end.
    const r = await m.callTool('e_events', {});
    const events = JSON.parse(r.content[0]!.text!) as { name: string }[];
    expect(events).toContainEqual({ name: 'turn_end', extra: { aborted: false } });
    expect(events.map((e) => e.name)).not.toContain('assistant_message');
  });

  it("hook.before_turn is sent the turn's prompt (issue 31: it was always empty)", async () => {
    const { m } = await started(['enode']);
    expect(await m.interceptTurnStart(1, 'what is the weather in Paris?')).toEqual({ context: '[enode]\nAnswer in one line. The user asked: what is the weather in Paris?' });
    // Every model step of the turn: the same prompt.
    expect((await m.interceptTurnStart(2, 'what is the weather in Paris?')).context).toContain('The user asked: what is the weather in Paris?');
  });

  it('questions go to HostUi.ask; the answer, a dismissal and "no ui" reach the extension', async () => {
    const { m, ui } = await started(['enode']);
    ui.answers.push({ label: 'Green', value: 'green' });
    expect(await m.invokeCommand('e_ask', '')).toMatchObject({ display: 'picked green (Green)' });
    expect(ui.of('ask')[0]!.args[0]).toEqual({ kind: 'select', title: 'Colour?', options: [{ label: 'red', value: 'red' }, { label: 'Green', description: 'the calm one', value: 'green' }] });
    ui.answers.push(undefined);
    expect(await m.invokeCommand('e_ask', '')).toMatchObject({ display: 'cancelled' });
    ui.answers.push(true);
    expect(await m.invokeCommand('e_confirm', '')).toMatchObject({ display: 'confirmed: true' });
    ui.answers.push('pat');
    expect(await m.invokeCommand('e_input', '')).toMatchObject({ display: 'hello pat' });
    expect(await m.invokeCommand('e_input', '')).toMatchObject({ display: expect.stringMatching(/^input failed: no ui: enode asked "Name\?"/) });
  });

  it('what cannot map is refused with a clear error, never a hang', async () => {
    const { m } = await started(['enode']);
    expect(await m.invokeCommand('e_model', '')).toMatchObject({ display: "refused: session.model: model switching is not available: the model is the user's choice in VS Code" });
  });

  it('ui.panel opens our panel; keys come back as ui.key and redraw it; status and widget show', async () => {
    const { m, ui } = await started(['enode']);
    await m.invokeCommand('e_panel', '');
    expect(ui.of('status').map((c) => c.args)).toContainEqual(['status:c', undefined, 'counting']);
    expect(ui.of('widget').map((c) => c.args[0])).toContainEqual({ id: 'w', lines: ['widget row'] });
    expect(ui.of('openPanel')[0]!.args[0]).toMatchObject({ id: E_PANEL_ID, title: 'Counter', lines: ['count: 0', 'up/down, q quits'] });
    m.panelKey('enode', E_PANEL_ID, 'down');
    await until(() => ui.of('panelRender').find((c) => (c.args[0] as { lines?: string[] }).lines?.[0] === 'count: -1'));
    m.panelKey('enode', E_PANEL_ID, 'rune', 'q');
    await until(() => ui.of('panelClose').length > 0);
  });

  it('@zut: the e guard blocks a tool the model calls, tool.update is progress, before_turn context reaches the model', async () => {
    const { m } = await started();
    const model = new ScriptedModel([[call('e_greet', { who: 'ann' }), call('py_add', { a: 1, b: 2, cmd: 'rm -rf ~' })], [text('done')]]);
    const sink = new RecordingSink();
    await runLoop({ host: m, model, sink, history: [], prompt: 'hi', maxRounds: 4, signal: new AbortController().signal, session });
    expect(sink.progress).toEqual(['e_greet: greeting…']);
    expect(sink.finished.map((f) => [f.name, f.status])).toEqual([
      ['e_greet', 'ok'],
      ['py_add', 'blocked'],
    ]);
    const second = model.requests[1]!.messages.map(flatten).join('\n');
    expect(second).toContain('result hello ann');
    expect(second).toContain('result(error) blocked by enode: enode refuses py_add');
    expect(model.requests[0]!.messages.map(flatten).join('\n')).toContain('Answer in one line. The user asked: hi');
  });

  it("initialize carries the host's facts, ui, and extensions_config from e's settings.json", async () => {
    const settings = { theme: 'x', extensions: { enode: { greeting: 'hey' }, mcp: { command: 'npx' } } };
    const { m } = await started(['enode'], JSON.stringify(settings));
    const init = JSON.parse((await m.callTool('e_init', {})).content[0]!.text!) as Record<string, unknown>;
    expect(init).toMatchObject({ protocol: 1, ui: true, e_version: '9.9.9', extensions_config: settings.extensions });
    expect(init.capabilities).toEqual(expect.arrayContaining(['tool.update', 'hooks', 'ui']));
    const broken = await started(['enode'], '{not json');
    expect(JSON.parse((await broken.m.callTool('e_init', {})).content[0]!.text!)).toMatchObject({ extensions_config: {} });
  });

  it('stop sends shutdown and every child is gone', async () => {
    const { m } = await started();
    const pids = m.extensions().map((e) => e.pid!);
    expect(pids.every((p) => alive(p))).toBe(true);
    await m.stop();
    expect(pids.some((p) => alive(p))).toBe(false);
    expect(m.extensions().map((e) => e.state)).toEqual(['stopped', 'stopped']);
  });
});
