/**
 * The leak check (test/helpers/leakCheck.ts, wired by test/helpers/setup.ts) fails a file for each kind of leak:
 * a vitest run over test/fixtures/leaks, where each `*.leak.ts` leaks one thing on purpose and clean.leak.ts
 * releases the same things and passes.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess, type Run } from '../helpers/runProcess';

const ROOT = path.resolve(__dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/** The failure block of one file in vitest's output (from its "FAIL" line to the next separator). */
function failure(run: Run, file: string): string | undefined {
  const out = run.stdout + run.stderr;
  const start = out.indexOf(`FAIL  test/fixtures/leaks/${file}`);
  if (start < 0) return undefined;
  const end = out.indexOf('⎯⎯⎯', start);
  return out.slice(start, end < 0 ? undefined : end);
}

describe('the leak check', () => {
  it('fails a file that leaves an emitter, an owner, a subscription, a timer, a handle or a child process; passes the clean one', async () => {
    const run = await runProcess(process.execPath, [VITEST, 'run', '-c', 'test/fixtures/leaks/vitest.config.mts', '--no-color'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    // The sleeper outlives the inner run (its parent, the inner worker, is gone): end it here.
    for (const m of (run.stdout + run.stderr).matchAll(/^\s+(\d+) sleep 30$/gm)) {
      try {
        process.kill(Number(m[1]));
      } catch {
        /* already gone */
      }
    }
    expect(run.code).toBe(1);
    expect(failure(run, 'emitter.leak.ts')).toMatch(/1 not disposed:\s+Emitter created at \S*emitter\.leak\.ts:6/);
    // The owner is reported, not the Emitter it owns.
    expect(failure(run, 'owner.leak.ts')).toMatch(/1 not disposed:\s+Owner created at new Owner/);
    expect(failure(run, 'subscription.leak.ts')).toMatch(/1 not disposed:\s+disposable created at \S*subscription\.leak\.ts:9/);
    expect(failure(run, 'timer.leak.ts')).toMatch(/1 timer\(s\) still pending:\s+timer created at \S*timer\.leak\.ts:5/);
    expect(failure(run, 'server.leak.ts')).toMatch(/active resources above the baseline: 1 × TCPServerWrap \(baseline 0\)/);
    expect(failure(run, 'child.leak.ts')).toMatch(/child processes still running:\s+\d+ sleep 30/);
    expect(failure(run, 'clean.leak.ts')).toBeUndefined();
    expect(run.stdout).toMatch(/✓ test\/fixtures\/leaks\/clean\.leak\.ts/);
    expect(run.stdout).toMatch(/Test Files\s+6 failed \| 1 passed \(7\)/);
  }, 60_000);
});
