/**
 * A reader that goes away is not an error of ours: `zut-host hook install … | head -1`, or an agent that stops
 * reading a hook's answer. Once stdout or stderr reports EPIPE, later writes to it are dropped instead of crashing
 * the process with an unhandled 'error' event, and the command ends with its own exit code (an install whose entries
 * were written exits 0). Used by both entries (src/cli.ts, src/hook.ts). No dependency. VS Code-free.
 */

/** Makes EPIPE on stdout and stderr quiet for the rest of the process. */
export function quietBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      // Later writes go nowhere (and call back at once): the reader is gone.
      stream.write = ((_chunk: unknown, ...rest: unknown[]) => {
        const cb = rest.find((r): r is () => void => typeof r === 'function');
        if (cb) queueMicrotask(cb);
        return true;
      }) as typeof stream.write;
    });
  }
}
