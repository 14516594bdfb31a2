/**
 * Issue 37's high findings: a guard the host knows is never "no opinion" while it is down. Through the real hook
 * entry (dist/hook.js beside dist/cli.js, spawned through a shell as agents spawn hooks), with the warm host up and
 * with `ZUT_HOOK_WARM=0` (a host of each call's own), a block-all guard (fixtures/hooks/moodyGuard.mjs) lets no
 * `rm -rf` through while it restarts (it saves its state in its own folder: the warm host restarts it on every
 * save), after it crashed five times (the warm host gives up restarting it), and while it subscribes 3 s after its
 * handshake (a guard loading its rules).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { hookBundlesIn } from '../helpers/built';
import { runProcess, type Run } from '../helpers/runProcess';
import { until } from '../helpers/until';

let tmp: string;
let bin: string;
const MOODY = path.resolve(__dirname, 'fixtures/hooks/moodyGuard.mjs');

beforeAll(() => {
  tmp = tempDir('zut-absent-');
  bin = hookBundlesIn(path.join(tmp, 'bin'));
});

afterAll(() => cleanupTemps());

/** One scene: its own extension home holding the moody guard (with `args`), its own hooks directory and folder. */
function scene(name: string, args: (dir: string) => string[], o: { installed?: boolean } = {}) {
  const root = path.join(tmp, name);
  const zutHome = path.join(root, 'home');
  const dir = path.join(zutHome, 'extensions', 'moody');
  const install = () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'moody', exec: process.execPath, args: [MOODY, ...args(dir)] }));
  };
  if (o.installed !== false) install();
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  const env = (warm: boolean): NodeJS.ProcessEnv => ({
    ...process.env,
    HOME: root,
    ZUT_HOME: zutHome,
    ZOT_HOME: path.join(root, 'no-zot'),
    ZUT_HOOKS_DIR: path.join(root, 'hooks'),
    ZUT_HOOK_WARM: warm ? '1' : '0',
  });
  const hook = (command: string, warm: boolean, extra: NodeJS.ProcessEnv = {}): Promise<Run> =>
    runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook --agent claude PreToolUse`, [], {
      shell: true,
      cwd: ws,
      env: { ...env(warm), ...extra },
      stdin: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `id-${Math.random()}` }),
      timeoutMs: 60_000,
    });
  const zutHost = (args: string[]) => runProcess(process.execPath, [path.join(bin, 'cli.js'), ...args], { env: env(true), timeoutMs: 60_000 });
  const warmHost = async () => (JSON.parse((await zutHost(['hook', 'host', 'status', '--json'])).stdout) as { pid: number; folder: string }[]).length > 0;
  return { dir, hook, zutHost, warmHost, install, home: path.join(zutHome, 'extensions'), hooksDir: path.join(root, 'hooks') };
}

/** The decision a PreToolUse answer carries ('pass': no opinion, the call runs). */
function decision(r: Run): string {
  if (r.code === 0 && r.stdout.trim() === '') return 'pass';
  const j = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  return `${j.hookSpecificOutput?.permissionDecision}: ${j.hookSpecificOutput?.permissionDecisionReason}`;
}

const RM = 'rm -rf ~';

describe('a guard that exists is never "no opinion" (issue 37)', () => {
  it('a guard installed after the warm host started (its home made then), and again after the home was removed and made anew: the next call is its', async () => {
    const s = scene('installed-later', () => [], { installed: false });
    try {
      expect(decision(await s.hook(RM, true))).toBe('pass'); // no guard anywhere
      await until(s.warmHost, 10_000, 'the warm host');
      expect(decision(await s.hook(RM, true))).toBe('pass');
      s.install();
      expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
      fs.rmSync(s.home, { recursive: true }); // removed: the user's act (a guard still running meanwhile still judges)
      await until(async () => decision(await s.hook(RM, true)) === 'pass', 20_000, 'the removal applied');
      s.install();
      expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
    } finally {
      await s.zutHost(['hook', 'host', 'stop']);
    }
  }, 120_000);

  it('while the warm host restarts it (it saves its state in its own folder every 0.7 s): 0 of 160 rm -rf pass', async () => {
    const s = scene('restart', (dir) => ['--tick', path.join(dir, 'state.txt'), '--every', '700']);
    try {
      expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
      await until(s.warmHost, 10_000, 'the warm host');
      const seen: string[] = [];
      // Four at a time, as an agent's parallel calls: on the old door about 1 in 20 passed.
      for (let i = 0; i < 40; i++) seen.push(...(await Promise.all([1, 2, 3, 4].map(() => s.hook(RM, true)))).map(decision));
      expect(seen.filter((d) => !d.startsWith('deny: '))).toEqual([]);
      // Per-call hosts too.
      for (let i = 0; i < 3; i++) expect(decision(await s.hook(RM, false))).toBe('deny: blocked by moody: blocks everything');
    } finally {
      await s.zutHost(['hook', 'host', 'stop']);
    }
  }, 120_000);

  it('after it crashed five times (the warm host gives up restarting it): 0 of 10 rm -rf pass, each denied naming it', async () => {
    const s = scene('crash', () => ['--crash', 'CRASHME']);
    try {
      expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
      await until(s.warmHost, 10_000, 'the warm host');
      for (let i = 0; i < 5; i++) expect(decision(await s.hook(`echo CRASHME ${i}`, true))).toMatch(/^deny: /);
      const seen: string[] = [];
      for (let i = 0; i < 10; i++) seen.push(decision(await s.hook(RM, true)));
      expect(seen.filter((d) => !d.startsWith('deny: '))).toEqual([]);
      expect(seen.at(-1)).toMatch(/^deny: blocked by zut: moody gave up restarting after crashing repeatedly: its guard cannot judge this call/);
      // Per-call hosts: each starts it afresh.
      expect(decision(await s.hook('echo CRASHME', false))).toMatch(/^deny: /);
      expect(decision(await s.hook(RM, false))).toBe('deny: blocked by moody: blocks everything');
    } finally {
      await s.zutHost(['hook', 'host', 'stop']);
    }
  }, 120_000);

  it('while it subscribes 3 s after its handshake: 0 of N rm -rf pass, per-call and warm', async () => {
    const s = scene('late', () => ['--late', '3000']);
    try {
      for (let i = 0; i < 3; i++) expect(decision(await s.hook(RM, false))).toBe('deny: blocked by moody: blocks everything');
      expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
      await until(s.warmHost, 10_000, 'the warm host');
      // The warm host's own start of the guard: its first seconds.
      for (let i = 0; i < 5; i++) expect(decision(await s.hook(RM, true))).toBe('deny: blocked by moody: blocks everything');
    } finally {
      await s.zutHost(['hook', 'host', 'stop']);
    }
  }, 120_000);

  it('an extension that never sends ready nor intercepts holds only its first run back: then it is remembered as no guard', async () => {
    const s = scene('never-ready', () => []);
    // Not a guard, not ready: the moody fixture with its subscription 60 s away stands for it.
    fs.writeFileSync(path.join(s.dir, 'extension.json'), JSON.stringify({ name: 'moody', exec: process.execPath, args: [MOODY, '--late', '60000'] }));
    // First run: waited for (REGISTRATION_PATIENCE_MS), then taken for no guard, and remembered so.
    expect(decision(await s.hook('ls', false))).toBe('pass');
    expect(fs.readFileSync(path.join(s.hooksDir, 'guards.json'), 'utf8')).toMatch(/"moody\\n[^"]+":"not:/);
    // Later runs do not wait for it: a 6 s budget is enough (waiting REGISTRATION_PATIENCE_MS, 10 s, for it would
    // deny). 3 s was too close to what a per-call host's own cold start and the extension's spawn take on 2 loaded
    // cores (a fresh-clone run at load ~12 denied "moody is still starting").
    expect(decision(await s.hook('ls', false, { ZUT_HOOK_BUDGET_SECONDS: '6' }))).toBe('pass');
  }, 120_000);
});
