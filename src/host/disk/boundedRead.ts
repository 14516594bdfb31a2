/**
 * Reading a small file an extension directory (or a repository) supplies, without trusting it: only a regular file
 * is read (a FIFO, `/dev/zero`, a socket or a directory is refused before a byte is read), at most `maxBytes` of it
 * (a larger file is refused, not cut: half a JSON document is no manifest), and, when `within` is given, a symlink
 * whose target lies outside that directory is refused, so a repository cannot make the host read files elsewhere.
 * Errors name the file; the callers prefix them (`read manifest: …`).
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Reads `file` (UTF-8) if it is a regular file of at most `maxBytes`; throws an error naming it otherwise. */
export async function readBoundedFile(file: string, maxBytes: number, within?: string): Promise<string> {
  const refuse = (why: string) => new Error(`${file}: ${why} (refused)`);
  if (within !== undefined && (await fs.lstat(file).catch(() => undefined))?.isSymbolicLink()) {
    const [root, target] = await Promise.all([fs.realpath(within), fs.realpath(file)]);
    const rel = path.relative(root, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw refuse(`a symlink to ${target}, outside ${within}`);
  }
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by its type).
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw refuse('not a regular file');
    // One byte past the cap tells a file that is (or grew) too large.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let got = 1; got > 0 && n <= maxBytes; n += got) got = (await handle.read(buf, n, buf.length - n, n)).bytesRead;
    if (n > maxBytes) throw refuse(`larger than ${maxBytes} bytes`);
    return buf.toString('utf8', 0, n);
  } finally {
    await handle.close();
  }
}
