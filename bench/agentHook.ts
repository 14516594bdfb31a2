/**
 * An agent's PreToolUse hook with the window's host running: the spawn of the installed hook command (the light
 * entry dist/hook.js, through a shell, JSON on stdin, as VS Code's hook executor runs it) → the guard's decision on
 * stdout, over the fast path (src/hooks/server.ts). Baseline: a bare `node -e 0` spawned the same way, alternating
 * with it (and with `cli.js hook …`, the CLI bundle the entry avoids loading, reported in the notes). Goal: p50 ≤
 * 1.3×. A second row: the same with no guard subscribed (nothing to ask; still the spawn, the rendezvous and the
 * socket).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HookServer } from '../src/hooks/server';
import { NullHostUi } from '../src/host/hostUi';
import { Manager } from '../src/host/manager';
import { fmt, ratios, summarize, type BenchRow } from './stats';

/** Spawns `command` through a shell as an agent spawns a hook, `stdin` written; how long until it closed, and its stdout. */
export function runShell(command: string, stdin: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [], { shell: true, env, stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - t0, stdout }));
    // A command that exits without reading its stdin (node -e 0) makes the write fail with EPIPE: not a failure of
    // the measurement (it crashed a whole npm run bench at load 12 before this).
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

async function measure(quick: boolean, guarded: boolean, dir: string, bundles: string): Promise<BenchRow> {
  const zutHome = path.join(dir, guarded ? 'home-guard' : 'home-none');
  const workspace = path.join(dir, guarded ? 'ws-guard' : 'ws-none');
  fs.mkdirSync(workspace, { recursive: true });
  if (guarded) {
    const g = path.join(zutHome, 'extensions', 'hook-guard');
    fs.mkdirSync(g, { recursive: true });
    fs.writeFileSync(path.join(g, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'test/unit/fixtures/hooks/guard.mjs')] }));
  }
  const env = { ...process.env, ZUT_HOME: zutHome, ZUT_HOOKS_DIR: path.join(dir, 'hooks'), GUARD_LOG: path.join(dir, 'guard.log') };
  process.env.GUARD_LOG = env.GUARD_LOG;
  const manager = new Manager({ folders: [workspace], zutHome, ui: new NullHostUi(), hostVersion: 'bench', autoRestart: false });
  await manager.start();
  const server = await HookServer.listen(manager, [workspace], { dir: env.ZUT_HOOKS_DIR });
  if (typeof server === 'string') throw new Error(server);
  const input = JSON.stringify({ cwd: workspace, session_id: 'b', hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /' } });
  const hook = `"${process.execPath}" "${path.join(bundles, 'hook.js')}" hook --agent vscode PreToolUse`;
  const viaCli = `"${process.execPath}" "${path.join(bundles, 'cli.js')}" hook --agent vscode PreToolUse`;
  const bare = `"${process.execPath}" -e 0`;
  const ours: number[] = [];
  const cli: number[] = [];
  const base: number[] = [];
  try {
    const n = quick ? 8 : 30;
    for (let i = 0; i < n + 2; i++) {
      const a = await runShell(hook, input, env);
      const b = await runShell(bare, input, env);
      const c = await runShell(viaCli, input, env);
      for (const r of [a, c]) if (guarded && !r.stdout.includes('"deny"')) throw new Error(`no deny from the hook: ${r.stdout}`);
      if (i < 2) continue; // two warm-ups
      ours.push(a.ms);
      base.push(b.ms);
      cli.push(c.ms);
    }
  } finally {
    server.dispose();
    await manager.stop();
    manager.dispose();
  }
  const ratio = summarize(ratios(ours, base));
  const o = summarize(ours);
  const viaCliRatio = summarize(ratios(cli, base));
  return {
    id: guarded ? 'agent-hook' : 'agent-hook-noguard',
    figure: guarded ? 'PreToolUse hook (spawn → deny) via the running host' : 'PreToolUse hook, no guard subscribed',
    ours: o,
    baseline: summarize(base),
    baselineName: 'node -e 0 (same shell spawn)',
    unit: 'ms',
    ratio,
    goal: 'p50 ≤ 1.3× node -e 0',
    pass: ratio.median <= 1.3,
    notes: [`${ours.length} alternating triples; hook.js p50 ${fmt(o.median)} ms; cli.js hook p50 ${fmt(summarize(cli).median)} ms (${fmt(viaCliRatio.median)}×)`],
  };
}

export async function benchAgentHook(quick: boolean): Promise<BenchRow[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-hook-')));
  try {
    // The release build's hook entry and CLI (bench/run.mjs builds them beside dist/extension.js).
    const bundles = process.env.ZUT_BENCH_BUNDLE_DIR ?? path.join(process.cwd(), 'dist');
    return [await measure(quick, true, dir, bundles), await measure(quick, false, dir, bundles)];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
