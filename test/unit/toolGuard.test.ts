/**
 * The one guard door (src/host/calls/toolGuard.ts) against the real Manager and real guard extensions: the acting
 * tools guards never saw are judged as zut's tools, and every call the door cannot judge is blocked in zut's name —
 * never passed: a 6,000-deep or 100 MB input, a guard that exits while judging, a guard that does not answer in strict
 * mode (agent hooks), a failure of the door itself, an input that does not fit its tool's shape.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import { ToolGuard } from '../../src/host/calls/toolGuard';
import type { ToolResult } from '../../src/host/types';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, zutHome } from '../helpers/hostFixtures';

const GUARD = path.resolve(__dirname, 'fixtures/hooks/guard.mjs');
let guardLog: string;

beforeEach(() => {
  guardLog = path.join(tempDir('guard-log-'), 'guard.log');
  process.env.GUARD_LOG = guardLog;
});
afterEach(async () => {
  await stopManagers();
  cleanupTemps();
  delete process.env.GUARD_LOG;
});

/** A Manager over a zut home with the hook guard (bash rm -rf, paths with "secret") and `more` extensions. */
async function start(more: (exts: string) => void = () => undefined, o: { guard?: boolean; interceptTimeoutMs?: number } = {}): Promise<Manager> {
  const z = zutHome();
  if (o.guard !== false) {
    fs.mkdirSync(path.join(z.exts, 'hook-guard'));
    fs.writeFileSync(path.join(z.exts, 'hook-guard', 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [GUARD] }));
  }
  more(z.exts);
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't', interceptTimeoutMs: o.interceptTimeoutMs });
  keepManager(m);
  await m.start();
  return m;
}

const guardSaw = (): Record<string, unknown>[] =>
  (fs.existsSync(guardLog) ? fs.readFileSync(guardLog, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** A stand-in for the foreign tool: records the input it ran with. */
function fakeTool() {
  const ran: Record<string, unknown>[] = [];
  return { ran, run: (input: Record<string, unknown>): Promise<ToolResult> => (ran.push(input), Promise.resolve({ ext: 'vscode', content: [{ type: 'text', text: 'ran' }], isError: false })) };
}

/** An array nested `depth` levels deep. */
function deep(depth: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

describe('the guard door: every acting tool is seen', () => {
  it('a patch of two files the guard allows: a subscriber hears tool_call for each file, then tool_result for each', async () => {
    const m = await start();
    const t = fakeTool();
    const patch = ['*** Begin Patch', '*** Add File: /w/a.txt', '+a', '*** Add File: /w/b.txt', '+b', '*** End Patch'].join('\n');
    const r = await m.invokeTool('apply_patch', { input: patch, explanation: 'e' }, { session: { id: 's' }, origin: 'chat', toolId: 'p2', foreign: { source: 'vscode', run: t.run } });
    expect(r).toMatchObject({ isError: false });
    await expect.poll(() => guardSaw().filter((l) => l.kind === 'event' && l.event === 'tool_result' && String(l.tool_id).startsWith('p2')).length).toBe(2);
    const heard = guardSaw().filter((l) => l.kind === 'event' && String(l.tool_id).startsWith('p2'));
    expect(heard.map((l) => [l.event, l.tool_id])).toEqual([
      ['tool_call', 'p2'],
      ['tool_call', 'p2#2'],
      ['tool_result', 'p2'],
      ['tool_result', 'p2#2'],
    ]);
  });

  it("a bash guard blocks VS Code's create_and_run_task {task: {command: 'rm -rf ~'}}; nothing runs", async () => {
    const m = await start();
    const t = fakeTool();
    const task = { workspaceFolder: '/w', task: { label: 'clean', type: 'shell', command: 'rm -rf ~' } };
    const r = await m.invokeTool('create_and_run_task', task, { session: { id: 's' }, origin: 'chat', toolId: 'task-1', foreign: { source: 'vscode', run: t.run } });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'hook-guard', reason: 'no rm -rf here' } });
    expect(t.ran).toEqual([]);
    expect(guardSaw().find((l) => l.kind === 'intercept' && l.tool_id === 'task-1')).toMatchObject({ tool_name: 'bash', tool_args: { command: 'rm -rf ~' }, editor_tool: 'create_and_run_task', effect: 'exec' });
  });

  it('apply_patch: each file is asked about; one secret file blocks the whole patch', async () => {
    const m = await start();
    const t = fakeTool();
    const patch = ['*** Begin Patch', '*** Add File: /w/ok.txt', '+fine', '*** Update File: /w/secret.env', '@@', '-A=1', '+A=2', '*** End Patch'].join('\n');
    const r = await m.invokeTool('apply_patch', { input: patch, explanation: 'e' }, { session: { id: 's' }, origin: 'chat', toolId: 'p1', foreign: { source: 'vscode', run: t.run } });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'hook-guard', reason: 'no secrets' } });
    expect(t.ran).toEqual([]);
    const asked = guardSaw().filter((l) => l.kind === 'intercept' && String(l.tool_id).startsWith('p1'));
    expect(asked.map((l) => [l.tool_id, l.tool_name, (l.tool_args as { path: string }).path])).toEqual([
      ['p1', 'write', '/w/ok.txt'],
      ['p1#2', 'edit', '/w/secret.env'],
    ]);
  });

  it('a tool with no zut form reaches guards under its own name with effect and editor_tool; the patch that passes runs as it came', async () => {
    const m = await start();
    const t = fakeTool();
    await m.invokeTool('runTests', { files: ['/w/a.test.ts'] }, { session: { id: 's' }, origin: 'chat', toolId: 'rt', foreign: { source: 'vscode', run: t.run } });
    expect(guardSaw().find((l) => l.kind === 'intercept' && l.tool_id === 'rt')).toMatchObject({ tool_name: 'runTests', tool_args: { files: ['/w/a.test.ts'] }, editor_tool: 'runTests', effect: 'exec' });
    const patch = '*** Begin Patch\n*** Add File: /w/ok.txt\n+fine\n*** End Patch';
    await m.invokeTool('apply_patch', { input: patch }, { session: { id: 's' }, origin: 'chat', foreign: { source: 'vscode', run: t.run } });
    expect(t.ran).toEqual([{ files: ['/w/a.test.ts'] }, { input: patch }]);
  });
});

describe('the guard door fails closed', () => {
  it('an input nested 6,000 deep is blocked by zut when a guard would judge it (no stack overflow, nothing runs)', async () => {
    const m = await start();
    const t = fakeTool();
    const r = await m.invokeTool('mcp_other_tool', { params: deep(6000) }, { session: { id: 's' }, origin: 'chat', foreign: { source: 'vscode', run: t.run } });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'zut', reason: expect.stringMatching(/nested more than 512 levels/) } });
    expect(t.ran).toEqual([]);
    // …and a zut extension's own tool the same way (the guard door comes first).
    const own = await m.invokeTool('guard_status', { params: deep(6000) }, { session: { id: 's' }, origin: 'cli' });
    expect(own).toMatchObject({ isError: true, blocked: { ext: 'zut' } });
    // The guard is still there and still judging.
    expect((await m.guardTool({ name: 'Bash', input: { command: 'rm -rf /' }, source: 'claude' })).verdict).toMatchObject({ blocked: { ext: 'hook-guard' } });
  });

  it('with no guard, a 6,000-deep call to an extension is an error result, not a crash of the host', async () => {
    const m = await start((exts) => nodeExt(exts, { name: 'echo', tools: [{ name: 'echo' }] }), { guard: false });
    await expect(m.invokeTool('echo', { params: deep(6000) }, { session: { id: 's' }, origin: 'cli' })).rejects.toThrow(/cannot be sent/);
    expect(JSON.parse((await m.invokeTool('echo', { ok: 1 }, { session: { id: 's' }, origin: 'cli' })).content[0].text!)).toEqual({ name: 'echo', args: { ok: 1 } });
  });

  it('a 100 MB input is blocked by zut when a guard would judge it', async () => {
    const m = await start();
    const t = fakeTool();
    const r = await m.invokeTool('create_file', { filePath: '/w/big.txt', content: 'x'.repeat(100 * 1024 * 1024) }, { session: { id: 's' }, origin: 'chat', foreign: { source: 'vscode', run: t.run } });
    expect(r).toMatchObject({ isError: true, blocked: { ext: 'zut', reason: expect.stringMatching(/over \d+ bytes encoded/) } });
    expect(t.ran).toEqual([]);
  }, 60_000);

  it('a guard that exits while judging blocks the call in zut’s name', async () => {
    const m = await start((exts) => nodeExt(exts, { name: 'crasher', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: 'crash' } }), { guard: false });
    const { verdict } = await m.guardTool({ name: 'Bash', input: { command: 'ls' }, source: 'claude' });
    expect(verdict).toMatchObject({ blocked: { ext: 'zut', reason: expect.stringMatching(/^guard crasher could not judge this call/) } });
  });

  it('a guard that does not answer in time: allowed by zut’s rule, blocked in strict mode (agent hooks)', async () => {
    const m = await start((exts) => nodeExt(exts, { name: 'silent', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: 'never' } }), { guard: false, interceptTimeoutMs: 300 });
    expect((await m.guardTool({ name: 'Bash', input: { command: 'ls' }, source: 'claude' })).verdict).toEqual({ input: { command: 'ls' }, rewrittenBy: [] });
    expect((await m.guardTool({ name: 'Bash', input: { command: 'ls' }, source: 'claude', strict: true })).verdict).toEqual({ blocked: { ext: 'zut', reason: 'guard silent did not answer in time' } });
  });

  it('an input that does not have its tool’s shape is blocked when a guard listens (a Bash with no command string)', async () => {
    const m = await start();
    expect((await m.guardTool({ name: 'Bash', input: { command: ['rm', '-rf', '/'] }, source: 'claude' })).verdict).toMatchObject({ blocked: { ext: 'zut', reason: expect.stringMatching(/does not have Bash's shape/) } });
  });

  it('a failure of the door itself blocks the call, naming zut', async () => {
    const door = new ToolGuard({
      hasSubscribers: () => false,
      hasInterceptors: () => true,
      emit: () => undefined,
      emitExcept: () => [],
      toolCallInterceptors: () => {
        throw new Error('the registry is gone');
      },
    });
    expect((await door.guard({ name: 'Bash', input: { command: 'ls' }, source: 'claude' })).verdict).toEqual({ blocked: { ext: 'zut', reason: 'zut could not judge this call: the registry is gone' } });
  });
});
