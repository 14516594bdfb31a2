/**
 * The one loop from "a file changed" to the Manager: every shell's watcher (the window's VS Code file watchers and
 * its saves, the headless hosts' `fs.watch` of the extension homes: homesWatch.ts) reports paths here through
 * `ChangeSink`; after a quiet period (WATCH_DEBOUNCE_MS; a save in the editor: at the next turn of the event loop)
 * they go to `Manager.applyChanges` together, which restarts what changed and reloads when extensions came or went.
 * `flush` applies what is pending now (a hook host before it answers a call). VS Code-free.
 */
import { Disposable } from '../host/events';
import type { Manager } from '../host/manager';
import { WATCH_DEBOUNCE_MS } from '../protocol/limits';

/** Where a watcher reports what changed (the port every watcher feeds). */
export interface ChangeSink {
  /**
   * `path` changed: applied after a quiet period (WATCH_DEBOUNCE_MS) that each change restarts. A save in the editor
   * (`saved`) waits for no burst: it is applied at the next turn of the event loop, with whatever else arrived in this
   * one (the watcher's late event for the same write included). The other saves of a "Save All" that arrive while
   * its restart runs restart nothing more when the new process is newer than their files (loader.applyChanges).
   */
  changed(path: string, how?: { saved?: boolean }): void;
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
  /** The quiet period's timer, or the next turn's when a save in the editor is among the pending changes. */
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;

  constructor(private readonly ports: ChangeLoopPorts) {
    super();
    this._register({ dispose: () => this.cancel() });
  }

  changed(path: string, how: { saved?: boolean } = {}): void {
    if (this.disposed) return;
    this.paths.add(path);
    if (how.saved === true || this.immediate !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.immediate ??= setImmediate(() => this.flush());
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), WATCH_DEBOUNCE_MS);
  }

  /** Applies the pending changes now, if any (the Manager counts it as a load: a strict door waits for it). */
  flush(): void {
    const saved = this.immediate !== undefined;
    this.cancel();
    if (this.disposed || this.paths.size === 0) return;
    const paths = [...this.paths];
    this.paths.clear();
    void this.ports.host.applyChanges(paths).then(
      ({ reloaded, restarted }) => this.ports.applied?.({ paths, saved, reloaded, restarted }),
      (e: unknown) => this.ports.failed?.(e),
    );
  }

  private cancel(): void {
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
