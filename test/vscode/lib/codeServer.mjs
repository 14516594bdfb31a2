// @ts-check
// Starting and stopping code-server (the provisioned one: VS Code 1.139.1 by default; web workbench + real Node
// extension host) for tests and `npm start`. Every server runs with private user-data/extensions/XDG dirs and is
// killed as a whole process tree.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanNpmEnv } from '../../../scripts/npmEnv.mjs';

/** Settings that keep the workbench quiet and deterministic (no welcome page, tips, updates, telemetry). */
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

/**
 * Settings of the test rigs (in-host and UI): project extensions start without the consent prompt, as the suites
 * written before consent assume; the consent tests set "ask" themselves (a test passes `settings` to override).
 */
export const TEST_SETTINGS = { 'zut.projectExtensions.consent': 'trustedWorkspace' };

/** Settings for a server without Workspace Trust (trust: true) or with it enabled and no startup prompt. */
export function trustSettings(trust) {
  return trust
    ? { 'security.workspace.trust.enabled': false }
    : { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false };
}

/** A free TCP port on `host`. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, host, () => { const { port } = /** @type {import('node:net').AddressInfo} */ (s.address()); s.close(() => resolve(port)); });
  });
}

/** Whether `port` can be bound on `host`. */
export function portFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** All descendants of `pid` (children first-level, then theirs), via `pgrep -P`. */
export function descendants(pid) {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  const kids = r.status === 0 ? r.stdout.split('\n').filter(Boolean).map(Number) : [];
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

function alive(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

function signal(pids, sig, group) {
  if (group) { try { process.kill(-group, sig); } catch { /* group gone */ } }
  for (const p of pids) { try { process.kill(p, sig); } catch { /* already gone */ } }
}

/** Synchronously SIGKILLs `pid`, its process group and all its descendants (for signal/exit handlers). */
export function killTreeSync(pid) {
  const all = [pid, ...descendants(pid)];
  signal(all, 'SIGKILL', pid);
  return all;
}

/** SIGTERM to the tree and its process group, then SIGKILL whatever is left after `graceMs`. */
export async function killTree(pid, graceMs = 2000) {
  const all = [pid, ...descendants(pid)];
  signal(all, 'SIGTERM', pid);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && all.some(alive)) await new Promise((r) => setTimeout(r, 100));
  const left = [...all, ...all.flatMap((p) => (alive(p) ? descendants(p) : []))].filter(alive);
  signal(left, 'SIGKILL', pid);
  return all;
}

const live = new Set();

/** SIGKILLs every server started by this process that is still running (for SIGINT/SIGTERM handlers). */
export function killAllServersSync() {
  for (const s of live) killTreeSync(s.pid);
  live.clear();
}

function serverEnv(tools, dirs, extra) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  // Inherited VS Code variables (e.g. when run from a VS Code terminal) would point code-server at another instance;
  // the outer `npm run`'s variables would reach every npm/npx an extension runs.
  for (const [k, v] of Object.entries(process.env)) if (!/^(VSCODE_|ELECTRON_RUN_AS_NODE)/.test(k)) env[k] = v;
  return {
    ...cleanNpmEnv({ base: env, prependPath: [tools.nodeBinDir] }),
    XDG_CONFIG_HOME: dirs.xdgConfig, XDG_DATA_HOME: dirs.xdgData, XDG_CACHE_HOME: dirs.xdgCache,
    ...extra,
  };
}

function makeDirs(dir) {
  const dirs = {
    dir, userDataDir: path.join(dir, 'user-data'), extensionsDir: path.join(dir, 'extensions'),
    xdgConfig: path.join(dir, 'xdg-config'), xdgData: path.join(dir, 'xdg-data'), xdgCache: path.join(dir, 'xdg-cache'),
    config: path.join(dir, 'config.yaml'), log: path.join(dir, 'code-server.log'),
  };
  for (const d of [dirs.userDataDir, dirs.extensionsDir, dirs.xdgConfig, dirs.xdgData, dirs.xdgCache]) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
  return dirs;
}

/** `code-server --install-extension <vsix>` into the server's private dirs. */
export function installVsix(tools, dirs, vsix, env = {}) {
  const r = spawnSync(tools.codeServer, ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir,
    '--install-extension', vsix, '--force'], { env: serverEnv(tools, dirs, env), encoding: 'utf8', timeout: 120_000 });
  fs.writeFileSync(path.join(dirs.dir, 'install-extension.log'), `${r.stdout ?? ''}${r.stderr ?? ''}`);
  if (r.status !== 0 || !/successfully installed/i.test(r.stdout ?? '')) {
    throw new Error(`code-server --install-extension ${vsix} failed (status ${r.status}):\n${r.stdout}${r.stderr}`);
  }
}

/**
 * The command starting code-server with `args` and the VS Code server flags `vscodeFlags`: `--vscode-option FLAG`
 * where code-server has that option (4.139.1), else through vscodeFlags.js (4.104.0 predates it).
 * @returns {[string, string[]]}
 */
export function serverCommand(tools, args, vscodeFlags) {
  if (!vscodeFlags.length) return [tools.codeServer, args];
  const entry = fs.realpathSync(tools.codeServer);   // node_modules/.bin/code-server → code-server/out/node/entry.js
  if (fs.readFileSync(path.join(path.dirname(entry), 'cli.js'), 'utf8').includes('"vscode-option"')) {
    return [tools.codeServer, [...args, ...vscodeFlags.flatMap((f) => ['--vscode-option', f])]];
  }
  return [tools.node, [path.join(path.dirname(fileURLToPath(import.meta.url)), 'vscodeFlags.js'), entry, ...vscodeFlags.map((f) => `--${f}`), ...args]];
}

/**
 * Starts code-server in `dir` (created) and resolves once GET /healthz answers.
 * @param {object} o
 * @param {object} o.tools        result of provision() (nodeBinDir, codeServer)
 * @param {string} o.dir          private directory of this server (user data, extensions, XDG dirs, logs)
 * @param {boolean} [o.trust]     true (default): Workspace Trust disabled; false: enabled, folders open restricted
 * @param {object} [o.settings]   user settings merged over QUIET_SETTINGS
 * @param {object} [o.env]        extra environment of code-server and its extension host
 * @param {string} [o.vsix]       a .vsix to install first
 * @param {number} [o.port]       default: a free port
 * @param {string} [o.host]       default: 127.0.0.1
 * @param {boolean} [o.smokeTestDriver] default true: `window.driver` and the `payload` URL parameter
 * @returns {Promise<{port:number,url:string,pid:number,dir:string,userDataDir:string,extensionsDir:string,logsDir:string,log:string,
 *   exited:Promise<{code:number|null,sig:string|null}>,stop:()=>Promise<void>}>}
 */
export async function startCodeServer(o) {
  const { tools, trust = true, settings = {}, env = {}, vsix, host = '127.0.0.1', smokeTestDriver = true } = o;
  const dirs = makeDirs(o.dir);
  fs.writeFileSync(path.join(dirs.userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...trustSettings(trust), ...settings }, null, 2));
  if (vsix) installVsix(tools, dirs, vsix, env);
  const port = o.port ?? await freePort(host);
  const args = ['--bind-addr', `${host}:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir, '--config', dirs.config,
    ...(trust ? ['--disable-workspace-trust'] : []),
    // ZUT_VSCODE_TRACE=1: the server and the browser's workbench log at trace (see harness.mjs saveBrowserLogs).
    ...(process.env.ZUT_VSCODE_TRACE ? ['--log', 'trace'] : [])];
  const [cmd, cmdArgs] = serverCommand(tools, args, smokeTestDriver ? ['enable-smoke-test-driver'] : []);
  const out = fs.openSync(dirs.log, 'a');
  // detached: its own process group, so the whole tree can be signalled even if a child gets re-parented.
  const child = spawn(cmd, cmdArgs, { env: serverEnv(tools, dirs, env), stdio: ['ignore', out, out], detached: true });
  fs.closeSync(out);
  let exited = null;
  const exit = new Promise((resolve) => child.on('exit', (code, sig) => { exited = { code, sig }; resolve(exited); }));
  const server = {
    port, url: `http://${host}:${port}/`, pid: child.pid, ...dirs, logsDir: path.join(dirs.userDataDir, 'logs'), exited: exit,
    async stop() { if (live.delete(server)) await killTree(child.pid); },
  };
  live.add(server);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) { live.delete(server); throw new Error(`code-server exited (${JSON.stringify(exited)}) before listening; see ${dirs.log}:\n${tail(dirs.log)}`); }
    const ok = await fetch(`http://${host}:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return server;
    if (Date.now() > deadline) { await server.stop(); throw new Error(`code-server did not answer /healthz within 60 s; see ${dirs.log}:\n${tail(dirs.log)}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function tail(file, n = 30) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n'); } catch { return ''; }
}

/** `ps` lines of processes whose command line mentions `needle` (e.g. a run dir), excluding this process. */
export function processesMentioning(needle) {
  const r = spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return (r.stdout ?? '').split('\n').filter((l) => l.includes(needle) && !/\bZ\b/.test(l.trim().split(/\s+/)[1] ?? '')
    && Number(l.trim().split(/\s+/)[0]) !== process.pid);
}

/** Kills every process whose command line mentions `needle`; returns the `ps` lines that were found. */
export function killProcessesMentioning(needle) {
  const found = processesMentioning(needle);
  for (const l of found) { try { process.kill(Number(l.trim().split(/\s+/)[0]), 'SIGKILL'); } catch { /* gone */ } }
  return found;
}

