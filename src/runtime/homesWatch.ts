/**
 * A headless host's eye on its extension homes (recipe.ts `watchedHomes`: the global homes of zut, zot and e, the
 * project's when trusted, `--ext` paths): each watched recursively with `fs.watch`, every change reported to the
 * change loop (changes.ts). A home that did not exist at start, or was removed and made again, is watched anew at
 * each `check` — the warm hook host checks before every call and every HOOK_HOST_CHECK_MS, and a check applies
 * whatever is pending, so a guard installed a moment ago judges the call (issue 37). VS Code-free.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Disposable } from '../host/events';
import type { ChangeLoop } from './changes';

/** One watched home: its watcher and the identity (device, inode) it was made for. */
interface Watched {
  root: string;
  watcher: fs.FSWatcher | undefined;
  id: string;
}

export class HomesWatch extends Disposable {
  private readonly watched: Watched[];

  constructor(
    private readonly loop: Pick<ChangeLoop, 'changed' | 'flush'>,
    roots: readonly string[],
  ) {
    super();
    this.watched = [...new Set(roots)].map((root) => ({ root, watcher: undefined, id: 'unwatched' }));
    this._register({ dispose: () => this.watched.forEach((w) => w.watcher?.close()) });
    this.check();
  }

  /**
   * Re-arms the watch of a home that appeared, vanished or was replaced (each one then counts as changed), and
   * applies pending changes now.
   */
  check(): void {
    if (this.disposed) return;
    for (const w of this.watched) {
      const id = identity(w.root);
      if (id === w.id && (w.watcher || id === 'absent')) continue;
      w.watcher?.close();
      w.watcher = id === 'absent' ? undefined : this.watch(w);
      if (w.id !== 'unwatched') this.loop.changed(w.root);
      w.id = w.watcher ? id : 'absent';
    }
    this.loop.flush();
  }

  private watch(w: Watched): fs.FSWatcher | undefined {
    try {
      const watcher = fs.watch(w.root, { recursive: true }, (_e, name) => this.loop.changed(name ? path.join(w.root, name.toString()) : w.root));
      watcher.on('error', () => {
        watcher.close();
        if (w.watcher === watcher) w.watcher = undefined; // the next check makes a new one
      });
      return watcher;
    } catch {
      return undefined; // gone meanwhile: the next check sees it
    }
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
