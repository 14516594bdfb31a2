/**
 * The project of a hook that no window answers: which folder's own extensions (`.zut/extensions`, `.zot/extensions`,
 * `.e/extensions`) its host may start — with the opt-in only, `--allow-project` / `$ZUT_ALLOW_PROJECT=1` — and
 * which folder its warm host serves. A window is found for the input's `cwd` "then each parent" (rendezvous.ts); the
 * project is found the same way, so that `cd src` in a repository keeps the repository's guard:
 *
 * - The walk starts at the `cwd` (its real path) and goes up through each parent, and stops at the user's home
 *   directory (never a project for a folder below it: its dot-folders are where the global homes live, `~/.e`,
 *   often `~/.zut`) and at the file system's root.
 * - A folder is a project folder when it holds the project extensions directory of a protocol the hook loads (zut's
 *   always, zot's unless `--no-zot`, e's unless `--no-e`) that is not a global extension directory (`$ZUT_HOME`'s,
 *   `$ZOT_HOME`'s or `~/.e`'s `extensions/`: never a project's).
 * - A parent (not the `cwd` itself, which the agent works in) counts only when the user running the hook owns it and
 *   others cannot write to it: a folder where someone else could have created `.zut/extensions` (`/tmp`, another
 *   user's) is never a project. On Windows, where there is no such owner, a drive's root never counts.
 * - The project is the OUTERMOST project folder of the walk; with none, the `cwd` itself. The opt-in given for a
 *   repository is for the repository's own extensions, as a window opened on it loads them: a project folder nested
 *   in it (`vendor/pkg/.zut/extensions`) is part of the repository's tree, not another project, and its extensions are
 *   never discovered, let alone started, whatever the `cwd` — `cd vendor/pkg` is judged by the repository's guards.
 *
 * The hook's host (its own, or the warm host: one per project, warmHost.ts) gets the project as its one workspace
 * folder, so its extensions are told it as their `cwd`. The `cwd` itself still finds the windows (rendezvous.ts).
 * Light: the entry an agent runs per tool call (src/hook.ts) uses it (a few `stat`s per parent). VS Code-free.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { eProjectExtensionsDir, globalExtensionsDir, projectExtensionsDir, resolveEHome, resolveZotHome, resolveZutHome, zotProjectExtensionsDir } from '../host/disk/paths';
import { realFolder } from './rendezvous';

/** Where the walk looks: the protocols loaded, the environment the global homes come from, the user's home. */
export interface ProjectScope {
  noZot: boolean;
  noE: boolean;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** `dir` as the file system knows it, or undefined when it is not a directory. */
function realDir(dir: string): string | undefined {
  try {
    return fs.statSync(dir).isDirectory() ? fs.realpathSync.native(dir) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `folder` is one nobody but this user could have put a project extensions directory in (POSIX). */
function ownFolder(folder: string): boolean {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return path.parse(folder).root !== folder;
  try {
    const st = fs.statSync(folder);
    return st.uid === process.getuid() && (st.mode & 0o002) === 0;
  } catch {
    return false;
  }
}

/** The project folder of a hook whose input names `cwd` (the header's rule); `cwd` resolved when there is none. */
export function projectFolder(cwd: string, scope: ProjectScope): string {
  const env = scope.env ?? process.env;
  const home = scope.home ?? os.homedir();
  const projectDirs = [projectExtensionsDir, ...(scope.noZot ? [] : [zotProjectExtensionsDir]), ...(scope.noE ? [] : [eProjectExtensionsDir])];
  let globals: Set<string> | undefined;
  const isGlobal = (dir: string) =>
    (globals ??= new Set(
      [resolveZutHome(env, process.platform, home), resolveZotHome(env, process.platform, home), resolveEHome(home)].flatMap((h) => realDir(globalExtensionsDir(path.resolve(h))) ?? []),
    )).has(dir);
  const isProject = (folder: string) =>
    projectDirs.some((of) => {
      const dir = realDir(of(folder));
      return dir !== undefined && !isGlobal(dir);
    });
  const start = realFolder(cwd);
  const stop = realFolder(home);
  let outermost: string | undefined;
  for (let folder = start; ; ) {
    if ((folder === start || ownFolder(folder)) && isProject(folder)) outermost = folder;
    const up = path.dirname(folder);
    if (up === folder || up === stop || folder === stop) break;
    folder = up;
  }
  return outermost === undefined || outermost === start ? path.resolve(cwd) : outermost;
}
