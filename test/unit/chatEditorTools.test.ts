/**
 * VS Code's own tools in the `@zut` loop (src/host/chat/editorTools.ts, loop.ts) with a fake editor port, a scripted
 * model and the real Manager running a guard written for zut's `bash` (test/vscode/fixtures/zut/bash-guard): the
 * selection (ours, internal, the setting), unique names, the guarded path (block, rewrite, events), results, errors
 * and cancel.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isInternalTool, isAgentModeTool, selectEditorTools, type EditorToolInfo, type EditorToolPort } from '../../src/host/chat/editorTools';
import { currentOffer, runLoop } from '../../src/host/chat/loop';
import type { JsonObject } from '../../src/host/calls/foreignTools';
import type { ExtensionHost } from '../../src/host/api';
import type { ToolResult } from '../../src/host/types';
import { readSettings } from '../../src/ui-model/settings';
import { RecordingSink, ScriptedModel, call, cleanup, flatten, probe, startManager, tempDir, text } from '../fixtures/chat/helpers';

afterEach(cleanup);

const GUARD = path.resolve(__dirname, '../vscode/fixtures/zut/bash-guard');
const OWN = { mcpLabel: 'zut' };
const info = (name: string, extra: Partial<EditorToolInfo> = {}): EditorToolInfo => ({ name, description: `${name} tool`, inputSchema: { type: 'object' }, ...extra });

/** A fake editor with `run_in_terminal` (records what it ran) and `screenshot` (an image), `broken` (throws). */
function fakeEditor(tools = ['run_in_terminal', 'screenshot', 'broken', 'slow']) {
  const ran: { name: string; input: JsonObject }[] = [];
  let slowSignal: AbortSignal | undefined;
  const port: EditorToolPort = {
    tools: () => tools.map((t) => info(t)),
    invoke: (name, input, signal): Promise<ToolResult> => {
      ran.push({ name, input });
      if (name === 'screenshot') return Promise.resolve({ ext: 'vscode', content: [{ type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo=' }], isError: false });
      if (name === 'broken') return Promise.resolve({ ext: 'vscode', content: [{ type: 'text', text: 'broken failed: nope' }], isError: true });
      if (name === 'slow')
        return new Promise((_resolve, reject) => {
          slowSignal = signal;
          signal.addEventListener('abort', () => reject(Object.assign(new Error('cancelled'), { name: 'AbortError' })));
        });
      return Promise.resolve({ ext: 'vscode', content: [{ type: 'text', text: `ran: ${String(input.command)}` }], isError: false });
    },
  };
  return { port, ran, slowSignal: () => slowSignal };
}

function loop(host: ExtensionHost, model: ScriptedModel, port: EditorToolPort, signal = new AbortController().signal) {
  const sink = new RecordingSink();
  const run = runLoop({ host, model, sink, history: [], prompt: 'hi', maxRounds: 4, signal, session: { id: 'chat-1' }, editorTools: port });
  return { sink, run };
}
const terminal = (command: string) => ({ command, explanation: 'e', goal: 'g', mode: 'sync' });

describe('editor tools: which are offered', () => {
  it('not our own agent-mode tools (by source when VS Code says, else by the MCP prefix), not *_internal, as the setting says', () => {
    const all = [
      info('run_in_terminal'),
      info('mcp_zut_weather', { tags: ['mcp'] }),
      info('zut_like', { source: { label: 'zut' } }),
      info('mcp_other_x', { source: { label: 'other' } }),
      info('vscode_editFile_internal'),
      info('runTests'),
    ];
    expect(isAgentModeTool(all[1], OWN)).toBe(true);
    expect(isAgentModeTool(all[2], OWN)).toBe(true);
    expect(isInternalTool(all[4])).toBe(true);
    expect(selectEditorTools(all, 'all', OWN).map((t) => t.name)).toEqual(['run_in_terminal', 'mcp_other_x', 'runTests']);
    expect(selectEditorTools(all, 'none', OWN)).toEqual([]);
    expect(selectEditorTools(all, ['runTests', 'mcp_zut_weather', 'missing'], OWN).map((t) => t.name)).toEqual(['runTests']);
  });

  it('zut.chat.editorTools: "all" by default, "none", an allow-list; anything else falls back with a problem', () => {
    const read = (v: unknown) => readSettings((k) => (k === 'chat.editorTools' ? v : undefined));
    expect(read(undefined).settings.chatEditorTools).toBe('all');
    expect(read('none').settings.chatEditorTools).toBe('none');
    expect(read(['run_in_terminal']).settings.chatEditorTools).toEqual(['run_in_terminal']);
    const bad = read('some');
    expect(bad.settings.chatEditorTools).toBe('all');
    expect(bad.problems[0]).toMatch(/^zut\.chat\.editorTools: /);
  });

  it('names stay unique: zut names keep theirs, a clashing editor tool gets a stable hashed name', async () => {
    const dir = probe(tempDir(), { name: 'clash', tools: [{ name: 'run_in_terminal', kind: 'echo' }, { name: 'Screenshot', kind: 'echo' }] });
    const m = await startManager([dir]);
    const { port } = fakeEditor();
    const offer = currentOffer(m, [], port);
    expect(offer.names.toModel('run_in_terminal')).toBe('run_in_terminal');
    const editorRun = offer.editorNames.toModel('run_in_terminal');
    expect(editorRun).toMatch(/^run_in_terminal_[0-9a-f]{8}$/);
    expect(offer.editorNames.toModel('screenshot')).toMatch(/^screenshot_[0-9a-f]{8}$/); // case-insensitive clash
    expect(offer.editorNames.toModel('broken')).toBe('broken');
    expect(currentOffer(m, [], port).editorNames.toModel('run_in_terminal')).toBe(editorRun); // stable
    const model = new ScriptedModel([[text('done')]]);
    await loop(m, model, port).run;
    const offered = model.requests[0].tools;
    expect(new Set(offered.map((n) => n.toLowerCase())).size).toBe(offered.length);
    expect(offered).toEqual(expect.arrayContaining(['run_in_terminal', editorRun, 'broken']));
  });
});

describe('editor tools: calls take the guarded path as zut tools', () => {
  it('run_in_terminal runs as bash for the guards; its result reaches the model; tool_call/tool_result events carry editor_tool', async () => {
    const m = await startManager([GUARD]);
    const ed = fakeEditor();
    const model = new ScriptedModel([[call('run_in_terminal', terminal('echo tok-1'))], [text('ok')]]);
    const { sink, run } = loop(m, model, ed.port);
    expect((await run).stop).toBe('end_turn');
    expect(ed.ran).toEqual([{ name: 'run_in_terminal', input: terminal('echo tok-1') }]);
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe('result ran: echo tok-1');
    expect(sink.started).toEqual(['run_in_terminal@vscode']);
    const seen = JSON.parse((await m.callTool('bash_guard_seen', {})).content[0].text ?? '') as Record<string, unknown>[];
    expect(seen.filter((s) => s.kind === 'event').map((s) => [s.event, s.tool_name, s.editor_tool])).toEqual([
      ['tool_call', 'bash', 'run_in_terminal'],
      ['tool_result', 'bash', 'run_in_terminal'],
    ]);
  });

  it('the bash guard blocks run_in_terminal rm -rf: the model reads "blocked by bash-guard: …", nothing runs', async () => {
    const m = await startManager([GUARD]);
    const ed = fakeEditor();
    const model = new ScriptedModel([[call('run_in_terminal', terminal('rm -rf /tmp/zz'))], [text('ok')]]);
    const { sink, run } = loop(m, model, ed.port);
    await run;
    expect(ed.ran).toEqual([]);
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe('result(error) blocked by bash-guard: no rm -rf here');
    expect(sink.finished[0]).toMatchObject({ name: 'run_in_terminal', ext: 'vscode', status: 'blocked' });
  });

  it("the guard's rewrite of bash.command is what run_in_terminal runs", async () => {
    const m = await startManager([GUARD]);
    const ed = fakeEditor();
    await loop(m, new ScriptedModel([[call('run_in_terminal', terminal('echo ZUT_REWRITE'))], [text('ok')]]), ed.port).run;
    expect(ed.ran).toEqual([{ name: 'run_in_terminal', input: terminal('echo rewritten') }]);
  });

  it('an image result goes to the model as an image; an error result stays an error', async () => {
    const m = await startManager([GUARD]);
    const ed = fakeEditor();
    const model = new ScriptedModel([[call('screenshot'), call('broken')], [text('ok')]]);
    await loop(m, model, ed.port).run;
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe('result <image/png> | result(error) broken failed: nope');
  });

  it("Stop reaches the editor tool (its signal aborts) and the call ends cancelled", async () => {
    const m = await startManager([GUARD]);
    const ed = fakeEditor();
    const stop = new AbortController();
    const { sink, run } = loop(m, new ScriptedModel([[call('slow')], [text('never')]]), ed.port, stop.signal);
    await new Promise<void>((resolve) => {
      const t = setInterval(() => ed.slowSignal() && (clearInterval(t), resolve()), 10);
    });
    stop.abort();
    expect((await run).stop).toBe('cancelled');
    expect(ed.slowSignal()?.aborted).toBe(true);
    expect(sink.finished[0]).toMatchObject({ name: 'slow', status: 'cancelled' });
  });
});
