/** Waiting on effects in other processes: tests wait on events, they don't time them. */

type Maybe<T> = T | undefined | false | null;

/**
 * Polls until `fn` returns (or resolves to) something truthy, and gives that back; past `ms`, throws naming `what`.
 */
export async function until<T>(fn: () => Maybe<T> | Promise<Maybe<T>>, ms = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Whether a pid is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
