/**
 * One-at-a-time execution of async jobs (reloads, enable/disable, install/remove), so two never overlap: the
 * Manager's reload stops and respawns every child, and two interleaved reloads would orphan processes.
 * Imports no `vscode`.
 */
export class SerialQueue<C = unknown> {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting: Promise<C> | undefined;

  /** Runs `fn` after every job queued before it; its failure does not stop later jobs. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.tail.then(fn);
    this.tail = p.catch(() => undefined);
    return p;
  }

  /**
   * Like `run`, but a coalesced job that is queued and not yet started is shared: ten reload requests during a
   * running reload make one more reload, not ten.
   */
  coalesce(fn: () => Promise<C>): Promise<C> {
    if (this.waiting) return this.waiting;
    const p = this.tail.then(() => {
      this.waiting = undefined;
      return fn();
    });
    this.waiting = p;
    this.tail = p.catch(() => undefined);
    return p;
  }
}
