/**
 * `zut-host hook` with no window (issue 29): the warm headless host (src/cli/hookHost.ts, started by the first hook,
 * src/hooks/warmHost.ts) and the way to any host failing closed within the hook's budget. Real bundles (dist/cli.js,
 * dist/hook.js copied side by side), spawned through a shell as agents spawn hooks, against real extensions: the
 * hook guard (bash "rm -rf" → block) and, where a test needs them, a slow starter, an extension that ignores EOF and
 * SIGTERM, a window that accepts and never answers. The budget is shortened with `$ZUT_HOOK_BUDGET_SECONDS`.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { HookServer } from '../../src/hooks/server';
import { windowFile } from '../../src/hooks/rendezvous';
import { NullHostUi } from '../../src/host/hostUi';
import { Manager } from '../../src/host/manager';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';
import { alive, until } from '../helpers/until';

let tmp: string;
let bin: string;
let zutHome: string;
let hooksDir: string;
let guardLog: string;
const managers: Manager[] = [];

beforeAll(() => {
  tmp = tempDir('zut-warm-');
  bin = hookBundlesIn(path.join(tmp, 'bin'));
  zutHome = path.join(tmp, 'zut-home');
  hooksDir = path.join(tmp, 'hooks');
  guardLog = path.join(tmp, 'guard.log');
  const guard = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(guard, { recursive: true });
  fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
  process.env.GUARD_LOG = guardLog;
});

afterEach(async () => {
  for (const m of managers.splice(0)) {
    await m.stop();
    m.dispose();
  }
});

afterAll(async () => {
  await zutHost(['hook', 'host', 'stop']);
  delete process.env.GUARD_LOG;
  cleanupTemps();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: tmp,
  ZUT_HOME: zutHome,
  ZOT_HOME: path.join(tmp, 'no-zot'),
  ZUT_HOOKS_DIR: hooksDir,
  GUARD_LOG: guardLog,
  ZUT_HOOK_WARM: '1',
  ...extra,
});
const zutHost = (args: string[], extra: NodeJS.ProcessEnv = {}) => runProcess(process.execPath, [path.join(bin, 'cli.js'), ...args], { env: env(extra), timeoutMs: 60_000 });
const hook = (input: object, extra: NodeJS.ProcessEnv = {}, args = '--agent claude PreToolUse') =>
  runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook ${args}`, [], { shell: true, cwd: tmp, env: env(extra), stdin: JSON.stringify(input), timeoutMs: 60_000 });
const bash = (cwd: string, command: string, id = `id-${Math.random()}`) => ({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });
const seen = (): { kind: string; pid: number; tool_id?: string }[] =>
  (fs.existsSync(guardLog) ? fs.readFileSync(guardLog, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; pid: number; tool_id?: string });
const guardPid = (id: string) => seen().find((l) => l.kind === 'intercept' && l.tool_id === id)?.pid;
const workspace = (name: string) => {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
const hosts = async (): Promise<{ pid: number; folder: string }[]> => JSON.parse((await zutHost(['hook', 'host', 'status', '--json'])).stdout) as { pid: number; folder: string }[];
/** The warm host of `ws`, once it listens. */
const hostOf = async (ws: string) => (await hosts()).find((h) => h.folder === ws);
const DENY_RM = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' } };

describe('the warm hook host', () => {
  it('the first call answers itself and starts it; later calls are answered by the same guard process; status lists it; stop ends it and its extensions', async () => {
    const ws = workspace('warm-a');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'w1'))).stdout)).toEqual(DENY_RM);
    const own = guardPid('w1')!;
    const host = await until(() => hostOf(ws), 10_000, 'the warm host');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'w2'))).stdout)).toEqual(DENY_RM);
    const first = guardPid('w2')!;
    expect(first).not.toBe(own); // the first call's own host, stopped after it
    expect(alive(own)).toBe(false);
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'w3'))).stdout)).toEqual(DENY_RM);
    expect(guardPid('w3')).toBe(first);
    expect(await hook(bash(ws, 'ls', 'w4'))).toMatchObject({ code: 0, stdout: '' });
    expect(alive(first)).toBe(true);
    expect((await zutHost(['hook', 'host', 'stop', '--cwd', ws])).stdout).toContain('Stopped 1 warm hook host');
    expect(alive(host.pid)).toBe(false);
    expect(alive(first)).toBe(false);
    expect((await hosts()).filter((h) => h.folder === ws)).toEqual([]);
    expect((await zutHost(['doctor'])).stdout).not.toContain(`for ${ws}`);
  }, 60_000);

  it('--no-warm (Claude Code\'s SessionStart beside mcp_tool hooks): each call answers itself; no warm host is started or asked', async () => {
    const ws = workspace('warm-none');
    const noWarm = '--agent claude --no-warm PreToolUse';
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'n1'), {}, noWarm)).stdout)).toEqual(DENY_RM);
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'n2'), {}, noWarm)).stdout)).toEqual(DENY_RM);
    expect(guardPid('n2')).not.toBe(guardPid('n1')); // a host of its own each time, stopped after it
    expect(alive(guardPid('n1')!)).toBe(false);
    // A warm host, once launched, lists itself within a second or two (the test above waits for it): none comes.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await hostOf(ws)).toBeUndefined();
    expect(fs.readdirSync(hooksDir).filter((n) => n.endsWith('.lock'))).toEqual([]);
  }, 60_000);

  it('doctor names a running warm host; it exits by itself after its idle time, its extensions with it', async () => {
    const ws = workspace('warm-idle');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'i0'), { ZUT_HOOK_HOST_IDLE_SECONDS: '2' })).stdout)).toEqual(DENY_RM);
    await until(async () => (await hosts()).some((h) => h.folder === ws), 10_000, 'the warm host');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'i1'))).stdout)).toEqual(DENY_RM);
    const guard = guardPid('i1')!;
    expect((await zutHost(['doctor'])).stdout).toMatch(new RegExp(`warm hook host: pid \\d+ for ${ws.replace(/[/.]/g, '\\$&')}`));
    await until(() => !alive(guard), 15_000, 'the idle host stopping its guard');
    expect((await hosts()).filter((h) => h.folder === ws)).toEqual([]);
  }, 60_000);

  it('SIGKILL of the host: its watchdog ends the extensions’ process groups, even one that ignores EOF and SIGTERM', async () => {
    const ws = workspace('warm-kill');
    const stubborn = path.join(zutHome, 'extensions', 'stubborn');
    fs.mkdirSync(stubborn, { recursive: true });
    const pidFile = path.join(tmp, 'stubborn.pid');
    fs.writeFileSync(
      path.join(stubborn, 'run.sh'),
      `#!/bin/sh\ntrap '' TERM\necho $$ >> ${pidFile}\nprintf '%s\\n' '{"type":"hello","protocol_version":2,"name":"stubborn","version":"1"}' '{"type":"ready"}'\nwhile true; do sleep 1; done\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(stubborn, 'extension.json'), JSON.stringify({ name: 'stubborn', exec: './run.sh' }));
    try {
      expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'k0'))).stdout)).toEqual(DENY_RM);
      const host = await until(() => hostOf(ws), 10_000, 'the warm host');
      // The first call's own host stopped its copy; the warm host's starts once that hook has exited.
      expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'k1'))).stdout)).toEqual(DENY_RM);
      const running = () => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '').split('\n').filter(Boolean).map(Number).filter(alive);
      const [ext] = await until(() => (running().length === 1 ? running() : undefined), 10_000, 'the warm host\'s stubborn extension alone');
      const guard = guardPid('k1')!;
      process.kill(host.pid, 'SIGKILL');
      await until(() => !alive(ext) && !alive(guard), 15_000, 'the watchdog ending the extensions');
    } finally {
      fs.rmSync(stubborn, { recursive: true, force: true });
    }
  }, 60_000);

  it('SIGKILL of the host: the watchdog also ends helpers an extension moved out of its group (its own group in its session; a new session holding its stdout), as a normal stop does', async () => {
    if (process.platform !== 'linux') return;
    const ws = workspace('warm-kill-escaped');
    const sneaky = path.join(zutHome, 'extensions', 'sneaky');
    fs.mkdirSync(sneaky, { recursive: true });
    const pidFile = path.join(tmp, 'sneaky.pids');
    fs.writeFileSync(
      path.join(sneaky, 'run.sh'),
      [
        '#!/bin/sh',
        // Its own process group, still in the extension's session, no stdio of the extension's.
        `python3 -c 'import os, time; os.setpgid(0, 0); time.sleep(1000)' </dev/null >/dev/null 2>&1 &`,
        `echo "pgrp $!" >> ${pidFile}`,
        // A session of its own, still holding the extension's stdout.
        `setsid sleep 1000 2>/dev/null </dev/null &`,
        `echo "session $!" >> ${pidFile}`,
        `printf '%s\\n' '{"type":"hello","protocol_version":2,"name":"sneaky","version":"1"}' '{"type":"ready"}'`,
        'while read l; do :; done',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(sneaky, 'extension.json'), JSON.stringify({ name: 'sneaky', exec: './run.sh' }));
    try {
      expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'e0'))).stdout)).toEqual(DENY_RM);
      const host = await until(() => hostOf(ws), 10_000, 'the warm host');
      expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'e1'))).stdout)).toEqual(DENY_RM);
      const helpers = () => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '').split('\n').filter(Boolean).map((l) => Number(l.split(' ')[1])).filter(alive);
      // The first call's own host stopped its copy (and its helpers); the warm host's copy has two.
      const mine = await until(() => (helpers().length === 2 ? helpers() : undefined), 10_000, "the warm host's sneaky helpers");
      process.kill(host.pid, 'SIGKILL');
      await until(() => mine.every((p) => !alive(p)), 15_000, 'the watchdog ending the escaped helpers');
    } finally {
      fs.rmSync(sneaky, { recursive: true, force: true });
    }
  }, 60_000);

  it('a replaced dist/cli.js (an update) makes the host exit; the next call starts the new one', async () => {
    const ws = workspace('warm-update');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'u1'))).stdout)).toEqual(DENY_RM);
    const before = await until(() => hostOf(ws), 10_000, 'the warm host');
    const cli = path.join(bin, 'cli.js');
    fs.copyFileSync(cli, `${cli}.new`);
    fs.renameSync(`${cli}.new`, cli);
    await until(() => !alive(before.pid), 20_000, 'the host noticing its update');
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'u2'))).stdout)).toEqual(DENY_RM);
    const after = await until(() => hostOf(ws), 10_000, 'the new warm host');
    expect(after.pid).not.toBe(before.pid);
  }, 60_000);

  it('project extensions run only in a host started with the opt-in (a separate host per option)', async () => {
    const ws = workspace('warm-project');
    const proj = path.join(ws, '.zut', 'extensions', 'hook-guard');
    fs.mkdirSync(proj, { recursive: true });
    fs.writeFileSync(path.join(proj, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
    const empty = path.join(tmp, 'empty-home');
    expect(await hook(bash(ws, 'rm -rf /', 'p1'), { ZUT_HOME: empty })).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'p2'), { ZUT_HOME: empty, ZUT_ALLOW_PROJECT: '1' })).stdout)).toEqual(DENY_RM);
    await until(async () => (await hosts()).filter((h) => h.folder === ws).length === 2, 10_000, 'two warm hosts');
    // …and each keeps to its option once warm.
    expect(await hook(bash(ws, 'rm -rf /', 'p3'), { ZUT_HOME: empty })).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 'p4'), { ZUT_HOME: empty, ZUT_ALLOW_PROJECT: '1' })).stdout)).toEqual(DENY_RM);
    await zutHost(['hook', 'host', 'stop', '--cwd', ws]);
  }, 60_000);
});

describe('every wait has a deadline: a PreToolUse that could not be judged in time is denied, not left to the agent', () => {
  it('a global extension 45 s from its hello: a call it could guard is denied naming it, within the budget; a running guard’s block does not wait for it', async () => {
    const ws = workspace('warm-slow');
    const slow = path.join(zutHome, 'extensions', 'slowpoke');
    fs.mkdirSync(slow, { recursive: true });
    fs.writeFileSync(path.join(slow, 'run.sh'), `#!/bin/sh\nsleep 45\nprintf '%s\\n' '{"type":"hello","protocol_version":2,"name":"slowpoke","version":"1"}' '{"type":"ready"}'\nwhile read l; do :; done\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(slow, 'extension.json'), JSON.stringify({ name: 'slowpoke', exec: './run.sh' }));
    const budget = { ZUT_HOOK_BUDGET_SECONDS: '5' };
    try {
      // The first call (its own host) and the warm host's: both answer within the budget, naming the slow starter
      // when no running guard blocked the call.
      for (const id of ['s1', 's3']) {
        const t0 = Date.now();
        const held = await hook(bash(ws, 'ls', id), budget);
        expect(held.code).toBe(0);
        expect(JSON.parse(held.stdout), held.stdout).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'blocked by zut: slowpoke is still starting: its guard could not be asked in time' } });
        expect(Date.now() - t0).toBeLessThan(5_000 + 3_000); // the deadline: before the agent's own timeout
        await until(async () => (await hosts()).some((h) => h.folder === ws), 10_000, 'the warm host');
      }
      // A running guard's block is the answer: not held until the slow one's deadline, not in its name.
      expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 's2'), budget)).stdout)).toEqual(DENY_RM);
    } finally {
      await zutHost(['hook', 'host', 'stop', '--cwd', ws]);
      fs.rmSync(slow, { recursive: true, force: true });
    }
  }, 60_000);

  it('a window that accepts and never answers: the PreToolUse is denied at the budget (the agent\'s own timeout would let it run)', async () => {
    const ws = workspace('mute-window');
    fs.mkdirSync(hooksDir, { recursive: true, mode: 0o700 });
    const address = path.join(hooksDir, 'mute.sock');
    const peers = new Set<net.Socket>();
    const mute = net.createServer((c) => peers.add(c));
    await new Promise<void>((r) => mute.listen(address, r));
    fs.writeFileSync(windowFile(hooksDir, ws, 'mute'), JSON.stringify({ kind: 'window', address, token: 'ab', pid: process.pid, folder: ws }), { mode: 0o600 });
    try {
      const t0 = Date.now();
      const r = await hook(bash(ws, 'ls', 'm1'), { ZUT_HOOK_BUDGET_SECONDS: '3' });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^blocked by zut: zut-host hook: the zut-vscode window \(pid \d+\) did not answer within 3 s/) } });
      expect(Date.now() - t0).toBeLessThan(3_000 + 3_000);
      // Another event takes the agent's failure rule (exit 1), also at the budget.
      const stop = await hook({ session_id: 's', cwd: ws, hook_event_name: 'Stop' }, { ZUT_HOOK_BUDGET_SECONDS: '3' }, '--agent claude Stop');
      expect(stop.code).toBe(1);
    } finally {
      for (const c of peers) c.destroy();
      mute.close();
      fs.rmSync(windowFile(hooksDir, ws, 'mute'), { force: true });
    }
  }, 60_000);
});

describe('the way to a window', () => {
  /** A window's host: a Manager with the guard over `folders`, its hook server listening. */
  async function window(folders: string[], dir = hooksDir): Promise<HookServer> {
    const m = new Manager({ folders, zutHome, ui: new NullHostUi(), hostVersion: 't', autoRestart: false });
    managers.push(m);
    await m.start();
    const s = await HookServer.listen(m, folders, { dir });
    if (typeof s === 'string') throw new Error(s);
    return s;
  }
  const windowGuard = () => seen().filter((l) => l.kind === 'start').at(-1)!.pid;

  it('the same directory whichever spelling either side uses (a symlinked parent, and the reverse)', async () => {
    const real = workspace('real/proj');
    fs.symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'link'));
    const linked = path.join(tmp, 'link', 'proj');
    for (const [opened, asked, id] of [[linked, real, 'l1'], [real, linked, 'l2']] as const) {
      const s = await window([opened]);
      const pid = windowGuard();
      try {
        expect(JSON.parse((await hook(bash(asked, 'rm -rf /', id), { ZUT_HOOK_WARM: '0' })).stdout)).toEqual(DENY_RM);
        expect(guardPid(id)).toBe(pid);
      } finally {
        s.dispose();
      }
    }
  }, 60_000);

  it('two windows on one folder: closing either leaves the other answering', async () => {
    const ws = workspace('two-windows');
    const a = await window([ws]);
    const aPid = windowGuard();
    const b = await window([ws]);
    const bPid = windowGuard();
    b.dispose();
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 't1'), { ZUT_HOOK_WARM: '0' })).stdout)).toEqual(DENY_RM);
    expect(guardPid('t1')).toBe(aPid);
    const c = await window([ws]);
    const cPid = windowGuard();
    a.dispose();
    expect(JSON.parse((await hook(bash(ws, 'rm -rf /', 't2'), { ZUT_HOOK_WARM: '0' })).stdout)).toEqual(DENY_RM);
    expect(guardPid('t2')).toBe(cPid);
    c.dispose();
    expect(bPid).not.toBe(aPid);
  }, 60_000);

  it('a squatted <tmpdir>/zut-hooks-<uid> switches nothing off: the per-user directory is under the home', async () => {
    const uid = process.getuid?.() ?? 0;
    const squat = path.join(os.tmpdir(), `zut-hooks-${uid}`);
    // Squatted by "another user" only when it is not there: a real one of this machine's is left as it is.
    const made = !fs.existsSync(squat);
    if (made) {
      fs.mkdirSync(squat, { mode: 0o755 });
      if (uid === 0) fs.chownSync(squat, 65534, 65534);
    }
    const home = process.env.HOME;
    const hooksEnv = process.env.ZUT_HOOKS_DIR;
    process.env.HOME = tmp;
    delete process.env.ZUT_HOOKS_DIR;
    try {
      const ws = workspace('squat');
      const s = await window([ws], path.join(tmp, '.cache', 'zut-hooks'));
      const pid = windowGuard();
      try {
        const r = await runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook --agent claude PreToolUse`, [], { shell: true, cwd: tmp, env: { ...env({ ZUT_HOOK_WARM: '0' }), ZUT_HOOKS_DIR: '' }, stdin: JSON.stringify(bash(ws, 'rm -rf /', 'q1')) });
        expect(JSON.parse(r.stdout)).toEqual(DENY_RM);
        expect(guardPid('q1')).toBe(pid);
      } finally {
        s.dispose();
      }
    } finally {
      process.env.HOME = home;
      if (hooksEnv !== undefined) process.env.ZUT_HOOKS_DIR = hooksEnv;
      if (made) fs.rmSync(squat, { recursive: true, force: true });
    }
  }, 60_000);
});
