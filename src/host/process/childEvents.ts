/**
 * The events of one child process as a Connection needs them: stdout and stderr chunks, an EOF that no exit
 * follows, a spawn failure (no exit will follow), a later process error, and the exit, reported only after stdout
 * delivered what the child wrote just before exiting (a grandchild may keep it open: a bounded wait).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { describeExit } from './child';
import { EOF_EXIT_WAIT_MS, EXIT_DRAIN_MS } from '../../protocol/limits';

export interface ChildEvents {
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  /** stdout ended and the child did not exit within `EOF_EXIT_WAIT_MS` (maybe it did exit: the handler checks). */
  onEofWithoutExit(): void;
  /** Spawning failed (`start <exec>: …`): there will be no exit. */
  onSpawnError(detail: string): void;
  /** A process error after spawn (`start <exec>: …`); the exit follows and reports it as its cause. */
  onError(detail: string): void;
  /** The child is gone: `how` is zut's description (`exit status 3`, `signal: SIGKILL`, or the process error). */
  onExit(how: string): void;
}

/** Wires `events` to `child` (once). */
export function watchChild(child: ChildProcessWithoutNullStreams, exec: string, events: ChildEvents): void {
  let errorDetail: string | undefined;
  let stdoutEnded = false;
  let exitHandled = false;
  child.stdout.on('data', (chunk: Buffer) => events.onStdout(chunk));
  child.stderr.on('data', (chunk: Buffer) => events.onStderr(chunk));
  child.stdout.once('end', () => {
    stdoutEnded = true;
    // EOF normally precedes 'exit'; only an EOF without an exit soon after is a transport failure.
    setTimeout(() => events.onEofWithoutExit(), EOF_EXIT_WAIT_MS).unref();
  });
  child.on('error', (err) => {
    errorDetail = `start ${exec}: ${err.message}`;
    if (child.pid === undefined) events.onSpawnError(errorDetail);
    else events.onError(errorDetail);
  });
  const exited = (code: number | null, signal: NodeJS.Signals | null) => {
    if (exitHandled) return;
    exitHandled = true;
    events.onExit(errorDetail ?? describeExit(code, signal));
  };
  child.on('exit', (code, signal) => {
    if (stdoutEnded) return exited(code, signal);
    const t = setTimeout(() => exited(code, signal), EXIT_DRAIN_MS);
    child.stdout.once('end', () => {
      clearTimeout(t);
      exited(code, signal);
    });
  });
}
