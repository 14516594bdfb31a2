/**
 * `zut-host ext remove`: an extension folder goes to the platform's trash, as "Remove" in the Extensions view does
 * (there through VS Code's file service). Linux and other freedesktop systems: the home trash of the Trash spec
 * (`$XDG_DATA_HOME/Trash`, default `~/.local/share/Trash`: the folder under `files/`, a `.trashinfo` under `info/`
 * with its original path and deletion date, so desktop trash tools can restore it). macOS: `~/.Trash`. Where there
 * is none (Windows from a terminal, or a folder on another file system than the trash), the folder is moved to
 * `$ZUT_HOME/trash/<name>-<time>` instead. VS Code's "Remove" takes the same path with its own trash
 * (`TrashOptions.trash`). Never deletes outright.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MANIFEST_FILE } from './manifest';

export interface TrashOptions {
  zutHome: string;
  /**
   * The platform's trash as the caller reaches it (VS Code: its file service, `useTrash`), used instead of the
   * home trash found here; when it fails (a remote or web host without one), the fallback folder.
   */
  trash?: (target: string) => Promise<void>;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** Where a removed extension went: the trash (`kind: 'trash'`) or the fallback folder. */
export interface Trashed {
  kind: 'trash' | 'fallback';
  /** The folder it now is. */
  path: string;
}

/** The freedesktop home trash: `$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`. */
function freedesktopTrashDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const data = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(data, 'Trash');
}

/** Local time as the Trash spec wants it: `YYYY-MM-DDThh:mm:ss`. */
function deletionDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A free name in `dir` for `base`: `base`, `base.2`, `base.3`, … reserved by creating `<name><suffix>` exclusively. */
async function reserve(dir: string, base: string, suffix: string, content: string): Promise<string> {
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}.${i}`;
    try {
      await fs.writeFile(path.join(dir, name + suffix), content, { flag: 'wx', mode: 0o600 });
      return name;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

async function toFreedesktopTrash(target: string, trash: string): Promise<string> {
  const files = path.join(trash, 'files');
  const info = path.join(trash, 'info');
  await fs.mkdir(files, { recursive: true, mode: 0o700 });
  await fs.mkdir(info, { recursive: true, mode: 0o700 });
  const uriPath = target.split(path.sep).map(encodeURIComponent).join('/');
  const content = `[Trash Info]\nPath=${uriPath}\nDeletionDate=${deletionDate(new Date())}\n`;
  const name = await reserve(info, path.basename(target), '.trashinfo', content);
  const dest = path.join(files, name);
  try {
    await fs.rename(target, dest);
  } catch (e) {
    await fs.rm(path.join(info, name + '.trashinfo'), { force: true });
    throw e;
  }
  return dest;
}

async function toMacTrash(target: string, home: string): Promise<string> {
  const trash = path.join(home, '.Trash');
  for (let i = 1; ; i++) {
    const dest = path.join(trash, i === 1 ? path.basename(target) : `${path.basename(target)} ${i}`);
    try {
      await fs.lstat(dest);
    } catch {
      await fs.rename(target, dest);
      return dest;
    }
  }
}

async function toFallback(target: string, zutHome: string): Promise<string> {
  const dest = path.join(zutHome, 'trash', `${path.basename(target)}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await fs.mkdir(path.dirname(dest), { recursive: true });
  try {
    await fs.rename(target, dest);
  } catch {
    await fs.cp(target, dest, { recursive: true, verbatimSymlinks: true });
    await fs.rm(target, { recursive: true, force: true });
  }
  return dest;
}

/**
 * Moves the extension folder `dir` to the trash. Refuses a folder without extension.json (never removes
 * something that is not an extension). A symlinked extension folder: the link goes, not what it points to.
 */
export async function moveToTrash(dir: string, o: TrashOptions): Promise<Trashed> {
  const target = path.resolve(dir);
  try {
    await fs.access(path.join(target, MANIFEST_FILE));
  } catch {
    throw new Error(`remove: ${target} has no ${MANIFEST_FILE}; not removing it`);
  }
  const platform = o.platform ?? process.platform;
  const home = o.home ?? os.homedir();
  try {
    if (o.trash) {
      await o.trash(target);
      return { kind: 'trash', path: target };
    }
    if (platform === 'darwin') return { kind: 'trash', path: await toMacTrash(target, home) };
    if (platform !== 'win32') return { kind: 'trash', path: await toFreedesktopTrash(target, freedesktopTrashDir(o.env, home)) };
  } catch {
    // Another file system than the home trash (EXDEV), or no trash we may write: the fallback below.
  }
  return { kind: 'fallback', path: await toFallback(target, o.zutHome) };
}
