/**
 * The warm hook host's eye on its extension homes (hookHost.ts): each extension directory it loads (the global homes
 * of zut, zot and e, the project's with `--allow-project`, `--ext` paths) watched recursively, a change applied after
 * WATCH_DEBOUNCE_MS of quiet (Manager.applyChanges: restart what changed, reload when extensions came or went). A home
 * that did not exist at start, or was removed and made again, is watched anew — checked at every call and every
 * HOOK_HOST_CHECK_MS — and a call applies whatever changed before it is answered, so a guard installed a moment ago
 * judges it (issue 37). VS Code-free.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Manager } from '../host/manager';
import { WATCH_DEBOUNCE_MS } from '../protocol/limits';

/** One watched home: its watcher and the identity (device, inode) it was made for. */
interface Watched {
  root: string;
  watcher: fs.FSWatcher | undefined;
  id: string;
}

export class ExtensionHomesWatch {
  private readonly watched: Watched[];
  private changed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly manager: Pick<Manager, 'applyChanges'>,
    roots: readonly string[],
  ) {
    this.watched = [...new Set(roots)].map((root) => ({ root, watcher: undefined, id: 'unwatched' }));
    this.check();
  }

  /**
   * Re-arms the watch of a home that appeared, vanished or was replaced (each one then counts as changed), and
   * applies pending changes now. Called before each call is answered: the Manager counts the change as a load, so
   * the call's strict door waits for it.
   */
  check(): void {
    if (this.disposed) return;
    for (const w of this.watched) {
      const id = identity(w.root);
      if (id === w.id && (w.watcher || id === 'absent')) continue;
      w.watcher?.close();
      w.watcher = id === 'absent' ? undefined : this.watch(w);
      if (w.id !== 'unwatched') this.changed.add(w.root);
      w.id = w.watcher ? id : 'absent';
    }
    if (this.changed.size > 0) this.flush();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    for (const w of this.watched) w.watcher?.close();
  }

  private watch(w: Watched): fs.FSWatcher | undefined {
    try {
      const watcher = fs.watch(w.root, { recursive: true }, (_e, name) => {
        this.changed.add(name ? path.join(w.root, name.toString()) : w.root);
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.flush(), WATCH_DEBOUNCE_MS);
      });
      watcher.on('error', () => {
        watcher.close();
        if (w.watcher === watcher) w.watcher = undefined; // the next check makes a new one
      });
      return watcher;
    } catch {
      return undefined; // gone meanwhile: the next check sees it
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    const paths = [...this.changed];
    this.changed = new Set();
    if (paths.length > 0) void this.manager.applyChanges(paths).catch(() => undefined);
  }
}

/** A directory's device and inode, or `absent`. */
function identity(dir: string): string {
  try {
    const st = fs.statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : 'absent';
  } catch {
    return 'absent';
  }
}
