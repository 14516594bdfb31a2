/**
 * An agent's PreToolUse hook with no window open (issue 29): the spawn of the installed hook command (dist/hook.js,
 * through a shell, JSON on stdin) → the guard's deny, answered by the warm hook host (src/cli/hookHost.ts) — against a
 * bare `node -e 0` spawned the same way, alternating. Goal: p50 ≤ 1.3×. And the cold call (no warm host yet: the hook
 * starts it for the next calls and answers this one with a host of its own) against the per-call headless host every
 * hook ran before (`ZUT_HOOK_WARM=0`: the hook's own host, started and stopped per call), alternating: goal ≤ 1.0×.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runShell } from './agentHook';
import { fmt, ratios, summarize, type BenchRow } from './stats';

export async function benchAgentHookWarm(quick: boolean): Promise<BenchRow[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-warm-')));
  const bundles = process.env.ZUT_BENCH_BUNDLE_DIR ?? path.join(process.cwd(), 'dist');
  const zutHome = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace, { recursive: true });
  const g = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(g, { recursive: true });
  fs.writeFileSync(path.join(g, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'test/unit/fixtures/hooks/guard.mjs')] }));
  const env = { ...process.env, HOME: dir, ZUT_HOME: zutHome, ZOT_HOME: path.join(dir, 'no-zot'), ZUT_HOOKS_DIR: path.join(dir, 'hooks'), GUARD_LOG: path.join(dir, 'guard.log') };
  const input = JSON.stringify({ cwd: workspace, session_id: 'b', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
  const hook = `"${process.execPath}" "${path.join(bundles, 'hook.js')}" hook --agent claude PreToolUse`;
  const bare = `"${process.execPath}" -e 0`;
  const stopHosts = () => spawnSync(process.execPath, [path.join(bundles, 'cli.js'), 'hook', 'host', 'stop'], { env, stdio: 'ignore' });
  const denied = (r: { stdout: string }) => {
    if (!r.stdout.includes('"deny"')) throw new Error(`no deny from the hook: ${r.stdout}`);
  };
  try {
    // Warm: the first call starts the host (two warm-ups), then hook and bare node alternate.
    const warm: number[] = [];
    const base: number[] = [];
    const n = quick ? 8 : 30;
    for (let i = 0; i < n + 2; i++) {
      const a = await runShell(hook, input, env);
      denied(a);
      const b = await runShell(bare, input, env);
      if (i < 2) continue;
      warm.push(a.ms);
      base.push(b.ms);
    }
    // Cold (no warm host: the hook starts it) against the per-call host of before, alternating.
    const cold: number[] = [];
    const headless: number[] = [];
    const m = quick ? 3 : 10;
    for (let i = 0; i < m; i++) {
      stopHosts();
      const a = await runShell(hook, input, env);
      denied(a);
      cold.push(a.ms);
      stopHosts(); // the host it started is not left to compete with the baseline
      const b = await runShell(hook, input, { ...env, ZUT_HOOK_WARM: '0', ZUT_HOOKS_DIR: path.join(dir, 'no-hooks') });
      denied(b);
      headless.push(b.ms);
    }
    const w = summarize(ratios(warm, base));
    const c = summarize(ratios(cold, headless));
    return [
      {
        id: 'agent-hook-warm',
        figure: 'PreToolUse hook (spawn → deny), no window: the warm hook host answers',
        ours: summarize(warm),
        baseline: summarize(base),
        baselineName: 'node -e 0 (same shell spawn)',
        unit: 'ms',
        ratio: w,
        goal: 'p50 ≤ 1.3× node -e 0',
        pass: w.median <= 1.3,
        notes: [`${warm.length} alternating pairs after 2 warm-ups (the first call started the host); hook.js p50 ${fmt(summarize(warm).median)} ms`],
      },
      {
        id: 'agent-hook-cold',
        figure: 'PreToolUse hook, no window, no warm host yet: the hook starts it and answers itself',
        ours: summarize(cold),
        baseline: summarize(headless),
        baselineName: 'the per-call headless host (ZUT_HOOK_WARM=0: started and stopped by the hook)',
        unit: 'ms',
        ratio: c,
        goal: '≤ 1.0× (no slower than before)',
        pass: c.median <= 1.0,
        notes: [`${cold.length} alternating pairs; the warm host stopped before each cold call`],
      },
    ];
  } finally {
    stopHosts();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
