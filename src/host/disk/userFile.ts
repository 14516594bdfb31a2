/**
 * The one careful writer for files of the user's that we change outside our own storage (agent hook files, Claude
 * Code settings, an extension's manifest): the file stays theirs (a file of ours, like the stable launcher in our
 * global storage, is replaced instead, a link at its path too: agentSetup/launcher.ts). A symbolic link is written
 * through (the link kept, its target changed) — or refused by name when the file is a workspace's and the link leaves
 * the workspace, or when it dangles; a read-only file, or one whose owner cannot be kept, is refused by name, never
 * replaced; anything but a regular file is refused. A write goes to a temporary file created exclusively (`wx`:
 * O_CREAT|O_EXCL, which also refuses a planted link) under a random name in the target's own directory, gets the
 * target's mode and owner, is fsynced, then renamed over the target (and the directory fsynced), so a reader sees the
 * old or the new content, never half of one. VS Code-free.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { isInside } from './copyTree';

/** Thrown when a file is left as it is on purpose (the message names it and says why). */
class UserFileRefused extends Error {}

export interface UserFileOptions {
  /** A workspace's file: its real path (every link followed) must lie inside this folder, else it is refused. */
  within?: string;
  /** A new file's mode (default 0o666, less the umask). */
  newMode?: number;
  /** Always this mode, whatever the file had. */
  mode?: number;
  /** Leave `text` undefined (the caller read the file its own way). */
  noRead?: boolean;
}

/** One file of the user's, resolved: where it really is and what it holds now. */
export interface UserFile {
  /** The path as named. */
  file: string;
  /** Where the content lives: the file, or the end of its chain of links. */
  real: string;
  /** Whether `file` is a symbolic link (written through, never replaced). */
  linked: boolean;
  /** The content now (utf8), or undefined when there is no file yet (or `noRead`). */
  text: string | undefined;
  /** Replaces the content (refused when read-only, or when its owner cannot be kept). */
  write(text: string): Promise<void>;
  /** Deletes the file (refused when read-only or linked: the caller writes what is left instead). */
  remove(): Promise<void>;
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** The real path `p` would have: the deepest existing ancestor's real path plus the rest. */
async function realPathOfNew(p: string): Promise<string> {
  const rest: string[] = [];
  for (let at = p; ; at = path.dirname(at)) {
    try {
      return path.join(await fs.realpath(at), ...rest.reverse());
    } catch (e) {
      if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') throw e;
      if (path.dirname(at) === at) throw e;
      rest.push(path.basename(at));
    }
  }
}

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** Why `st` cannot be written in place keeping what it is, or undefined. */
async function notWritable(file: string, real: string, st: Stats): Promise<string | undefined> {
  const where = real === file ? file : `${file} (a link to ${real})`;
  const readOnly = process.platform !== 'win32' ? (st.mode & 0o222) === 0 : (st.mode & 0o200) === 0;
  if (readOnly || !(await fs.access(real, constants.W_OK).then(() => true, () => false))) {
    return `${where} is read-only: left as it is (make it writable to let zut change it)`;
  }
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && st.uid !== uid) return `${where} belongs to another user (uid ${st.uid}): left as it is`;
  return undefined;
}

/**
 * Resolves `file` for reading and writing. Refuses (UserFileRefused) a dangling link, a link that leaves
 * `o.within`, and anything but a regular file; reading never follows more than the kernel's own link limit.
 */
export async function userFile(file: string, o: UserFileOptions = {}): Promise<UserFile> {
  const lst = await lstatOrUndefined(file);
  const linked = lst?.isSymbolicLink() ?? false;
  let real: string;
  let st: Stats | undefined;
  if (linked) {
    try {
      real = await fs.realpath(file);
    } catch (e) {
      const to = await fs.readlink(file).catch(() => '?');
      throw new UserFileRefused(`${file} is a link to ${to}, which ${code(e) === 'ENOENT' ? 'does not exist' : `cannot be resolved (${code(e)})`}: left as it is`);
    }
    st = await fs.stat(real);
  } else {
    real = lst ? path.join(await fs.realpath(path.dirname(file)), path.basename(file)) : await realPathOfNew(file);
    st = lst;
  }
  if (o.within !== undefined) {
    const root = await fs.realpath(o.within);
    if (!isInside(root, real)) throw new UserFileRefused(`${file} leads outside the workspace ${o.within} (to ${real}) through a link: left as it is`);
  }
  if (st && !st.isFile()) throw new UserFileRefused(`${file}${linked ? ` (a link to ${real})` : ''} is not a regular file: left as it is`);
  const text = st && !o.noRead ? await fs.readFile(real, 'utf8') : undefined;
  return {
    file,
    real,
    linked,
    text,
    write: (t) => writeThrough(file, real, t, o),
    async remove() {
      const now = await lstatOrUndefined(file);
      if (!now) return;
      if (now.isSymbolicLink()) throw new UserFileRefused(`${file} is a link: not deleted`);
      const why = await notWritable(file, file, now);
      if (why) throw new UserFileRefused(why);
      await fs.unlink(file);
    },
  };
}

/** Writes `text` as `real`'s new content (see the header), keeping its mode and owner. */
async function writeThrough(file: string, real: string, text: string, o: UserFileOptions): Promise<void> {
  let st: Stats | undefined;
  try {
    st = await fs.stat(real);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw e;
  }
  if (st) {
    if (!st.isFile()) throw new UserFileRefused(`${file} is not a regular file: left as it is`);
    const why = await notWritable(file, real, st);
    if (why) throw new UserFileRefused(why);
  }
  const dir = path.dirname(real);
  if (!st) await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(real)}.zut-${randomBytes(8).toString('hex')}.tmp`);
  const mode = o.mode ?? (st ? st.mode & 0o7777 : undefined);
  const fh = await fs.open(tmp, 'wx', mode ?? o.newMode ?? 0o666);
  try {
    try {
      await fh.writeFile(text, 'utf8');
      if (mode !== undefined && process.platform !== 'win32') await fh.chmod(mode); // the umask took bits off
      const now = await fh.stat();
      if (st && process.platform !== 'win32' && (now.uid !== st.uid || now.gid !== st.gid)) {
        const was = st;
        await fh.chown(was.uid, was.gid).catch((e: unknown) => {
          throw new UserFileRefused(`${file}: its owner and group (${was.uid}:${was.gid}) cannot be kept (${code(e)}): left as it is`);
        });
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, real);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dir);
}

/** fsync of a directory, so the rename survives a crash (not possible on Windows). */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const d = await fs.open(dir, 'r').catch(() => undefined);
  if (!d) return;
  try {
    await d.sync().catch(() => undefined);
  } finally {
    await d.close();
  }
}
