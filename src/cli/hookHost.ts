/**
 * `zut-host hook host`: the warm headless host agents' hooks use when no window is open on their folder (started
 * detached by the first such hook, which answers its own call: src/hooks/warmHost.ts; `--after-pid` names it). It serves one folder with one set of options (the
 * project's own extensions only when started with `--allow-project`, as every headless run) over the hooks' local
 * socket (src/hooks/server.ts), over the runtime's `hook` shell (src/runtime: the recipe, the watch of the extension
 * homes, the lifecycle), keeps its extensions running and restarts one whose files change (the fingerprint rules:
 * Manager.applyChanges), and exits — stopping them — after `--idle-timeout` seconds without a call
 * (HOOK_HOST_IDLE_MS; `$ZUT_HOOK_HOST_IDLE_SECONDS`), when its own dist/cli.js is replaced (an update), on SIGTERM or
 * on `zut-host hook host stop`. A watchdog (src/hooks/watchdog.ts) ends its extensions' process groups if it dies
 * without stopping them. `status` lists the warm hosts; `stop [--cwd DIR]` ends them (or the one of DIR) — each pid
 * confirmed first to be still the host that wrote its rendezvous (client.ts hostState): a SIGKILLed host's file whose
 * pid another process has since taken is removed, never listed nor signalled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NullHostUi } from '../host/hostUi';
import { HOOK_BUDGET_MS, HOOK_HOST_CHECK_MS, HOOK_HOST_IDLE_MS, HOOK_HOST_STOP_WAIT_MS, HOOK_START_POLL_MS } from '../protocol/limits';
import { hostState, removeStale } from '../hooks/client';
import { HookServer } from '../hooks/server';
import { alive, ensurePrivateDir, guardMemoryFile, hooksDir, readRendezvous, realFolder, rendezvousNames, type Rendezvous } from '../hooks/rendezvous';
import { projectFolder } from '../hooks/projectFolder';
import { warmLock, warmOptionsOf, warmRendezvous, type WarmOptions } from '../hooks/warmHost';
import { startWatchdog } from '../hooks/watchdog';
import type { HostChoices } from '../runtime/recipe';
import { HostRuntime } from '../runtime/runtime';
import { EXIT, extensionPids, hostOptions, UsageError, write, type Parsed } from './common';

/** `zut-host hook host [status|stop]`. */
export async function hookHostCommand(p: Parsed): Promise<number> {
  const [, , verb, ...rest] = p.positionals;
  if (rest.length > 0) throw new UsageError('hook host takes at most one verb: status or stop');
  if (verb === 'status') return status(p);
  if (verb === 'stop') return stop(p);
  if (verb !== undefined) throw new UsageError(`hook host: unknown verb "${verb}" (status, stop)`);
  return serve(p);
}

/**
 * The warm hosts whose rendezvous files are in the hooks directory: those whose pid is still their host (hostState);
 * stale files are removed, and one that could not be confirmed is left out and left alone.
 */
export async function warmHosts(dir = hooksDir()): Promise<{ file: string; r: Rendezvous }[]> {
  const found = await Promise.all(
    rendezvousNames(dir, 'h').map(async (n) => {
      const file = path.join(dir, n);
      const r = readRendezvous(file);
      if (!r) return [];
      const state = await hostState(r);
      if (state === 'stale') removeStale(file, r);
      return state === 'ours' ? [{ file, r }] : [];
    }),
  );
  return found.flat();
}

async function status(p: Parsed): Promise<number> {
  const hosts = await warmHosts();
  if (p.values.json) await write(process.stdout, JSON.stringify(hosts.map(({ r }) => ({ pid: r.pid, folder: r.folder }))) + '\n');
  else if (hosts.length === 0) await write(process.stdout, 'No warm hook host is running.\n');
  else for (const { r } of hosts) await write(process.stdout, `warm hook host: pid ${r.pid} for ${r.folder}\n`);
  return EXIT.ok;
}

async function stop(p: Parsed): Promise<number> {
  // The host of DIR's project (as a hook from DIR finds it: projectFolder.ts), e.g. `--cwd repo/src` stops repo's.
  const only = p.values.cwd !== undefined ? projectFolder(path.resolve(p.values.cwd), warmOptionsOf(p.values)) : undefined;
  const hosts = (await warmHosts()).filter(({ r }) => only === undefined || r.folder === only);
  for (const { r } of hosts) {
    try {
      process.kill(r.pid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
  // Each stops its extensions (shutdown → grace → SIGTERM → SIGKILL) before it exits: wait for that, bounded.
  await Promise.all(hosts.map(({ r }) => afterExit(r.pid, HOOK_HOST_STOP_WAIT_MS)));
  await write(process.stdout, hosts.length ? `Stopped ${hosts.length} warm hook host${hosts.length > 1 ? 's' : ''}.\n` : 'No warm hook host is running.\n');
  return EXIT.ok;
}

/** Seconds of `--idle-timeout`, else `$ZUT_HOOK_HOST_IDLE_SECONDS`, else HOOK_HOST_IDLE_MS. */
function idleMs(p: Parsed): number {
  const given = p.values['idle-timeout'] ?? process.env.ZUT_HOOK_HOST_IDLE_SECONDS;
  if (given === undefined) return HOOK_HOST_IDLE_MS;
  const s = Number(given);
  if (!Number.isFinite(s) || s <= 0) throw new UsageError('--idle-timeout must be a positive number of seconds');
  return s * 1000;
}

/**
 * The choices of both hook hosts, this warm one and a hook's own (hook.ts answerHere): `project`'s extensions listed,
 * spawned only when the call opted in, and the guard memory of the hooks directory `dir`.
 */
export function hookHostChoices(p: Parsed, project: string, o: WarmOptions, dir?: string): HostChoices {
  return { ...hostOptions(p), folders: [project], ui: new NullHostUi(), isTrusted: () => o.allowProject, guardMemoryFile: guardMemoryFile(dir) };
}

async function serve(p: Parsed): Promise<number> {
  const folder = realFolder(p.values.cwd ?? process.cwd());
  const options: WarmOptions = warmOptionsOf(p.values);
  const idle = idleMs(p);
  const dir = hooksDir();
  const why = ensurePrivateDir(dir);
  if (why) throw new Error(`hook host: ${why}`);
  const file = warmRendezvous(folder, options, dir);
  const runtime = new HostRuntime('hook', hookHostChoices(p, folder, options, dir));
  const watchdog = startWatchdog();
  runtime.own(runtime.manager.onDidChangeExtensions(() => watchdog.track(extensionPids(runtime.manager))));
  let ending: Promise<void> | undefined;
  let ended!: () => void;
  const finished = new Promise<void>((resolve) => (ended = resolve));
  // (`end`, below, runs only when the timer fires: after everything here is set up.)
  const idleTimer = setTimeout(() => void end(), idle);
  // Started by a hook that answers its own call (warmHost.ts launchWarmHost): its extensions start once that hook has
  // exited (not both at once on the machine), or at this host's first call, whichever is first; its extension homes
  // are watched from then on.
  const startExtensions = () => {
    void runtime.start().catch(() => undefined);
    runtime.watchHomes();
  };
  // Before each call: what changed in the extension homes is applied (and a home made anew watched again).
  const server = await HookServer.listen(runtime.manager, [folder], { dir, warmFile: file, onRequest: () => (idleTimer.refresh(), startExtensions(), runtime.checkChanges()) });
  fs.rmSync(warmLock(file), { force: true });
  if (typeof server === 'string') throw new Error(`hook host: ${server}`);

  const end = (): Promise<void> =>
    (ending ??= (async () => {
      server.dispose();
      clearTimeout(idleTimer);
      clearInterval(checks);
      await runtime.shutdown();
      watchdog.bye();
      ended();
    })());
  // An update replaces dist/cli.js: the next hook then starts the new version.
  const self = fs.realpathSync(process.argv[1]);
  const was = stamp(self);
  const checks = setInterval(() => {
    if (stamp(self) !== was) void end();
    runtime.checkChanges();
  }, HOOK_HOST_CHECK_MS);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => void end());
  await afterExit(afterPid(p), HOOK_BUDGET_MS);
  startExtensions();
  await finished;
  return EXIT.ok;
}

/** A file's identity and version (inode, size, time), or `gone`. */
function stamp(f: string): string {
  try {
    const st = fs.statSync(f);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

/** `--after-pid N`: the hook that started this host. */
function afterPid(p: Parsed): number | undefined {
  const v = p.values['after-pid'];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError('--after-pid must be a process id');
  return n;
}

/** Resolves once process `pid` has exited (polled), or after `ms` at most; at once without a pid. */
async function afterExit(pid: number | undefined, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (pid !== undefined && alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, HOOK_START_POLL_MS));
}
