/**
 * Editor tools on the guarded path (the `foreign` option of invokeTool, through the guard door toolGuard.ts) against
 * the real Manager and a guard written
 * for zut's `bash` (test/vscode/fixtures/zut/bash-guard): guards see `run_in_terminal` as `bash`, their block and
 * rewrite apply to the editor tool, an unmappable rewrite blocks in the guard's name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InvokeToolOptions } from '../../src/host/calls/invoke';
import { Manager } from '../../src/host/manager';
import type { ToolResult } from '../../src/host/types';
import { FakeEditorTools, RecordingUi, cleanupTemps, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

const GUARD = path.resolve(__dirname, '../vscode/fixtures/zut/bash-guard');
afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

async function start(editorTools?: FakeEditorTools): Promise<{ m: Manager; ui: RecordingUi }> {
  const z = zutHome();
  fs.cpSync(GUARD, path.join(z.exts, 'bash-guard'), { recursive: true });
  const ui = new RecordingUi();
  const m = new Manager({ folders: [], zutHome: z.home, ui, hostVersion: 't', editorTools });
  keepManager(m);
  await m.start();
  return { m, ui };
}

/** One of VS Code's tools called through the guarded path, as @zut calls it. */
const invokeForeign = (m: Manager, name: string, input: unknown, run: (input: Record<string, unknown>) => Promise<ToolResult>, o: Omit<InvokeToolOptions, 'foreign'>) =>
  m.invokeTool(name, input, { ...o, foreign: { source: 'vscode', run } });

const textOf = (r: { content: { text?: string }[] }) => r.content.map((c) => c.text ?? '').join('');
const terminal = (command: string) => ({ command, explanation: 'e', goal: 'g', mode: 'sync', futureField: 7 });

/** A fake `run_in_terminal`: records the input it ran with. */
function fakeTerminal() {
  const ran: Record<string, unknown>[] = [];
  const run = (input: Record<string, unknown>): Promise<ToolResult> => {
    ran.push(input);
    return Promise.resolve({ ext: 'vscode', content: [{ type: 'text', text: `ran ${String(input.command)}` }], isError: false });
  };
  return { ran, run };
}

describe('editor tools on the guarded path', () => {
  it('guards see run_in_terminal as bash {command} with editor_tool; the events too', async () => {
    const { m } = await start();
    const t = fakeTerminal();
    const r = await invokeForeign(m, 'run_in_terminal', terminal('echo hi'), t.run, { session: { id: 's' }, origin: 'chat', toolId: 'c1' });
    expect(textOf(r)).toBe('ran echo hi');
    expect(t.ran).toEqual([terminal('echo hi')]);
    const seen = JSON.parse(textOf(await m.callTool('bash_guard_seen', {}))) as Record<string, unknown>[];
    expect(seen.find((s) => s.kind === 'intercept')).toMatchObject({ event: 'tool_call', tool_id: 'c1', tool_name: 'bash', tool_args: { command: 'echo hi' }, editor_tool: 'run_in_terminal' });
    const events = seen.filter((s) => s.kind === 'event' && s.tool_id === 'c1');
    expect(events).toEqual([
      expect.objectContaining({ event: 'tool_call', tool_name: 'bash', tool_args: { command: 'echo hi' }, editor_tool: 'run_in_terminal' }),
      expect.objectContaining({ event: 'tool_result', tool_name: 'bash', editor_tool: 'run_in_terminal', status: 'completed', executed: true }),
    ]);
  });

  it('a bash guard blocks run_in_terminal rm -rf: the model gets "blocked by <guard>: <reason>", nothing runs', async () => {
    const { m } = await start();
    const t = fakeTerminal();
    const r = await invokeForeign(m, 'run_in_terminal', terminal('rm -rf /tmp/x'), t.run, { session: { id: 's' }, origin: 'chat' });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'bash-guard', reason: 'no rm -rf here' } });
    expect(textOf(r)).toBe('blocked by bash-guard: no rm -rf here');
    expect(t.ran).toEqual([]);
  });

  it("a guard's rewrite of bash.command is what the editor tool runs, the other fields kept", async () => {
    const { m } = await start();
    const t = fakeTerminal();
    await invokeForeign(m, 'run_in_terminal', terminal('echo ZUT_REWRITE'), t.run, { session: { id: 's' }, origin: 'chat' });
    expect(t.ran).toEqual([terminal('echo rewritten')]);
  });

  it('an unmappable rewrite is refused: blocked in the guard’s name, a diagnostic on the guard, nothing runs', async () => {
    const { m } = await start();
    const t = fakeTerminal();
    const r = await invokeForeign(m, 'run_in_terminal', terminal('ls ZUT_CWD'), t.run, { session: { id: 's' }, origin: 'chat' });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'bash-guard' } });
    expect(textOf(r)).toBe('blocked by bash-guard: modified_args cannot be applied to run_in_terminal: bash.cwd has no counterpart in run_in_terminal');
    expect(t.ran).toEqual([]);
    expect(m.extensions().find((e) => e.name === 'bash-guard')?.diagnostics.join('\n')).toMatch(/bash\.cwd has no counterpart in run_in_terminal; the call is blocked/);
  });

  it("zot's call_tool of an editor tool takes the same mapping (one implementation)", async () => {
    const editor = new FakeEditorTools([{ name: 'run_in_terminal' }], (_name, args) => [{ type: 'text', text: `ran ${JSON.stringify(args)}` }]);
    const { m } = await start(editor);
    const requests = (m as unknown as { requests: { handle(ext: string, to: unknown, id: string, method: string, params: unknown): void } }).requests;
    const answer = await new Promise<unknown>((resolve) =>
      requests.handle('caller', { respond: (_id: unknown, r: unknown) => (resolve(r), true) }, 'r1', 'call_tool', { name: 'run_in_terminal', args: terminal('rm -rf /') }),
    );
    expect(answer).toMatchObject({ kind: 'tool', isError: true, content: [{ type: 'text', text: 'blocked by bash-guard: no rm -rf here' }] });
    expect(editor.ran).toEqual([]);
  });
});
