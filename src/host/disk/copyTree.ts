/**
 * The copy behind `install`: an extension folder becomes plain files and directories. A symbolic link whose target
 * is inside the folder is replaced by a copy of that target's content; a link that leaves the folder (or dangles, or
 * loops) is refused, naming it. An installed global extension runs without a consent prompt, so it must never keep
 * a path back into the repository it came from (issue 20, point 10). `.git` entries are not copied.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';

/** A copy refused because of one entry of the source; `entry` is its path relative to the source. */
export class CopyRefused extends Error {
  constructor(
    readonly entry: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `p` is `root` or inside it (both real, absolute paths). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** What the copy produced: every file (relative, `/`-separated, sorted) with its size. */
export interface CopiedFile {
  path: string;
  bytes: number;
  executable: boolean;
}

/**
 * Copies the directory `src` to `dest` (which must not exist) by content. Modes and modification times are kept.
 * Throws `CopyRefused` for a link leaving `src`, a dangling link, a link to one of its own ancestors, or an entry
 * that is neither a file nor a directory (socket, FIFO, device). Partial output is the caller's to remove.
 */
export async function copyContents(src: string, dest: string): Promise<CopiedFile[]> {
  const root = await fs.realpath(src);
  const files: CopiedFile[] = [];
  await copyDir(root, src, dest, '', [root], files);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function copyDir(root: string, from: string, to: string, rel: string, ancestors: string[], files: CopiedFile[]): Promise<void> {
  const st = await fs.stat(from);
  await fs.mkdir(to, { mode: (st.mode & 0o777) | 0o700 });
  const names = (await fs.readdir(from)).filter((n) => n !== '.git').sort();
  const here = ancestors[ancestors.length - 1]!;
  for (const name of names) {
    const p = path.join(from, name);
    const r = rel === '' ? name : `${rel}/${name}`;
    const lst = await fs.lstat(p);
    let real = path.join(here, name);
    let target: Stats = lst;
    if (lst.isSymbolicLink()) {
      const link = await fs.readlink(p);
      try {
        real = await fs.realpath(p);
        target = await fs.stat(p);
      } catch {
        throw new CopyRefused(r, `${r} is a symbolic link to ${JSON.stringify(link)}, which does not exist`);
      }
      if (!isInside(root, real)) {
        throw new CopyRefused(r, `${r} is a symbolic link to ${real}, outside the extension folder (install copies files; put what it needs inside the folder)`);
      }
      if (target.isDirectory() && ancestors.includes(real)) {
        throw new CopyRefused(r, `${r} is a symbolic link to its own ancestor ${JSON.stringify(link)} (a loop)`);
      }
    }
    const out = path.join(to, name);
    if (target.isDirectory()) await copyDir(root, p, out, r, [...ancestors, real], files);
    else if (target.isFile()) {
      await fs.copyFile(p, out, constants.COPYFILE_EXCL);
      await fs.chmod(out, target.mode & 0o777);
      await fs.utimes(out, target.atime, target.mtime);
      files.push({ path: r, bytes: target.size, executable: (target.mode & 0o111) !== 0 });
    } else throw new CopyRefused(r, `${r} is not a regular file or directory (a socket, FIFO or device cannot be installed)`);
  }
  await fs.utimes(to, st.atime, st.mtime);
}
