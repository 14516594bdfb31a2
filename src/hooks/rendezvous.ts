/**
 * Where `zut-host hook` finds a host that is already running: a zut-vscode window, or the warm headless host
 * (warmHost.ts). A per-user 0700 directory no other user can create first (`$ZUT_HOOKS_DIR`, else `~/.cache/zut-hooks`
 * — under the user's home, not a shared temporary directory where another user could squat its name; the same for
 * a window and a terminal whatever their environments; on Windows the per-user temp folder) holds one 0600 file per listener: a window writes `w-<key>-<id>.json` for each of
 * its workspace folders (so two windows on one folder each have theirs, and closing one leaves the other), a warm
 * host `h-<key>.json` for the folder and options it serves. `<key>` is the SHA-256 of the folder's real path (a folder
 * opened through a symlink and a hook whose `cwd` spells it otherwise meet), with the warm host's options. A file says
 * `{"kind", "address", "token", "pid", "folder", "started"}` (`started`: the writer's start identity, processStart).
 * A hook looks up its input's `cwd`, then each parent folder, for a window; the warm host of that exact folder comes
 * after. Every read, window or warm, refuses a file whose directory another user owns, others can read or write, or
 * is a link, and a file that is a link, not a regular file, another user's, or writable by others: whoever could put
 * one there would get every tool input and answer for the guards. Checked by hand, not with zod: the light hook entry
 * (src/hook.ts) reads this on every agent tool call. VS Code-free.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isObject } from '../protocol/json';

/** A rendezvous file's content. */
export interface Rendezvous {
  kind: 'window' | 'warm';
  address: string;
  token: string;
  pid: number;
  folder: string;
  /** The writer's start identity (processStart), when its platform has one: a pid reused since is another process. */
  started?: string;
}

/** The rendezvous in `json`, if it is one (non-empty address and token, an integer pid, a folder). */
function asRendezvous(json: unknown): Rendezvous | undefined {
  if (!isObject(json)) return undefined;
  const r = json;
  const ok = typeof r.address === 'string' && r.address !== '' && typeof r.token === 'string' && r.token !== '' && Number.isInteger(r.pid) && typeof r.folder === 'string';
  if (!ok || (r.started !== undefined && typeof r.started !== 'string')) return undefined;
  return {
    kind: r.kind === 'warm' ? 'warm' : 'window',
    address: r.address as string,
    token: r.token as string,
    pid: r.pid as number,
    folder: r.folder as string,
    ...(typeof r.started === 'string' && { started: r.started }),
  };
}

/** Whether `dir` is a directory of ours (not a link) that only we can read (always true on Windows: per-user temp). */
export function checkPrivateDir(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((st.mode & 0o077) !== 0) return `${dir} is readable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why the open file `st` (a rendezvous) is not one of ours: not a regular file, another user's, writable by others. */
export function checkOwnFile(file: string, st: fs.Stats): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (!st.isFile()) return `${file} is not a regular file`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${file} belongs to another user`;
  if ((st.mode & 0o022) !== 0) return `${file} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The per-user directory (not created). */
export function hooksDir(): string {
  if (process.env.ZUT_HOOKS_DIR) return path.resolve(process.env.ZUT_HOOKS_DIR);
  if (process.platform === 'win32') return path.join(os.tmpdir(), 'zut-hooks');
  return path.join(os.homedir(), '.cache', 'zut-hooks');
}

/** Creates the directory 0700 (or checks an existing one is ours and private); a string says why it cannot be used. */
export function ensurePrivateDir(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return checkPrivateDir(dir);
  } catch (e) {
    return `${dir}: ${(e as Error).message}`;
  }
}

/**
 * The file the hook hosts keep what they know of each extension as a guard in (host/extensions/guardMemory.ts), in
 * the private hooks directory; none when that directory cannot be used (then only this process knows).
 */
export function guardMemoryFile(dir = hooksDir()): string | undefined {
  return ensurePrivateDir(dir) === undefined ? path.join(dir, 'guards.json') : undefined;
}

/** The folder as the file system knows it (symlinks resolved); as given when it cannot be resolved. */
export function realFolder(folder: string): string {
  const abs = path.resolve(folder);
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The key of a folder (its real path). */
export function folderKey(folder: string): string {
  return hash(realFolder(folder));
}

/** A window's rendezvous file for `folder` (`id`: the window's listener). */
export function windowFile(dir: string, folder: string, id: string): string {
  return path.join(dir, `w-${folderKey(folder)}-${id}.json`);
}

/** The warm host's rendezvous file for `folder` with `options` (e.g. `project`, `no-zot`; any order). */
export function warmFile(dir: string, folder: string, options: readonly string[]): string {
  return path.join(dir, `h-${hash(`${realFolder(folder)}\0${[...options].sort().join(',')}`)}.json`);
}

/**
 * The rendezvous in `file`, if it is one and can be trusted: its directory private (checkPrivateDir), the file itself
 * ours (opened without following a link; checkOwnFile). Every reader goes through here, a warm host's file included.
 */
export function readRendezvous(file: string): Rendezvous | undefined {
  try {
    if (checkPrivateDir(path.dirname(file))) return undefined;
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      if (checkOwnFile(file, fs.fstatSync(fd))) return undefined;
      return asRendezvous(JSON.parse(fs.readFileSync(fd, 'utf8')));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Writes `r` to `file` (0600, through an exclusively created temp file and a rename). */
export function writeRendezvous(file: string, r: Rendezvous, id: string): void {
  const tmp = `${file}.${id}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(r), { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/**
 * The rendezvous files of one kind in `dir` (`w`: windows, `h`: warm hosts, `m`: windows' MCP relays), by name; none when the directory is not
 * private (anyone could have planted them) or not there.
 */
export function rendezvousNames(dir: string, kind: 'w' | 'h' | 'm'): string[] {
  try {
    if (checkPrivateDir(dir)) return [];
    return fs.readdirSync(dir).filter((n) => n.startsWith(`${kind}-`) && n.endsWith('.json'));
  } catch {
    return [];
  }
}

/**
 * The windows for `cwd`: those of its own folder, else of the nearest parent folder that has any (newest first);
 * none when the directory is not private.
 */
export function findWindows(cwd: string, dir = hooksDir()): { file: string; r: Rendezvous }[] {
  const names = rendezvousNames(dir, 'w');
  if (names.length === 0) return [];
  for (let folder = realFolder(cwd); ; folder = path.dirname(folder)) {
    const prefix = `w-${hash(folder)}-`;
    const found = names
      .filter((n) => n.startsWith(prefix))
      .map((n) => path.join(dir, n))
      .flatMap((file) => {
        const r = readRendezvous(file);
        return r ? [{ file, r, at: mtime(file) }] : [];
      })
      .sort((a, b) => b.at - a.at);
    if (found.length > 0) return found.map(({ file, r }) => ({ file, r }));
    if (path.dirname(folder) === folder) return [];
  }
}

const mtime = (file: string) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Process `pid`'s start identity, which a pid reused by a later process does not share: on Linux the boot's id and the
 * start time of /proc/<pid>/stat (field 22, clock ticks since boot); undefined where there is no /proc (macOS,
 * Windows) or the process is gone.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses; the fields after it start at field 3.
    const starttime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    if (!starttime || !/^\d+$/.test(starttime)) return undefined;
    return `linux:${bootId()}:${starttime}`;
  } catch {
    return undefined;
  }
}

let boot: string | undefined;
const bootId = () => {
  try {
    return (boot ??= fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  } catch {
    return '';
  }
};

/**
 * Whether `r`'s pid is still the process that wrote it: false when that pid is gone or now another process (a start
 * identity that differs); undefined when it is alive and that cannot be told here (no identity recorded, or none on
 * this platform): then only its socket can tell (client.ts hostState).
 */
export function sameProcess(r: Rendezvous): boolean | undefined {
  if (!alive(r.pid)) return false;
  if (r.started === undefined) return undefined;
  const now = processStart(r.pid);
  return now === undefined ? undefined : now === r.started;
}

/** Whether process `pid` is alive (a rendezvous whose writer is gone is stale). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
