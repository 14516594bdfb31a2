/**
 * Where zut's agent plugin finds the stable launcher: the plugin's files ship in the extension and are static
 * (`agent-plugin/bin/zut-mcp`), while the launcher lives in VS Code's global storage, whose path depends on the
 * product (VS Code, Insiders, VSCodium, code-server) and the user. So each activation writes the launcher's absolute
 * path, one line, to `launcher` in the private hooks directory (rendezvous.ts `hooksDir`: 0700, ours), replaced
 * through an exclusive temporary file, 0600; the script refuses it unless the directory and the file are the user's,
 * not links, and writable by nobody else. POSIX only, like the script. VS Code-free.
 */
import * as path from 'node:path';
import { ensurePrivateDir, hooksDir } from '../hooks/rendezvous';
import { writeIfChanged } from './launcher';

/** The pointer's file name in the private hooks directory (agent-plugin/bin/zut-mcp reads the same name). */
export const LAUNCHER_POINTER_FILE = 'launcher';

/** Writes `launcher`'s path for the plugin when it changed; the file, or a reason it was not written. */
export async function writeLauncherPointer(launcher: string, dir = hooksDir()): Promise<{ file?: string; written: boolean; skipped?: string }> {
  if (process.platform === 'win32') return { written: false, skipped: "zut's agent plugin starts its server with sh: not on Windows" };
  if (!path.isAbsolute(launcher) || /[\r\n]/.test(launcher)) return { written: false, skipped: `not a one-line absolute path: ${JSON.stringify(launcher)}` };
  const why = ensurePrivateDir(dir);
  if (why) return { written: false, skipped: why };
  const file = path.join(dir, LAUNCHER_POINTER_FILE);
  return { file, written: await writeIfChanged(file, `${launcher}\n`, 0o600) };
}
