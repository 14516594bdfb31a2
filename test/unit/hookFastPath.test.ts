/**
 * `zut-host hook`'s fast path: a running host (the window's Manager, here in the test process) with a HookServer
 * answers the hook command (the real CLI bundle, spawned through a shell) with the guard already running — no second
 * copy of the extension is spawned; once the window is gone (server disposed, or a stale rendezvous left behind)
 * the same command falls back to a headless host with the same decision. The rendezvous directory is private.
 * Each runs against both entries: `cli.js hook …` and the light `hook.js hook …`; hook.js answers the fast path
 * without the CLI bundle (it runs with no cli.js beside it).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { HookServer } from '../../src/hooks/server';
import { findWindows, windowFile } from '../../src/hooks/rendezvous';
import { NullHostUi } from '../../src/host/hostUi';
import { Manager } from '../../src/host/manager';
import { builtHook, hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

let tmp: string;
/** The entry under test (cli.js or hook.js, side by side in tmp as in dist/). */
let entry: string;
let zutHome: string;
let workspace: string;
let hooksDir: string;
let guardLog: string;
let manager: Manager;

beforeAll(async () => {
  tmp = tempDir('zut-hookfast-');
  hookBundlesIn(tmp);
  fs.mkdirSync(path.join(tmp, 'alone'));
  fs.copyFileSync(builtHook(), path.join(tmp, 'alone', 'hook.js'));
  zutHome = path.join(tmp, 'zut-home');
  workspace = path.join(tmp, 'workspace');
  hooksDir = path.join(tmp, 'hooks');
  guardLog = path.join(tmp, 'guard.log');
  fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  const guard = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(guard, { recursive: true });
  fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
  process.env.GUARD_LOG = guardLog;
  manager = new Manager({ folders: [workspace], zutHome, ui: new NullHostUi(), hostVersion: 't', autoRestart: false });
  await manager.start();
}, 60_000);

afterAll(async () => {
  await manager.stop();
  manager.dispose();
  delete process.env.GUARD_LOG;
  cleanupTemps();
});

function runHook(stdin: string, file = entry): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // ZUT_HOOK_WARM=0: with no window, each call answers by itself here (the warm host has tests of its own).
  const env = { ...process.env, ZUT_HOME: zutHome, HOME: tmp, ZOT_HOME: path.join(tmp, 'no-zot'), ZUT_HOOKS_DIR: hooksDir, GUARD_LOG: guardLog, ZUT_HOOK_WARM: '0' };
  return runProcess(`"${process.execPath}" "${file}" hook --agent vscode PreToolUse`, [], { shell: true, cwd: tmp, env, stdin });
}

const starts = () => fs.readFileSync(guardLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; pid: number; tool_id?: string });
const input = (id: string, cwd = workspace) => JSON.stringify({ cwd, session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /', explanation: 'x', isBackground: false }, tool_use_id: id });
const DENY = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' } };

describe.each(['cli.js', 'hook.js'])('%s', (file) => {
  beforeAll(() => {
    entry = path.join(tmp, file);
  });

  describe('zut-host hook fast path', () => {
    it('a running host answers (from a subfolder too); no second copy of the guard is spawned', async () => {
      const server = await HookServer.listen(manager, [workspace], { dir: hooksDir });
      if (typeof server === 'string') throw new Error(server);
      try {
        expect(fs.statSync(hooksDir).mode & 0o777).toBe(0o700);
        const [own] = findWindows(workspace, hooksDir);
        expect(fs.statSync(own.file).mode & 0o777).toBe(0o600);
        const [windowGuard] = starts().filter((l) => l.kind === 'start');
        const started = starts().filter((l) => l.kind === 'start').length;
        for (const [id, cwd] of [['fast-1', workspace], ['fast-2', path.join(workspace, 'sub')]] as const) {
          const r = await runHook(input(id, cwd));
          expect(r.code).toBe(0);
          expect(JSON.parse(r.stdout)).toEqual(DENY);
          const asked = starts().find((l) => l.kind === 'intercept' && l.tool_id === id);
          expect(asked?.pid).toBe(windowGuard.pid);
        }
        expect(starts().filter((l) => l.kind === 'start')).toHaveLength(started);
      } finally {
        server.dispose();
      }
      expect(findWindows(workspace, hooksDir)).toEqual([]);
    }, 60_000);

    it('through the window: a 6,000-deep input is denied in zut\'s name, and the window\'s guard still answers after', async () => {
      const server = await HookServer.listen(manager, [workspace], { dir: hooksDir });
      if (typeof server === 'string') throw new Error(server);
      try {
        let nested = '[]';
        for (let i = 1; i < 6000; i++) nested = `[${nested}]`;
        const deep = `{"cwd":${JSON.stringify(workspace)},"session_id":"s","hook_event_name":"PreToolUse","tool_name":"mcp_other_y","tool_input":{"params":${nested}},"tool_use_id":"deep-${file}"}`;
        const r = await runHook(deep);
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^blocked by zut: zut cannot hand this call to its guards: the arguments are nested more than 512 levels deep/) } });
        expect(JSON.parse((await runHook(input(`after-deep-${file}`))).stdout)).toEqual(DENY);
      } finally {
        server.dispose();
      }
    }, 60_000);

    it('no window: a headless host gives the same decision (another copy of the guard, stopped after)', async () => {
      const r = await runHook(input('headless-1'));
      expect(JSON.parse(r.stdout)).toEqual(DENY);
      const asked = starts().find((l) => l.kind === 'intercept' && l.tool_id === 'headless-1');
      expect(asked?.pid).not.toBe(starts()[0].pid);
    }, 60_000);

    it('a stale rendezvous (the window died) or a wrong token falls back to headless', async () => {
      const stale = windowFile(hooksDir, workspace, 'gone');
      fs.writeFileSync(stale, JSON.stringify({ kind: 'window', address: path.join(hooksDir, 'gone.sock'), token: 'ab', pid: 2 ** 22 + 1, folder: workspace }), { mode: 0o600 });
      expect(JSON.parse((await runHook(input('stale-1'))).stdout)).toEqual(DENY);
      expect(fs.existsSync(stale)).toBe(false); // its writer is gone: the hook removed it
      const server = await HookServer.listen(manager, [workspace], { dir: hooksDir });
      if (typeof server === 'string') throw new Error(server);
      try {
        const [{ file }] = findWindows(workspace, hooksDir);
        const r = JSON.parse(fs.readFileSync(file, 'utf8')) as { token: string };
        fs.writeFileSync(file, JSON.stringify({ ...r, token: '00'.repeat(32) }), { mode: 0o600 });
        expect(JSON.parse((await runHook(input('token-1'))).stdout)).toEqual(DENY);
        const asked = starts().find((l) => l.kind === 'intercept' && l.tool_id === 'token-1');
        expect(asked?.pid).not.toBe(starts()[0].pid);
      } finally {
        server.dispose();
        // The file now holds another token: not the server's own any more, so it stays (removed here).
        for (const w of findWindows(workspace, hooksDir)) fs.rmSync(w.file);
      }
    }, 60_000);

    it('hook.js answers the fast path without loading the CLI bundle (none beside it); without a window it needs it', async () => {
    const server = await HookServer.listen(manager, [workspace], { dir: hooksDir });
    if (typeof server === 'string') throw new Error(server);
    try {
      expect(JSON.parse((await runHook(input('alone-1'), path.join(tmp, 'alone', 'hook.js'))).stdout)).toEqual(DENY);
    } finally {
      server.dispose();
    }
    const r = await runHook(input('alone-2'), path.join(tmp, 'alone', 'hook.js'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('cli.js');
  }, 60_000);

  it('a rendezvous directory others can read is not used', () => {
      const open = tempDir('zut-hookfast-open-');
      fs.chmodSync(open, 0o755);
      fs.writeFileSync(windowFile(open, workspace, 'x'), JSON.stringify({ kind: 'window', address: 'x', token: 'ab', pid: 1, folder: workspace }));
      expect(findWindows(workspace, open)).toEqual([]);
      fs.chmodSync(open, 0o700);
      expect(findWindows(workspace, open)).toMatchObject([{ r: { address: 'x' } }]);
    });
  });
});

describe('the window\'s hook socket before it knows the peer', () => {
  /** Connects to `address`, writes `data` (if any), resolves with how long until the server closed the socket. */
  const closedAfter = (address: string, data?: string) =>
    new Promise<number>((resolve) => {
      const t0 = Date.now();
      const c = net.connect(address);
      c.on('connect', () => data !== undefined && c.write(data));
      c.on('error', () => undefined);
      c.on('close', () => resolve(Date.now() - t0));
    });

  it('drops a peer that sends no request line in time, and one whose line is over the limit', async () => {
    const dir = path.join(tmp, 'bounds-hooks');
    const server = await HookServer.listen(manager, [path.join(tmp, 'bounds')], { dir, requestMs: 300 });
    if (typeof server === 'string') throw new Error(server);
    try {
      const silent = await closedAfter(server.address);
      expect(silent).toBeGreaterThanOrEqual(250);
      expect(silent).toBeLessThan(5_000);
    } finally {
      server.dispose();
    }
    // Twice the input limit plus the envelope, without a newline: closed for its size (the wait here is a minute).
    const patient = await HookServer.listen(manager, [path.join(tmp, 'bounds')], { dir, requestMs: 60_000 });
    if (typeof patient === 'string') throw new Error(patient);
    try {
      expect(await closedAfter(patient.address, 'x'.repeat(16 * 1024 * 1024 + 8192))).toBeLessThan(10_000);
    } finally {
      patient.dispose();
    }
  }, 40_000);
});
