/**
 * Where a running zut-vscode window can be reached by `zut-host hook`: a per-user 0700 directory
 * (`$ZUT_HOOKS_DIR`, else `<tmpdir>/zut-hooks-<uid>`) holding one rendezvous file per workspace folder, named by the
 * SHA-256 of the folder's absolute path, mode 0600: `{"address": <socket or pipe>, "token": <hex>, "pid", "folder"}`.
 * A hook finds the file of its input's `cwd` or of the nearest parent folder that has one. The directory is refused
 * if another user owns it or others can read it. The file is checked by hand, not with zod: the light hook entry
 * (src/hook.ts) reads it on every agent tool call and must not load zod (most of its start-up time). VS Code-free.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A rendezvous file's content. */
export interface Rendezvous {
  address: string;
  token: string;
  pid: number;
  folder: string;
}

/** The rendezvous in `json`, if it is one (non-empty address and token, an integer pid, a folder). */
export function asRendezvous(json: unknown): Rendezvous | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const r = json as Record<string, unknown>;
  const ok = typeof r.address === 'string' && r.address !== '' && typeof r.token === 'string' && r.token !== '' && Number.isInteger(r.pid) && typeof r.folder === 'string';
  return ok ? { address: r.address as string, token: r.token as string, pid: r.pid as number, folder: r.folder as string } : undefined;
}

/** The per-user directory (not created). */
export function hooksDir(): string {
  if (process.env.ZUT_HOOKS_DIR) return path.resolve(process.env.ZUT_HOOKS_DIR);
  const uid = typeof process.getuid === 'function' ? process.getuid() : os.userInfo().username;
  return path.join(os.tmpdir(), `zut-hooks-${uid}`);
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

/** Whether `dir` is a directory of ours that only we can read (always true on Windows: per-user temp). */
export function checkPrivateDir(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((st.mode & 0o077) !== 0) return `${dir} is readable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The rendezvous file of a folder. */
export function rendezvousFile(dir: string, folder: string): string {
  return path.join(dir, createHash('sha256').update(path.resolve(folder), 'utf8').digest('hex') + '.json');
}

/** The rendezvous for `cwd`: its own folder's, else the nearest parent's; undefined when none (or not private). */
export function findRendezvous(cwd: string, dir = hooksDir()): Rendezvous | undefined {
  try {
    if (checkPrivateDir(dir)) return undefined;
  } catch {
    return undefined;
  }
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    try {
      const r = asRendezvous(JSON.parse(fs.readFileSync(rendezvousFile(dir, folder), 'utf8')));
      if (r) return r;
    } catch {
      // none for this folder
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}
