/**
 * Ctrl+C and SIGTERM for a `zut-host` run. The first signal starts the graceful stop (shutdown → grace → SIGTERM →
 * SIGKILL per extension, up to ~3 s); a second one during that stop does not wait: it SIGKILLs every extension's
 * process group and every process still in its session (escaped.ts), then exits 130. Until the handlers are
 * disposed, no signal takes Node's default path (which would exit and orphan the extensions).
 */
import type { IDisposable } from '../host/events';
import { killGroup } from '../host/process/child';
import { holdersOf } from '../host/process/escaped';

/** SIGKILL now: each pid's process group, then whatever is still in its session (Linux). Never throws. */
async function killNow(pids: readonly number[]): Promise<void> {
  for (const pid of pids) killGroup(pid, 'SIGKILL');
  const left = await Promise.all(pids.map((pid) => holdersOf([], pid).catch(() => [] as number[])));
  for (const pid of left.flat()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/**
 * Installs the handlers: `stop` on the first SIGINT/SIGTERM; on the next, `killNow(pids())` and exit with
 * `forcedExit` (the CLI's "interrupted", 130). Dispose once every extension has stopped.
 */
export function stopSignals(stop: (signal: NodeJS.Signals) => void, pids: () => number[], forcedExit: number): IDisposable {
  let count = 0;
  const handler = (signal: NodeJS.Signals): void => {
    count++;
    if (count === 1) return stop(signal);
    if (count === 2) void killNow(pids()).finally(() => process.exit(forcedExit));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
