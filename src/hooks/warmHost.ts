/**
 * The warm headless host, from the hook's side: with no window for its folder, a hook starts one host per project
 * folder (projectFolder.ts) and extension set (`zut-host hook host`, detached; src/cli/hookHost.ts) that keeps the
 * extensions running between calls and answers over the same local socket as a window, then exits when idle. Here:
 * what keys it, and starting it — once (an exclusive lock file beside its rendezvous; a start older than
 * HOOK_HOST_START_MS is stale) — while the hook that found none answers by itself. `ZUT_HOOK_WARM=0` turns it off
 * (each call then runs its own host). The key is everything that decides which extensions run: the folder, the
 * options (`--allow-project`, `--no-zot`, `--no-e`, each `--ext`) and the extension homes resolved from the
 * environment (`$ZUT_HOME`, `$ZOT_HOME`, `$XDG_STATE_HOME`, `$HOME` for e's `~/.e`, `%LOCALAPPDATA%`): a host answers
 * only callers that would have run the same extensions, so one agent's guards never judge another's calls. The host
 * is started with the homes the hook resolved (absolute), so it computes the same key.
 * Light: the entry an agent runs per tool call (src/hook.ts) uses it. VS Code-free.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import { HOOK_HOST_START_MS } from '../protocol/limits';
import { ensurePrivateDir, hooksDir, warmFile } from './rendezvous';

/** The hook's options that change which extensions run (with the homes, extensionHomes: what keys a warm host). */
export interface WarmOptions {
  allowProject: boolean;
  noZot: boolean;
  noE: boolean;
  /** `--ext` paths, absolute, in their order (it is their priority). */
  ext: string[];
}

/** The extension homes a hook's host loads global extensions from, absolute; zot's and e's only when loaded. */
export interface ExtensionHomes {
  zut: string;
  zot?: string;
  e?: string;
}

/** The environment variable that stands for `--allow-project` (CI). */
const ALLOW_PROJECT_ENV = 'ZUT_ALLOW_PROJECT';

/** Whether this run may start the project's own extensions: `--allow-project`, or `$ZUT_ALLOW_PROJECT` = 1/true. */
export function allowProject(values: { 'allow-project'?: boolean }): boolean {
  return values['allow-project'] === true || /^(1|true)$/i.test(process.env[ALLOW_PROJECT_ENV] ?? '');
}

/** A hook's or a warm host's options from its command line (they pick which warm host it is). */
export function warmOptionsOf(values: { 'allow-project'?: boolean; 'no-zot'?: boolean; 'no-e'?: boolean; ext?: string[] }): WarmOptions {
  return { allowProject: allowProject(values), noZot: !!values['no-zot'], noE: !!values['no-e'], ext: (values.ext ?? []).map((d) => path.resolve(d)) };
}

/** The homes a host with `o` loads global extensions from, as this process's environment names them (paths.ts). */
export function extensionHomes(o: WarmOptions): ExtensionHomes {
  return {
    zut: path.resolve(resolveZutHome()),
    ...(!o.noZot && { zot: path.resolve(resolveZotHome()) }),
    ...(!o.noE && { e: path.resolve(resolveEHome()) }),
  };
}

/** The start lock beside a warm host's rendezvous file: taken by the hook that starts it, removed by the host. */
export const warmLock = (file: string): string => `${file}.lock`;

/** Whether hooks may start a warm host (`ZUT_HOOK_WARM=0`: no). */
export const warmEnabled = (): boolean => process.env.ZUT_HOOK_WARM !== '0';

/** The option words of a warm host (its command line; with the homes and `--ext`s, its key). */
function warmFlags(o: WarmOptions): string[] {
  return [...(o.allowProject ? ['--allow-project'] : []), ...(o.noZot ? ['--no-zot'] : []), ...(o.noE ? ['--no-e'] : [])];
}

/**
 * The rendezvous file of the warm host for `folder` with `o` and this environment's homes. Its key: the flags and one
 * word naming the homes and the `--ext` paths in order (JSON: no two sets spell alike).
 */
export function warmRendezvous(folder: string, o: WarmOptions, dir = hooksDir()): string {
  return warmFile(dir, folder, [...warmFlags(o), `homes:${JSON.stringify({ homes: extensionHomes(o), ext: o.ext })}`]);
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
  const homes = extensionHomes(o);
  // The homes as resolved here (absolute: the host runs in `folder`), so the host keys itself as this hook did.
  const env = { ...process.env, ZUT_HOME: homes.zut, ...(homes.zot !== undefined && { ZOT_HOME: homes.zot }) };
  const args = [cli, 'hook', 'host', '--cwd', folder, ...warmFlags(o), ...o.ext.flatMap((e) => ['--ext', e]), '--after-pid', String(after)];
  const p = spawn(process.execPath, args, { cwd: folder, env, detached: true, stdio: 'ignore', windowsHide: true });
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
