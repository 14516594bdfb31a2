/**
 * Reading a bundled skill's files on demand (its SKILL.md when a skill is loaded, any other file of its folder when an
 * MCP client reads it as a resource), without trusting them. Containment is checked at each read against the folders
 * as they resolve now, not as discovery saw them: the skill folder must still resolve inside the extension's own real
 * directory (one turned into a link to elsewhere since is refused) and the file inside that folder, after symlinks are
 * resolved; the file is opened without following a final link and must be a regular file by its descriptor (a FIFO,
 * a device or a link swapped in is refused before a byte is read), and at most `maxBytes` of it is read (the rest is
 * cut and said to be). Text is UTF-8; a file that is not is returned as bytes. Errors name the file.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInside } from './copyTree';
import { SKILL_MAX_BYTES } from '../../protocol/limits';

/** One file read: its text (or bytes when it is not UTF-8) and whether it was cut at the limit. */
export type SkillFileContent = { kind: 'text'; text: string; truncated: boolean } | { kind: 'bytes'; data: Buffer; truncated: boolean };

/** Where a skill's files are: its folder and the directory of the extension that bundles it (absolute paths). */
export interface SkillFolder {
  dir: string;
  extDir: string;
}

/**
 * Reads `rel` (a `/`-separated path relative to the skill folder `skill.dir`) when it names a regular file inside that
 * folder, and the folder is inside the extension's directory, both as they resolve now. Throws an error naming the
 * file otherwise (absolute paths, `..` escapes, symlinks out, a folder that now leads out, anything not a file).
 */
export async function readSkillFile(skill: SkillFolder, rel: string, maxBytes: number = SKILL_MAX_BYTES): Promise<SkillFileContent> {
  const { dir } = skill;
  const refuse = (why: string) => new Error(`${path.join(dir, rel)}: ${why}`);
  if (rel === '' || path.isAbsolute(rel) || path.win32.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) throw refuse('not a path inside the skill folder');
  const [extRoot, root] = await Promise.all([fs.realpath(skill.extDir), fs.realpath(dir)]).catch(() => {
    throw refuse('the skill folder or its extension is gone');
  });
  if (!isInside(extRoot, root)) throw refuse(`the skill folder now resolves to ${root}, outside its extension`);
  const real = await fs.realpath(path.join(root, rel)).catch(() => {
    throw refuse('not found');
  });
  if (!isInside(root, real) || real === root) throw refuse('not a file inside the skill folder');
  // O_NOFOLLOW: a link put in the file's place since it was resolved is not followed (the open fails).
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by its type, from the descriptor).
  const handle = await fs.open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch((e: unknown) => {
    throw refuse((e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a symbolic link (not followed)' : (e as Error).message);
  });
  try {
    if (!(await handle.stat()).isFile()) throw refuse('not a regular file');
    // One byte past the cap tells a file that is (or grew) too large.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = (await handle.read(buf, n, buf.length - n, n)).bytesRead;
    const truncated = n > maxBytes;
    const bytes = buf.subarray(0, Math.min(n, maxBytes));
    const text = utf8(bytes, truncated);
    return text === undefined ? { kind: 'bytes', data: Buffer.from(bytes), truncated } : { kind: 'text', text, truncated };
  } finally {
    await handle.close();
  }
}

/** The text of `bytes` when they are UTF-8 (a character cut at the end of a truncated read is dropped), else undefined. */
function utf8(bytes: Buffer, truncated: boolean): string | undefined {
  let end = bytes.length;
  if (truncated && end > 0) {
    // The last character's lead byte, and whether all of its bytes made it before the cut.
    let lead = end - 1;
    while (lead > 0 && end - lead < 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
    const b = bytes[lead]!;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (end - lead < need) end = lead;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
}
