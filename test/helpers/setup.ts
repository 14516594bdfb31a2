/**
 * Runs around every unit test file (vitest `setupFiles`): the leak check of test/helpers/leakCheck.ts. Its
 * `beforeAll` runs before the file's own and takes the baseline; its `afterAll` runs after the file's own cleanup and
 * fails the file if a disposable of ours, a timer, a handle or a child process outlived it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import * as esbuild from 'esbuild';
import { setDisposableTracker } from '../../src/host/events';
import { activeResources, DisposableTracker, isClean, leakMessage, settledCheck, TimerTracker } from './leakCheck';

// The hooks' per-user directory (rendezvous files, the hook call memory: src/hooks/callFiles.ts) is this file's own,
// never the real ~/.cache/zut-hooks, and no other test file's (their agents' session ids repeat across files).
const ownHooksDir = process.env.ZUT_HOOKS_DIR === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'zut-test-hooks-')) : undefined;
if (ownHooksDir) process.env.ZUT_HOOKS_DIR = path.join(ownHooksDir, 'hooks');

const disposables = new DisposableTracker();
const timers = new TimerTracker();
let baseline = new Map<string, number>();

beforeAll(() => {
  setDisposableTracker(disposables);
  timers.install();
  baseline = activeResources();
});

afterAll(async () => {
  // esbuild keeps one service process per process once something bundled with it (bundle, mcp, sdk, tsTemplate
  // tests, scripts/sdk.mjs): it is ours to stop, not a leak of the code under test. Not started: a no-op.
  await esbuild.stop();
  const report = await settledCheck({ disposables, timers }, baseline);
  setDisposableTracker(null);
  timers.uninstall();
  if (ownHooksDir) fs.rmSync(ownHooksDir, { recursive: true, force: true });
  const file = expect.getState().testPath ?? 'this test file';
  if (!isClean(report)) throw new Error(leakMessage(file, report));
});
