#!/usr/bin/env node
// Provisions the tools for running the extension inside a real VS Code: Node 24 (the binary shipped in the npm
// package `node@24`) and code-server 4.139.1 (= VS Code 1.139.1), both from the npm registry, into a cache OUTSIDE
// the clone (CI clones afresh each run). Default ~/.cache/zut-vscode-tools, override with ZUT_VSCODE_TOOLS.
//
// Each tool is installed into `<name>.partial` and renamed into place only after its version check passed,
// under a lock directory, so a half-installed cache is never mistaken for a good one.
//
// CLI: `node scripts/provision.mjs` prints {tools, node, nodeBinDir, nodedir, codeServer, chromium} as JSON.
// API: `import { provision } from './provision.mjs'` → the same object.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_MAJOR = '24';
export const CODE_SERVER_VERSION = '4.139.1';
/** Debian packages code-server's native modules build against, plus the browser Playwright drives. */
export const DEBIAN_PACKAGES = ['libkrb5-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config', 'libx11-dev', 'chromium'];
export const CHROMIUM = '/usr/bin/chromium';

// npm 11 blocks dependency install scripts unless listed here; code-server builds native modules in postinstall.
const CODE_SERVER_ALLOW_SCRIPTS = {
  'code-server': true, argon2: true, '@vscode/spdlog': true, 'node-pty': true, '@parcel/watcher': true,
  kerberos: true, 'native-watchdog': true, '@vscode/native-watchdog': true, '@vscode/sqlite3': true,
  '@vscode/windows-registry': true, 'native-keymap': true,
};

const log = (msg) => process.stderr.write(`[provision] ${msg}\n`);

/** The cache directory (ZUT_VSCODE_TOOLS or ~/.cache/zut-vscode-tools). */
export function toolsDir() {
  return path.resolve(process.env.ZUT_VSCODE_TOOLS || path.join(os.homedir(), '.cache', 'zut-vscode-tools'));
}

/** Debian packages from DEBIAN_PACKAGES that dpkg does not report as installed. */
export function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((p) => {
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

function checkNode(dir) {
  const p = nodePaths(dir);
  return p && versionOf(p.node, ['--version']).startsWith(`v${NODE_MAJOR}.`) ? p : undefined;
}

function codeServerBin(dir) { return path.join(dir, 'node_modules', '.bin', 'code-server'); }

function checkCodeServer(dir, nodeBinDir) {
  const bin = codeServerBin(dir);
  if (!fs.existsSync(bin)) return undefined;
  const env = { ...process.env, PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH}` };
  return versionOf(bin, ['--version'], env).startsWith(CODE_SERVER_VERSION) ? bin : undefined;
}

function npmInstall(cwd, spec, env) {
  log(`npm install ${spec} in ${cwd}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], { cwd, env, stdio: ['ignore', process.stderr, process.stderr] });
}

/** Installs into `<final>.partial`, checks it, then renames it into place (atomic on one filesystem). */
function installAtomically(final, install, check) {
  const partial = `${final}.partial`;   // only one installer at a time (withLock)
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  install(partial);   // a failed install stays in `partial` for inspection; the next attempt removes it
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
 * Ensures Node 24 and code-server are installed in the cache and returns their paths.
 * Throws (with the exact apt-get line) when Debian packages are missing.
 */
export async function provision() {
  const tools = toolsDir();
  const nodeDir = path.join(tools, `node${NODE_MAJOR}`);
  const csDir = path.join(tools, `code-server-${CODE_SERVER_VERSION}`);
  let node = checkNode(nodeDir);
  let codeServer = node && checkCodeServer(csDir, node.nodeBinDir);
  if (!codeServer) {
    const missing = missingDebianPackages();
    if (missing.length) {
      const err = new Error(`missing Debian packages: ${missing.join(' ')}\napt-get install -y ${missing.join(' ')}`);
      err.aptLine = `apt-get install -y ${missing.join(' ')}`;
      throw err;
    }
    fs.mkdirSync(tools, { recursive: true });
    await withLock(tools, async () => {
      node = checkNode(nodeDir);   // another process may have finished meanwhile
      if (!node) {
        installAtomically(nodeDir, (dir) => {
          fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'node24', private: true, allowScripts: { node: true } }));
          npmInstall(dir, `node@${NODE_MAJOR}`, process.env);
        }, checkNode);
        node = checkNode(nodeDir);
      }
      codeServer = checkCodeServer(csDir, node.nodeBinDir);
      if (!codeServer) {
        const env = { ...process.env, PATH: `${node.nodeBinDir}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: node.nodedir };
        installAtomically(csDir, (dir) => {
          fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'code-server-tools', private: true, allowScripts: CODE_SERVER_ALLOW_SCRIPTS }, null, 1));
          npmInstall(dir, `code-server@${CODE_SERVER_VERSION}`, env);
        }, (dir) => checkCodeServer(dir, node.nodeBinDir));
        codeServer = checkCodeServer(csDir, node.nodeBinDir);
        if (!codeServer) throw new Error(`code-server in ${csDir} fails its version check after the move`);
      }
    });
  }
  return { tools, node: node.node, nodeBinDir: node.nodeBinDir, nodedir: node.nodedir, codeServer, codeServerVersion: CODE_SERVER_VERSION, chromium: CHROMIUM };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    console.log(JSON.stringify(await provision(), null, 2));
  } catch (e) {
    if (e.aptLine) { console.error(`[provision] missing Debian packages; run as root:`); console.log(e.aptLine); }
    else console.error(`[provision] ${e.stack || e}`);
    process.exit(1);
  }
}
