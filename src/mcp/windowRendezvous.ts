/**
 * Where a server of zut's agent plugin (`zut-host mcp --window`) finds the window whose host should serve it: a
 * window on the plugin's route publishes its agent-mode relay (relayServer.ts: the socket and its standing token) in
 * the private hooks directory (hooks/rendezvous.ts: 0700, every file 0600, ours, checked on each read), one file
 * `m-<extension host pid>-<folder key>.json` per workspace folder (`none` without a folder). A server finds first the
 * window whose extension host started it (VS Code's Local harness spawns plugin servers from the extension host: our
 * parent process), else one open on its working folder or the nearest parent that has one (newest first); a file
 * whose writer is gone or is another process now is skipped. VS Code-free.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir, folderKey, hooksDir, readRendezvous, realFolder, rendezvousNames, sameProcess, writeRendezvous, processStart, type Rendezvous } from '../hooks/rendezvous';

const NO_FOLDER = 'none';

/** The file of window `pid`'s relay for `folder` ('' = no folder). */
export function mcpWindowFile(dir: string, pid: number, folder: string): string {
  return path.join(dir, `m-${pid}-${folder === '' ? NO_FOLDER : folderKey(folder)}.json`);
}

/**
 * Publishes this process's relay for each of `folders`; returns the unpublish (removes exactly these files). A private
 * directory that cannot be had publishes nothing and says why.
 */
export function publishMcpWindow(address: string, token: string, folders: readonly string[], dir = hooksDir()): { unpublish: () => void; skipped?: string } {
  const why = ensurePrivateDir(dir);
  if (why) return { unpublish: () => undefined, skipped: why };
  const started = processStart(process.pid);
  const files: string[] = [];
  for (const folder of folders.length > 0 ? folders : ['']) {
    const file = mcpWindowFile(dir, process.pid, folder);
    const r: Rendezvous = { kind: 'window', address, token, pid: process.pid, folder: folder === '' ? '' : realFolder(folder), ...(started && { started }) };
    writeRendezvous(file, r, `${process.pid}-${Date.now()}`);
    files.push(file);
  }
  return { unpublish: () => files.forEach((f) => fs.rmSync(f, { force: true })) };
}

const live = (file: string): Rendezvous | undefined => {
  const r = readRendezvous(file);
  return r && sameProcess(r) !== false ? r : undefined;
};

const mtime = (file: string): number => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** The relay to serve a plugin server started by `parentPid` in `cwd`, if a live window published one. */
export function findMcpWindow(parentPid: number, cwd: string, dir = hooksDir()): Rendezvous | undefined {
  const names = rendezvousNames(dir, 'm');
  if (names.length === 0) return undefined;
  const pick = (prefix: (n: string) => boolean) =>
    names
      .filter(prefix)
      .map((n) => path.join(dir, n))
      .sort((a, b) => mtime(b) - mtime(a))
      .map(live)
      .find((r) => r !== undefined);
  const own = pick((n) => n.startsWith(`m-${parentPid}-`));
  if (own) return own;
  for (let folder = realFolder(cwd); ; folder = path.dirname(folder)) {
    const key = folderKey(folder);
    const found = pick((n) => n.endsWith(`-${key}.json`));
    if (found) return found;
    if (path.dirname(folder) === folder) return undefined;
  }
}
