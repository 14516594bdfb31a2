/**
 * Soak of the warm hook host (src/cli/hookHost.ts, the real dist/cli.js): 10,000 PreToolUse calls over its local
 * socket, as hooks send them (src/hooks/client.ts askHost), half denied by the guard, half allowed, across many agent
 * sessions (the host's call memory is bounded). Every call is answered; after a warm-up the host's resident memory
 * does not grow over the 10,000 (GC noise allowed); `stop` ends it and its guard.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askHost } from '../../src/hooks/client';
import { readRendezvous, rendezvousNames } from '../../src/hooks/rendezvous';
import { builtCli } from '../helpers/built';
import { alive, until } from '../helpers/until';

const SCALE = Number(process.env.ZUT_STRESS_SCALE ?? 1);
const CALLS = Math.max(1000, Math.round(10_000 * SCALE));
/** Calls before the first sample: V8 grows its heap to its working size over the first few thousand (measured: flat from ~6,000 on). */
const WARMUP = Math.max(500, Math.round(6_000 * SCALE));
/** Resident memory may move this much between the two samples: V8's heap grows and shrinks in steps. */
const RSS_SLACK_KB = 16 * 1024;

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-warm-soak-')));
const env = { ...process.env, HOME: tmp, ZUT_HOME: path.join(tmp, 'home'), ZOT_HOME: path.join(tmp, 'no-zot'), ZUT_HOOKS_DIR: path.join(tmp, 'hooks'), GUARD_LOG: '/dev/null' };
const cli = (...args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { env, encoding: 'utf8', timeout: 60_000 });
if (!builtCli()) throw new Error('no CLI bundle: the stress config builds it (test/helpers/globalSetup.ts)');

afterAll(() => {
  cli('hook', 'host', 'stop');
  fs.rmSync(tmp, { recursive: true, force: true });
});

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

describe.runIf(process.platform === 'linux')('the warm hook host over 10,000 calls', () => {
  it('answers every call, keeps its memory flat, and stops with its extensions', async () => {
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws, { recursive: true });
    const guard = path.join(tmp, 'home', 'extensions', 'hook-guard');
    fs.mkdirSync(guard, { recursive: true });
    fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, '../unit/fixtures/hooks/guard.mjs')] }));
    const host = spawnSync(process.execPath, ['-e', `require('child_process').spawn(process.execPath, [${JSON.stringify(builtCli())}, 'hook', 'host', '--cwd', ${JSON.stringify(ws)}], { detached: true, stdio: 'ignore' }).unref()`], { env });
    expect(host.status).toBe(0);
    // Its one warm file (keyed by folder, options and homes: warmHost.ts).
    const hooks = path.join(tmp, 'hooks');
    const file = await until(() => (fs.existsSync(hooks) ? rendezvousNames(hooks, 'h').map((n) => path.join(hooks, n))[0] : undefined), 15_000, 'the warm host listening');
    const r = await until(() => readRendezvous(file), 15_000, 'the warm host listening');
    const call = { agent: 'claude' as const, event: 'PreToolUse' as const, camel: false };
    const ask = (i: number) => {
      const command = i % 2 === 0 ? 'rm -rf /' : 'ls';
      const raw = JSON.stringify({ session_id: `s${i % 500}`, cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `t${i}` });
      return askHost(file, r, call, raw, Date.now() + 25_000);
    };
    let denied = 0;
    let early = 0;
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const a = await ask(i);
      if (typeof a === 'string') throw new Error(`call ${i}: ${a}`);
      if (i % 2 === 0) {
        expect(a.stdout).toContain('blocked by hook-guard: no rm -rf here');
        denied++;
      } else expect(a).toEqual({ stdout: '', exitCode: 0 });
      if (i === WARMUP - 1) early = rssKb(r.pid);
    }
    const late = rssKb(r.pid);
    expect(denied).toBe((WARMUP + CALLS) / 2);
    expect(late - early).toBeLessThan(RSS_SLACK_KB);
    const guardPids = spawnSync('pgrep', ['-f', 'hooks/guard.mjs'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
    expect(cli('hook', 'host', 'stop').stdout).toContain('Stopped 1 warm hook host');
    expect(alive(r.pid)).toBe(false);
    await until(() => guardPids.every((p) => !alive(p) || !fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(tmp)), 10_000, 'the guard gone');
  }, 600_000);
});
