/**
 * zot extensions (protocol v1, zot-extensions.md) through the Manager, with REAL child processes: the fixtures in
 * test/fixtures/zot (zot-node in plain Node, zot-py in Python), loaded as explicit paths next to a zut v2 guard.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagerOptions } from '../../src/host/api';
import { Manager } from '../../src/host/manager';
import { runLoop } from '../../src/host/chat/loop';
import { systemPreamble } from '../../src/host/chat/systemPrompt';
import { RecordingSink, ScriptedModel, text } from '../fixtures/chat/helpers';
import { FakeEditorTools, RecordingUi, cleanupTemps, nodeExt, tempDir, until, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';
import { copyExample, killAll } from '../helpers/stdioDriver';

const ZOT = path.resolve(__dirname, '../fixtures/zot');
const ZOT_NODE = path.join(ZOT, 'zot-node');
const ZOT_PY = path.join(ZOT, 'zot-py');

afterEach(async () => {
  await stopManagers();
  await killAll();
  cleanupTemps();
});

async function start(opts: Partial<ManagerOptions> & { guard?: Record<string, unknown> } = {}) {
  const z = zutHome();
  const project = tempDir('zut-zot-');
  const ui = new RecordingUi();
  const explicit = [ZOT_NODE, ZOT_PY];
  if (opts.guard) explicit.push(nodeExt(tempDir('zut-guard-'), { name: 'guard', ...opts.guard }));
  const m = new Manager({ folders: [project], zutHome: z.home, ui, hostVersion: '9.9.9', provider: 'vendor', model: 'model-1', extensionPaths: explicit, globalExtensions: false, ...opts });
  keepManager(m);
  const report = await m.start();
  return { m, ui, project, report };
}

/** Runs a command whose response is `display` JSON and parses it. */
async function display(m: Manager, name: string, args = ''): Promise<Record<string, unknown>> {
  const r = await m.invokeCommand(name, args);
  expect(r.action).toBe('display');
  return JSON.parse(r.display!) as Record<string, unknown>;
}

describe('zot v1 through the Manager', () => {
  it('a hello without protocol_version is zot v1: both fixtures load, register and get zot\'s hello_ack', async () => {
    const { m, report, project } = await start();
    expect(report.errors).toEqual([]);
    expect(report.ready.sort()).toEqual(['zot-node', 'zot-py']);
    const infos = Object.fromEntries(m.extensions().map((e) => [e.name, e]));
    expect(infos['zot-node']).toMatchObject({ protocol: 'zot', state: 'running', readyMode: 'ready', capabilities: ['commands', 'tools', 'call_tool', 'tool_cancel'] });
    expect(infos['zot-py']).toMatchObject({ protocol: 'zot', state: 'running', readyMode: 'ready' });
    expect(infos['zot-node']!.interceptions).toEqual(['before_agent_start']);
    // What @zut has no moment for is accepted and named, never silently dropped.
    expect(infos['zot-node']!.diagnostics).toEqual(["subscribe: permission_decision never happen in VS Code's @zut: not sent"]);
    expect(m.tools().map((t) => t.name).sort()).toEqual(['py_big', 'py_chain', 'py_chain2', 'py_slow', 'py_upper', 'zchain', 'zchain2', 'zforecast', 'zloop', 'ztwice']);
    const seen = await display(m, 'zseen');
    expect(seen.ack).toEqual({
      type: 'hello_ack', protocol_version: 1, zot_version: '9.9.9', provider: 'vendor', model: 'model-1', cwd: project,
      extension_dir: ZOT_NODE, data_dir: ZOT_NODE, capabilities: ['call_tool'],
    });
  });

  it('commands and tools map as for zut; tool_prompt keeps tool_name and tool_args', async () => {
    const { m } = await start();
    expect(await m.invokeCommand('zweather', 'Oslo')).toMatchObject({ ext: 'zot-node', action: 'prompt', prompt: 'What is the weather in Oslo?' });
    expect(await m.invokeCommand('pyhello', 'ada')).toMatchObject({ ext: 'zot-py', action: 'tool_prompt', prompt: 'Greet me very briefly.', tool_name: 'py_upper', tool_args: { text: 'ada' } });
    const r = await m.invokeTool('py_upper', { text: 'shout' }, { session: { id: 's1' }, origin: 'cli' });
    expect(r).toMatchObject({ ext: 'zot-py', isError: false, content: [{ type: 'text', text: 'SHOUT' }] });
  });

  it('call_tool runs another extension\'s tool through the guarded path; an unknown name is an error result', async () => {
    const { m } = await start();
    expect(await display(m, 'zrelay', 'py_upper {"text":"from node"}')).toEqual({ name: 'py_upper', is_error: false, text: 'FROM NODE', truncated: false });
    expect(await display(m, 'pyask', 'zforecast {"city":"Lyon"}')).toEqual({ name: 'zforecast', is_error: false, text: 'Lyon: 16°C, fog' });
    const unknown = await display(m, 'zrelay', 'no_such_tool {}');
    expect(unknown).toMatchObject({ is_error: true, text: 'call_tool: unknown tool no_such_tool' });
    // The tool_call event and the tool_result event (zot's) reached the subscriber.
    const seen = (await display(m, 'zseen')) as { events: Array<Record<string, unknown>> };
    const call = seen.events.find((e) => e.event === 'tool_call' && e.tool_name === 'py_upper');
    const result = seen.events.find((e) => e.event === 'tool_result' && e.tool_name === 'py_upper');
    expect(call).toMatchObject({ tool_args: { text: 'from node' }, origin_extension: 'zot-node', cwd: expect.any(String), sequence: expect.any(Number) });
    expect(result).toMatchObject({ status: 'completed', executed: true, origin_extension: 'zot-node', result: { is_error: false, content: [{ type: 'text', text: 'FROM NODE' }] } });
  });

  it("zot's built-in `skill` (call_tool, tool_prompt) loads a running extension's bundled skill (before any editor tool of that name)", async () => {
    const editorTools = new FakeEditorTools([{ name: 'skill', description: "the editor's" }], () => [{ type: 'text', text: 'editor skill' }]);
    const briefing = copyExample('briefing');
    const { m } = await start({ editorTools, extensionPaths: [ZOT_NODE, briefing] });
    const r = await display(m, 'zrelay', 'skill {"name":"weather-briefing"}');
    expect(r).toMatchObject({ name: 'skill', is_error: false, text: expect.stringContaining('# Weather briefing') });
    expect(r.text).toMatch(/^Skill "weather-briefing" of the zut extension briefing\./);
    expect(await display(m, 'zrelay', 'skill {"name":"nope"}')).toMatchObject({ is_error: true, text: 'skill: unknown skill "nope"; available: weather-briefing' });
    expect(editorTools.ran).toEqual([]);
    // The palette's and the CLI's tool_prompt call the guarded path by name: `skill` is the host's there too.
    const direct = await m.invokeTool('skill', { name: 'weather-briefing' }, { session: { id: 's1' }, origin: 'palette' });
    expect(direct).toMatchObject({ ext: 'briefing', isError: false, content: [{ type: 'text', text: expect.stringContaining('# Weather briefing') }] });
    await m.stopExtension('briefing');
    // No skill runs: `skill` is whatever else has the name (here the editor's tool).
    expect(await display(m, 'zrelay', 'skill {"name":"weather-briefing"}')).toMatchObject({ is_error: false, text: 'editor skill' });
  });

  it('a zut guard blocks a call_tool like any other call', async () => {
    const { m } = await start({ guard: { subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'no shouting' } } } });
    expect(await display(m, 'zrelay', 'py_upper {"text":"x"}')).toMatchObject({ is_error: true, text: 'blocked by guard: no shouting' });
  });

  it('call_tool reaches the editor\'s own tools (VS Code lm tools through the EditorToolPort)', async () => {
    const z = zutHome();
    const ui = new RecordingUi();
    const editorTools = new FakeEditorTools([{ name: 'vscode_search', description: 'search the workspace' }], (_n, args) => [{ type: 'text', text: `found ${JSON.stringify(args)}` }]);
    const m = new Manager({ folders: [], zutHome: z.home, ui, hostVersion: '9.9.9', extensionPaths: [ZOT_NODE], globalExtensions: false, editorTools });
    keepManager(m);
    await m.start();
    expect(await display(m, 'zrelay', 'vscode_search {"q":"x"}')).toEqual({ name: 'vscode_search', is_error: false, text: 'found {"q":"x"}', truncated: false });
    expect(editorTools.ran).toEqual([{ name: 'vscode_search', input: { q: 'x' } }]);
  });

  it('chains: parent_id nests a call; a repeated name and a call without parent_id during a tool are refused', async () => {
    const { m } = await start();
    const chained = await m.invokeTool('zchain', { tool: 'py_upper', args: { text: 'deep' } }, { session: { id: 's' }, origin: 'chat' });
    expect(chained).toMatchObject({ isError: false, content: [{ type: 'text', text: 'chain: DEEP' }] });
    const loop = await m.invokeTool('zloop', {}, { session: { id: 's' }, origin: 'chat' });
    expect(loop.isError).toBe(true);
    expect(loop.content[0]!.text).toBe('call_tool: tool zloop is already in this chain (zloop → zloop)');
    const twice = await m.invokeTool('ztwice', {}, { session: { id: 's' }, origin: 'chat' });
    expect(twice.content[0]!.text).toMatch(/^call_tool: refused without parent_id while a tool of zot-node is running/);
    // Across both extensions: four calls are fine, a fifth is refused.
    const hop = (tool: string, args: unknown) => ({ tool, args });
    const four = await m.invokeTool('zchain', hop('py_chain', hop('zchain2', { tool: 'py_upper', args: { text: 'four' } })), { session: { id: 's' }, origin: 'chat' });
    expect(four.content[0]!.text).toBe('chain: py: chain: FOUR');
    const five = await m.invokeTool('zchain', hop('py_chain', hop('zchain2', hop('py_chain2', hop('py_upper', {})))), { session: { id: 's' }, origin: 'chat' });
    expect(five.content[0]!.text).toBe('chain: py: chain: py: call_tool: at most 4 tool calls in one chain (zchain → py_chain → zchain2 → py_chain2 → py_upper)');
  });

  it('call_tool_cancel ends the call with an error result and the callee gets tool_cancel', async () => {
    const { m } = await start();
    expect(await display(m, 'zcancel', 'py_slow {"ms":5000}')).toEqual({ is_error: true, text: 'call_tool: tool py_slow was cancelled' });
    await until(async () => ((await display(m, 'pyseen')).cancels as string[]).length === 1, 5000, 'py_slow to get tool_cancel');
  });

  it('results are bounded to 256 KiB and marked truncated', async () => {
    const { m } = await start();
    const r = await display(m, 'zrelay', `py_big {"bytes":${300 * 1024}}`);
    expect(r.truncated).toBe(true);
    expect((r.text as string).length).toBe(256 * 1024);
    // The tool_result event's copy is bounded the same way (zot's observation budget).
    const seen = (await display(m, 'zseen')) as { events: Array<{ event: string; tool_name?: string; result?: { truncated?: boolean; content: Array<{ text: string }> } }> };
    const event = seen.events.find((e) => e.event === 'tool_result' && e.tool_name === 'py_big');
    expect(event?.result?.truncated).toBe(true);
    expect(event?.result?.content[0]!.text.length).toBe(256 * 1024);
  });

  it('before_agent_start replaces the @zut system prompt; the result is stable for the same request', async () => {
    const { m } = await start();
    const start1 = { session_id: 'sess-1', cwd: '/w', provider: 'vendor', model: 'model-1' };
    const pre = await systemPreamble(m, [], start1);
    expect(pre).toEqual([{ role: 'user', parts: [{ kind: 'text', text: '\n[zot-node] Answer in English.' }] }]);
    expect(await m.interceptBeforeAgentStart({ ...start1, system_prompt: '' })).toBe('\n[zot-node] Answer in English.');
  });

  it('when the caller stops, its call_tool ends (the callee gets tool_cancel); other extensions keep working', async () => {
    const { m } = await start();
    void m.invokeCommand('zrelay', 'py_slow {"ms":20000}').catch(() => undefined);
    await until(() => m.extensions().find((e) => e.name === 'zot-py')?.pending === 1, 5000, 'py_slow to run');
    await m.stopExtension('zot-node');
    await until(async () => ((await display(m, 'pyseen')).cancels as string[]).length === 1, 5000, 'py_slow to get tool_cancel');
    const r = await m.invokeTool('py_upper', { text: 'still' }, { session: { id: 's' }, origin: 'cli' });
    expect(r.content[0]!.text).toBe('STILL');
  });
});

describe('zot in the @zut loop', () => {
  it('tool_prompt: the tool runs through the guarded path first; the model sees prompt, call and result, in that order', async () => {
    const { m } = await start();
    const reply = await m.invokeCommand('pyhello', 'ada');
    const model = new ScriptedModel([[text('Hello, ADA.')]]);
    const sink = new RecordingSink();
    const r = await runLoop({
      host: m, model, sink, history: [], prompt: reply.prompt!, maxRounds: 4, signal: new AbortController().signal, session: { id: 'chat-z' },
      toolFirst: { name: reply.tool_name!, args: reply.tool_args as Record<string, unknown> },
    });
    expect(r.stop).toBe('end_turn');
    const [first] = model.requests;
    expect(first!.messages.map((msg) => [msg.role, msg.parts.map((p) => p.kind)])).toEqual([
      ['user', ['text']],
      ['assistant', ['toolCall']],
      ['user', ['toolResult']],
    ]);
    expect(first!.messages[1]!.parts[0]).toMatchObject({ kind: 'toolCall', name: 'py_upper', input: { text: 'ada' } });
    expect(first!.messages[2]!.parts[0]).toMatchObject({ kind: 'toolResult', isError: false, content: [{ kind: 'text', text: 'ADA' }] });
    // The user saw the call run, and zot-node heard the prompt (user_prompt_submit).
    expect(sink.finished.map((o) => [o.name, o.status])).toEqual([['py_upper', 'ok']]);
    const seen = (await display(m, 'zseen')) as { events: Array<Record<string, unknown>> };
    expect(seen.events.find((e) => e.event === 'user_prompt_submit')).toMatchObject({ text: 'Greet me very briefly.' });
  });
});
