/**
 * Whether an agent seems to be on this machine: its command on PATH, or its configuration directory in the home.
 * Only for ordering what the window offers (the ones found first); installing never depends on it. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** `command` on `$PATH` (with Windows' extensions from `$PATHEXT`), or any of `dirs` (relative to `home`) present. */
export function agentOnMachine(command: string, dirs: readonly string[], home: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (dirs.some((d) => existsSync(path.join(home, d)))) return true;
  const sep = platform === 'win32' ? ';' : ':';
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  return (env.PATH ?? env.Path ?? '')
    .split(sep)
    .filter(Boolean)
    .some((dir) => exts.some((ext) => existsSync(path.join(dir, command + ext))));
}
