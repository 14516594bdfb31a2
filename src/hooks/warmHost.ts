/**
 * The warm headless host, from the hook's side: with no window for its folder, a hook starts one host per folder and
 * options (`zut-host hook host`, detached; src/cli/hookHost.ts) that keeps the extensions running between calls and
 * answers over the same local socket as a window, then exits when idle. Here: the options that key it, and starting
 * it — once (an exclusive lock file beside its rendezvous; a start older than HOOK_HOST_START_MS is stale) — while
 * the hook that found none answers by itself. `ZUT_HOOK_WARM=0` turns it off (each call then runs its own host).
 * Light: the entry an agent runs per tool call (src/hook.ts) uses it. VS Code-free.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { HOOK_HOST_START_MS } from '../protocol/limits';
import { ensurePrivateDir, hooksDir, warmFile } from './rendezvous';

/** What keys a warm host besides its folder: the hook's options that change which extensions run. */
export interface WarmOptions {
  allowProject: boolean;
  noZot: boolean;
  noE: boolean;
}

/** The environment variable that stands for `--allow-project` (CI). */
const ALLOW_PROJECT_ENV = 'ZUT_ALLOW_PROJECT';

/** Whether this run may start the project's own extensions: `--allow-project`, or `$ZUT_ALLOW_PROJECT` = 1/true. */
export function allowProject(values: { 'allow-project'?: boolean }): boolean {
  return values['allow-project'] === true || /^(1|true)$/i.test(process.env[ALLOW_PROJECT_ENV] ?? '');
}

/** A hook's or a warm host's options from its command line (they pick which warm host it is). */
export function warmOptionsOf(values: { 'allow-project'?: boolean; 'no-zot'?: boolean; 'no-e'?: boolean }): WarmOptions {
  return { allowProject: allowProject(values), noZot: !!values['no-zot'], noE: !!values['no-e'] };
}

/** The start lock beside a warm host's rendezvous file: taken by the hook that starts it, removed by the host. */
export const warmLock = (file: string): string => `${file}.lock`;

/** Whether hooks may start a warm host (`ZUT_HOOK_WARM=0`: no). */
export const warmEnabled = (): boolean => process.env.ZUT_HOOK_WARM !== '0';

/** The option words of a warm host (its key and its command line). */
function warmFlags(o: WarmOptions): string[] {
  return [...(o.allowProject ? ['--allow-project'] : []), ...(o.noZot ? ['--no-zot'] : []), ...(o.noE ? ['--no-e'] : [])];
}

/** The rendezvous file of the warm host for `folder` with `o`. */
export function warmRendezvous(folder: string, o: WarmOptions, dir = hooksDir()): string {
  return warmFile(dir, folder, warmFlags(o));
}

/**
 * Starts the warm host for `folder` with `o` (running `cli`, dist/cli.js), detached, unless one is starting already
 * (the lock), and returns at once: the hook answers this call itself, and the host starts its extensions once the
 * hook (`after`, its pid) has exited — no two hosts compete for the machine — or at its first call, whichever is first.
 * False when it could not be started (no private directory, the lock held by another start).
 */
export function launchWarmHost(cli: string, folder: string, o: WarmOptions, after: number): boolean {
  const dir = hooksDir();
  if (ensurePrivateDir(dir)) return false;
  const lock = warmLock(warmRendezvous(folder, o, dir));
  if (!takeLock(lock)) return false;
  const p = spawn(process.execPath, [cli, 'hook', 'host', '--cwd', folder, ...warmFlags(o), '--after-pid', String(after)], { cwd: folder, detached: true, stdio: 'ignore', windowsHide: true });
  p.on('error', () => fs.rmSync(lock, { force: true }));
  p.unref();
  return true;
}
/** Creates the start lock exclusively; one older than HOOK_HOST_START_MS (its starter died) is taken over. */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch {
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // gone meanwhile: try again
      }
      if (age < HOOK_HOST_START_MS) return false;
      fs.rmSync(lock, { force: true });
    }
  }
  return false;
}
