/**
 * The one loop from "a file changed" to the Manager: every shell's watcher (the window's VS Code file watchers and
 * its saves, the headless hosts' `fs.watch` of the extension homes: homesWatch.ts) reports paths here through
 * `ChangeSink`; after a quiet period (WATCH_DEBOUNCE_MS; a save in the editor SAVE_DEBOUNCE_MS) they go to
 * `Manager.applyChanges` together, which restarts what changed and reloads when extensions came or went. `flush`
 * applies what is pending now (a hook host before it answers a call). VS Code-free.
 */
import { Disposable } from '../host/events';
import type { Manager } from '../host/manager';
import { WATCH_DEBOUNCE_MS } from '../protocol/limits';

/** Where a watcher reports what changed (the port every watcher feeds). */
export interface ChangeSink {
  /**
   * `path` changed. Each change restarts the quiet period (`quietMs`, default WATCH_DEBOUNCE_MS), except that a
   * pending `saved` change's shorter one is never pushed back (the watcher's late event for the same write).
   */
  changed(path: string, how?: { quietMs?: number; saved?: boolean }): void;
}

/** What the loop says it did (the window logs it). */
export interface ChangesApplied {
  paths: string[];
  /** Some of them were saves in the editor. */
  saved: boolean;
  reloaded: boolean;
  restarted: string[];
}

export interface ChangeLoopPorts {
  host: Pick<Manager, 'applyChanges'>;
  applied?(what: ChangesApplied): void;
  failed?(e: unknown): void;
}

export class ChangeLoop extends Disposable implements ChangeSink {
  private readonly paths = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (performance.now()), and whether a save in the editor is among its changes. */
  private due = 0;
  private saved = false;

  constructor(private readonly ports: ChangeLoopPorts) {
    super();
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  changed(path: string, how: { quietMs?: number; saved?: boolean } = {}): void {
    if (this.disposed) return;
    this.paths.add(path);
    const now = performance.now();
    const quiet = now + (how.quietMs ?? WATCH_DEBOUNCE_MS);
    const pending = this.timer !== undefined;
    this.due = pending && this.saved ? Math.min(this.due, quiet) : quiet;
    this.saved = (pending && this.saved) || how.saved === true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.due - now));
  }

  /** Applies the pending changes now, if any (the Manager counts it as a load: a strict door waits for it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.disposed || this.paths.size === 0) return;
    const paths = [...this.paths];
    const saved = this.saved;
    this.paths.clear();
    this.saved = false;
    void this.ports.host.applyChanges(paths).then(
      ({ reloaded, restarted }) => this.ports.applied?.({ paths, saved, reloaded, restarted }),
      (e: unknown) => this.ports.failed?.(e),
    );
  }
}
