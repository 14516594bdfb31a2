/**
 * Reading a small file an extension directory (or a repository) supplies, without trusting it: only a regular file
 * is read (a FIFO, `/dev/zero`, a socket or a directory is refused before a byte is read), at most `maxBytes` of it
 * (a larger file is refused, not cut: half a JSON document is no manifest), and, when `within` is given, a symlink
 * whose target lies outside that directory is refused, so a repository cannot make the host read files elsewhere.
 * Errors are plain messages naming the file; the callers prefix them (`read manifest: …`).
 */
import { constants, openSync, closeSync, fstatSync, readSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Why a bounded read failed (the message names the file). */
export class BoundedReadError extends Error {}

/** Whether `target` is `root` or inside it (both already resolved). */
function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const tooLarge = (file: string, max: number) => new BoundedReadError(`${file}: larger than ${max} bytes (refused)`);
const notRegular = (file: string) => new BoundedReadError(`${file}: not a regular file (refused)`);

/** O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by its type). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Refuses a symlink at `file` whose target leaves `within` (async; nothing when `file` is not a symlink). */
async function checkLink(file: string, within: string): Promise<void> {
  const st = await fs.lstat(file).catch(() => undefined);
  if (!st?.isSymbolicLink()) return; // missing: open() reports it
  const [root, target] = await Promise.all([fs.realpath(within), fs.realpath(file)]);
  if (!inside(root, target)) throw new BoundedReadError(`${file}: a symlink to ${target}, outside ${within} (refused)`);
}

/** Reads `file` (UTF-8) if it is a regular file of at most `maxBytes`; throws `BoundedReadError` or an fs error. */
export async function readBoundedFile(file: string, maxBytes: number, within?: string): Promise<string> {
  if (within !== undefined) await checkLink(file, within);
  const handle = await fs.open(file, OPEN_FLAGS);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notRegular(file);
    if (st.size > maxBytes) throw tooLarge(file, maxBytes);
    // The file may grow between stat and read: read one byte past the cap to tell.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > maxBytes) throw tooLarge(file, maxBytes);
    }
    return buf.toString('utf8', 0, n);
  } finally {
    await handle.close();
  }
}

/** `readBoundedFile` for synchronous callers (no symlink rule: for files the user's own settings name). */
export function readBoundedFileSync(file: string, maxBytes: number): string {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(file);
    if (st.size > maxBytes) throw tooLarge(file, maxBytes);
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (;;) {
      const bytesRead = readSync(fd, buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > maxBytes) throw tooLarge(file, maxBytes);
    }
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}
