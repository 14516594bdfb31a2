/**
 * Which ecosystem an explicit path (`--ext`, `zut.extensionPaths`) is, from its layout alone (issue 23, point 3):
 * - a folder with `extension.json`: a zut extension, or zot's when it sits in a `.zot/extensions` folder or in
 *   `$ZOT_HOME/extensions` (the two share the manifest; the protocol is picked by the extension's `hello` anyway);
 * - an executable file, or a folder without `extension.json` that has an e entry point (`index.*`, `<dir>.*`, a sole
 *   executable; discoverE.ts): an e extension;
 * - anything else is none of them, and the error names the three layouts.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Ecosystem } from '../types';
import { pickEntryPoint } from './discoverE';
import { isExecutable, MANIFEST_FILE } from './manifest';

/** The ecosystem of an explicit path, or why it is not an extension (a missing path stays zut's: its manifest error says so). */
export async function explicitLayout(p: string, zotHome?: string): Promise<{ ok: true; ecosystem: Ecosystem } | { ok: false; error: string }> {
  let st;
  try {
    st = await fs.stat(p);
  } catch {
    return { ok: true, ecosystem: 'zut' };
  }
  const none = `${p} is not an extension: it is none of the three layouts — a zut or zot extension folder (with ${MANIFEST_FILE}), an e extension file (an executable), or an e extension folder (index.*, ${path.basename(p)}.* or a sole executable)`;
  if (st.isFile()) return isExecutable(st) ? { ok: true, ecosystem: 'e' } : { ok: false, error: `${none}; ${path.basename(p)} is a file that is not executable (chmod +x it)` };
  if (!st.isDirectory()) return { ok: false, error: none };
  try {
    await fs.lstat(path.join(p, MANIFEST_FILE));
    const parent = path.dirname(p);
    const inZot = (path.basename(parent) === 'extensions' && path.basename(path.dirname(parent)) === '.zot') || (zotHome !== undefined && parent === path.join(zotHome, 'extensions'));
    return { ok: true, ecosystem: inZot ? 'zot' : 'zut' };
  } catch {
    /* no manifest: maybe an e folder */
  }
  const picked = await pickEntryPoint(p);
  return 'entry' in picked ? { ok: true, ecosystem: 'e' } : { ok: false, error: `${none}; ${picked.error}` };
}
