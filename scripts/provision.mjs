#!/usr/bin/env node
// Provisions the tools for running the extension inside a real VS Code: code-server (default 4.139.1 = VS Code
// 1.139.1; another with ZUT_CODE_SERVER_VERSION or `provision({ codeServerVersion })`, each in its own folder
// `code-server-<version>`) and the Node its package.json's `engines.node` asks for (Node 24 for 4.139.1, Node 22 for
// 4.104.0: the binary shipped in the npm package `node@<major>`, in `node<major>`), both from the npm registry, into a
// cache OUTSIDE the clone (CI clones afresh each run). Default ~/.cache/zut-vscode-tools, override with ZUT_VSCODE_TOOLS.
//
// Each tool is installed into `<name>.partial` and renamed into place only after its version check passed,
// under a lock directory, so a half-installed cache is never mistaken for a good one.
//
// Missing Debian packages (code-server's native modules; chromium and Go only for the tests: the unit suite's
// `ext install --build=go` tests build with Go, and vitest's global setup ensures it) are installed with apt-get when
// running as root with apt-get available (`apt-get update` once, then `apt-get install -y`, non-interactive); otherwise
// the exact apt-get line is printed. Every npm runs with an environment free of the outer `npm run`'s variables
// (scripts/npmEnv.mjs): a leaked `npm_config_user_agent` claiming Node 20 makes code-server's postinstall refuse Node 24.
//
// CLI: `node scripts/provision.mjs [--no-browser] [--code-server VERSION]` prints {tools, node, nodeBinDir, nodedir,
// nodeMajor, codeServer, codeServerVersion, vscodeVersion, chromium} as JSON.
// API: `import { provision } from './provision.mjs'` → the same object.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanNpmEnv } from './npmEnv.mjs';
import { ripgrepSeed } from './ripgrepSeed.mjs';

/** The Node of the default code-server, and the one the unit tests call "the provisioned Node 24". */
export const NODE_MAJOR = '24';
/** The default code-server (VS Code 1.139.1); ZUT_CODE_SERVER_VERSION chooses another (e.g. 4.104.0: VS Code 1.104.0). */
export const CODE_SERVER_VERSION = '4.139.1';
/** Debian packages code-server's native modules build against. */
export const BUILD_PACKAGES = ['libkrb5-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config', 'libx11-dev'];
/** The browser Playwright drives (tests only; `npm start` needs none). */
export const BROWSER_PACKAGES = ['chromium'];
/** What the unit tests need besides Node: Go (`zut-host ext install --build=go` really builds; Debian's 1.19 will do). */
export const UNIT_TEST_PACKAGES = ['golang-go'];
export const DEBIAN_PACKAGES = [...BUILD_PACKAGES, ...BROWSER_PACKAGES, ...UNIT_TEST_PACKAGES];
export const CHROMIUM = '/usr/bin/chromium';
/** Lines of a failed command's output quoted in the error. */
const ERROR_TAIL_LINES = 25;

// npm 11 blocks dependency install scripts unless listed here; code-server builds native modules in postinstall.
const CODE_SERVER_ALLOW_SCRIPTS = {
  'code-server': true, argon2: true, '@vscode/spdlog': true, 'node-pty': true, '@parcel/watcher': true,
  kerberos: true, 'native-watchdog': true, '@vscode/native-watchdog': true, '@vscode/sqlite3': true,
  '@vscode/windows-registry': true, 'native-keymap': true,
};

/** The code-server version asked for: `v`, else ZUT_CODE_SERVER_VERSION, else CODE_SERVER_VERSION (an exact x.y.z). */
export function codeServerVersion(v = process.env.ZUT_CODE_SERVER_VERSION) {
  const version = v || CODE_SERVER_VERSION;
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`code-server version must be x.y.z as on the npm registry (npm view code-server versions), not "${version}"`);
  return version;
}

const readJson = (file) => { try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; } };
const majorOf = (range) => /(\d+)/.exec(String(range ?? ''))?.[1];

/**
 * The Node major code-server `version` runs on (its postinstall refuses any other): `engines.node` of the installed
 * package in `csDir`, else of the registry's (`npm view`, only when it is not installed yet).
 */
function nodeMajorFor(version, csDir) {
  const installed = majorOf(readJson(path.join(csDir, 'node_modules', 'code-server', 'package.json'))?.engines?.node);
  if (installed) return installed;
  const r = spawnSync('npm', ['view', `code-server@${version}`, 'engines.node', '--json'], { encoding: 'utf8', env: npmInstallEnv(), timeout: 120_000 });
  const major = r.status === 0 ? majorOf(r.stdout) : undefined;
  if (!major) throw new Error(`npm view code-server@${version} engines.node failed (status ${r.status}): ${(r.stderr || r.stdout || '').trim().slice(-500)}`);
  return major;
}

/** The VS Code version shipped in the code-server installed in `csDir` (lib/vscode/package.json). */
function vscodeVersionIn(csDir) {
  return readJson(path.join(csDir, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'))?.version;
}

const log = (msg) => process.stderr.write(`[provision] ${msg}\n`);

/** The cache directory (ZUT_VSCODE_TOOLS or ~/.cache/zut-vscode-tools). */
export function toolsDir() {
  return path.resolve(process.env.ZUT_VSCODE_TOOLS || path.join(os.homedir(), '.cache', 'zut-vscode-tools'));
}

/** Packages of `wanted` (default DEBIAN_PACKAGES) that dpkg does not report as installed. */
export function missingDebianPackages(wanted = DEBIAN_PACKAGES) {
  return wanted.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !/install ok installed/.test(r.stdout);
  });
}

function nodePaths(dir) {
  // node@24's install script puts the platform package under node/node_modules; npm may also hoist it.
  for (const base of [path.join(dir, 'node_modules', 'node', 'node_modules'), path.join(dir, 'node_modules')]) {
    const pkg = path.join(base, `node-linux-${process.arch}`);
    if (fs.existsSync(path.join(pkg, 'bin', 'node'))) return { nodedir: pkg, nodeBinDir: path.join(pkg, 'bin'), node: path.join(pkg, 'bin', 'node') };
  }
  return undefined;
}

function versionOf(cmd, args, env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, timeout: 120_000 });
  if (r.status !== 0) {
    if (fs.existsSync(cmd)) log(`${cmd} ${args.join(' ')} failed (status ${r.status}, ${r.error ?? r.signal ?? ''}): ${(r.stderr ?? '').trim().slice(-500)}`);
    return '';
  }
  // The version is the first line that looks like one (code-server may log warnings first).
  return r.stdout.split('\n').map((l) => l.trim()).find((l) => /^v?\d+\.\d+\.\d+/.test(l)) ?? '';
}

function checkNode(dir, major) {
  const p = nodePaths(dir);
  return p && versionOf(p.node, ['--version']).startsWith(`v${major}.`) ? p : undefined;
}

/** The provisioned Node `major`'s paths when it is already installed in the cache (installs nothing), else undefined. */
export function installedNode(major = NODE_MAJOR) {
  return checkNode(path.join(toolsDir(), `node${major}`), major);
}

function codeServerBin(dir) { return path.join(dir, 'node_modules', '.bin', 'code-server'); }

function checkCodeServer(dir, nodeBinDir, version) {
  const bin = codeServerBin(dir);
  if (!fs.existsSync(bin)) return undefined;
  return versionOf(bin, ['--version'], npmInstallEnv(nodeBinDir)).split(/\s/)[0] === version ? bin : undefined;
}

/** Runs `cmd args` with its output echoed to stderr; on failure throws an error naming `step`, the command and its last lines. */
function run(step, cmd, args, opts = {}) {
  const line = [cmd, ...args].join(' ');
  log(`${step}: ${line}${opts.cwd ? ` (in ${opts.cwd})` : ''}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk) => {
      process.stderr.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-16_384);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => reject(new Error(`${step} failed: ${line}: ${e.message}`)));
    child.on('close', (code, sig) => {
      if (code === 0) return resolve();
      const last = tail.trimEnd().split('\n').slice(-ERROR_TAIL_LINES).join('\n');
      reject(new Error(`${step} failed (${sig ? `signal ${sig}` : `exit ${code}`}): ${line}${opts.cwd ? `\n  in ${opts.cwd}` : ''}\n--- last lines of its output ---\n${last}`));
    });
  });
}

/** `npm install spec` in `cwd`, with an environment clean of the outer npm's variables and `nodeBinDir` first on PATH. */
export function npmInstallEnv(nodeBinDir, extra = {}) {
  return cleanNpmEnv({ prependPath: nodeBinDir ? [nodeBinDir] : [], extra });
}

function npmInstall(step, cwd, spec, env) {
  return run(step, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], { cwd, env });
}

/** Whether this process may install Debian packages itself (root, apt-get on PATH). */
function canApt() {
  return process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Ensures the Debian packages `wanted` are installed (as root with apt-get: installed now; otherwise throws with the
 * exact apt-get line, `err.aptLine`). The unit suite's global setup calls it with UNIT_TEST_PACKAGES.
 */
export async function ensureDebianPackages(wanted) {
  const missing = missingDebianPackages(wanted);
  if (missing.length) await installDebianPackages(missing);
}

/** Installs `missing` with apt-get when possible; otherwise throws with the exact apt-get line. */
async function installDebianPackages(missing) {
  const aptLine = `apt-get install -y ${missing.join(' ')}`;
  if (!canApt()) {
    const err = new Error(`missing Debian packages: ${missing.join(' ')}\n${aptLine}`);
    err.aptLine = aptLine;
    throw err;
  }
  log(`installing missing Debian packages as root: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get update', 'apt-get', ['update'], { env });
  await run('apt-get install', 'apt-get', ['install', '-y', ...missing], { env });
  const still = missingDebianPackages(missing);
  if (still.length) throw new Error(`apt-get install finished but these packages are still missing: ${still.join(' ')}`);
}

/** Installs into `<final>.partial`, checks it, then renames it into place (atomic on one filesystem). */
async function installAtomically(final, install, check) {
  const partial = `${final}.partial`;   // only one installer at a time (withLock)
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  await install(partial);   // a failed install stays in `partial` for inspection; the next attempt removes it
  let ok = check(partial);
  for (let i = 0; !ok && i < 2; i++) {   // a first start on a busy machine can be slow; the failure was logged
    log(`version check of ${partial} failed; retrying`);
    ok = check(partial);
  }
  if (!ok) throw new Error(`version check failed after installing into ${partial}`);
  fs.rmSync(final, { recursive: true, force: true });
  fs.renameSync(partial, final);
}

function pidAlive(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

/** A lock directory (mkdir is atomic); a lock whose owner died is taken over. */
async function withLock(tools, fn) {
  const lock = path.join(tools, '.lock');
  for (let i = 0; ; i++) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let owner = NaN;
      try { owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')); } catch { /* being created */ }
      if (Number.isInteger(owner) && !pidAlive(owner)) { fs.rmSync(lock, { recursive: true, force: true }); continue; }
      if (i % 30 === 0) log(`waiting for ${lock} (held by pid ${owner})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try { return await fn(); } finally { fs.rmSync(lock, { recursive: true, force: true }); }
}

/**
 * Ensures code-server (`codeServerVersion`, default ZUT_CODE_SERVER_VERSION or CODE_SERVER_VERSION) and the Node it
 * runs on are installed in the cache and returns their paths. Missing Debian packages are installed when running as
 * root with apt-get; otherwise it throws with the exact apt-get line (`err.aptLine`).
 * @param {{ browser?: boolean, codeServerVersion?: string }} [o] browser (default true): also require chromium and Go
 *   (the tests need them; `npm start` not)
 */
export async function provision({ browser = true, codeServerVersion: asked } = {}) {
  const tools = toolsDir();
  const version = codeServerVersion(asked);
  const csDir = path.join(tools, `code-server-${version}`);
  const nodeMajor = nodeMajorFor(version, csDir);
  const nodeDir = path.join(tools, `node${nodeMajor}`);
  const missing = missingDebianPackages(browser ? DEBIAN_PACKAGES : BUILD_PACKAGES);
  const testPackages = [...BROWSER_PACKAGES, ...UNIT_TEST_PACKAGES];
  let node = checkNode(nodeDir, nodeMajor);
  let codeServer = node && checkCodeServer(csDir, node.nodeBinDir, version);
  // Build packages matter only for a code-server install; the test packages always matter when asked for.
  const needed = codeServer ? missing.filter((p) => testPackages.includes(p)) : missing;
  if (needed.length) await installDebianPackages(needed);
  if (!codeServer) {
    fs.mkdirSync(tools, { recursive: true });
    await withLock(tools, async () => {
      node = checkNode(nodeDir, nodeMajor);   // another process may have finished meanwhile
      if (!node) {
        await installAtomically(nodeDir, async (dir) => {
          fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `node${nodeMajor}`, private: true, allowScripts: { node: true } }));
          await npmInstall(`installing Node ${nodeMajor}`, dir, `node@${nodeMajor}`, npmInstallEnv());
        }, (dir) => checkNode(dir, nodeMajor));
        node = checkNode(nodeDir, nodeMajor);
      }
      codeServer = checkCodeServer(csDir, node.nodeBinDir, version);
      if (!codeServer) {
        // For older code-server (4.104.0): its postinstall refuses to run as root without unsafe-perm (npm 7+ ignores
        // the setting), and its node-pty's postinstall runs `npx node-gyp configure`, which npx cancels without `yes`.
        const env = npmInstallEnv(node.nodeBinDir, { npm_config_nodedir: node.nodedir, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' });
        await installAtomically(csDir, async (dir) => {
          fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'code-server-tools', private: true, allowScripts: CODE_SERVER_ALLOW_SCRIPTS }, null, 1));
          const seed = path.join(dir, '.ripgrep-seed');   // see ripgrepSeed.mjs; removed once installed
          log(`code-server ${version}: checking whether its ripgrep needs a seeded download cache`);
          const seedEnv = ripgrepSeed(version, seed, env);
          await npmInstall(`installing code-server ${version}`, dir, `code-server@${version}`, { ...env, ...seedEnv });
          fs.rmSync(seed, { recursive: true, force: true });
        }, (dir) => checkCodeServer(dir, node.nodeBinDir, version));
        codeServer = checkCodeServer(csDir, node.nodeBinDir, version);
        if (!codeServer) throw new Error(`code-server in ${csDir} fails its version check after the move`);
      }
    });
  }
  return { tools, node: node.node, nodeBinDir: node.nodeBinDir, nodedir: node.nodedir, nodeMajor, codeServer,
    codeServerVersion: version, vscodeVersion: vscodeVersionIn(csDir), chromium: CHROMIUM };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    const { values } = parseArgs({ options: { 'no-browser': { type: 'boolean', default: false }, 'code-server': { type: 'string' } } });
    console.log(JSON.stringify(await provision({ browser: !values['no-browser'], codeServerVersion: values['code-server'] }), null, 2));
  } catch (e) {
    if (e.aptLine) { console.error(`[provision] missing Debian packages; run as root:`); console.log(e.aptLine); }
    else console.error(`[provision] ${e.stack || e}`);
    process.exit(1);
  }
}
