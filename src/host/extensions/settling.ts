/**
 * The Loader's books on its loads: how many starts, reloads and changes on disk run now (while one has not found its
 * extensions yet, any of them may be a guard: absentGuards.ts `loadingUnseen`), who is starting or restarting, and
 * waiting until that is over ("settled": what the host serves is then known). VS Code-free.
 */
import { Disposable, Emitter, type IDisposable } from '../events';
import type { ExtensionSet } from './extensionSet';

/** Who is starting now, and whether a load runs (it may bring more). */
export interface StartingNow {
  /** Extensions starting or restarting now. */
  starting: string[];
  /** A start, reload or change on disk is under way. */
  loading: boolean;
}

export class Settling extends Disposable {
  private loads = 0;
  private readonly settledEmitter = this._register(new Emitter<void>());

  constructor(private readonly set: Pick<ExtensionSet, 'all' | 'onDidChange'>) {
    super();
  }

  /** Counts `p` as a load while it runs. */
  track<T>(p: Promise<T>): Promise<T> {
    this.loads++;
    const done = () => {
      this.loads--;
      this.settledEmitter.fire();
    };
    p.then(done, done);
    return p;
  }

  /** A load runs now. */
  get loading(): boolean {
    return this.loads > 0;
  }

  startingNow(): StartingNow {
    const starting = this.set.all.filter((x) => x.lifecycle === 'starting' || x.lifecycle === 'restarting').map((x) => x.name);
    return { starting, loading: this.loads > 0 };
  }

  /** Resolves once no extension is starting and no load runs, or at `deadline` (ms since epoch). */
  whenSettled(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const subs: IDisposable[] = [];
      const check = () => {
        const now = this.startingNow();
        if ((now.starting.length > 0 || now.loading) && Date.now() < deadline) return;
        clearTimeout(timer);
        for (const s of subs) s.dispose();
        resolve();
      };
      const timer = setTimeout(check, Math.max(0, deadline - Date.now()));
      subs.push(this.set.onDidChange(check), this.settledEmitter.event(check));
      check();
    });
  }
}
