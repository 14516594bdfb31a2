// Lets an older code-server install without GitHub. Older code-server (4.104.0 among them) builds its VS Code with `@vscode/ripgrep`,
// whose postinstall downloads rg from GitHub's API (api.github.com: not the npm registry, unreachable on machines that
// only reach the registry), and the install fails. Its downloader first looks for the asset in
// `<os.tmpdir()>/vscode-ripgrep-cache-<its version>/ripgrep-<rg release>-<target>.tar.gz`: ripgrepSeed() puts it there,
// in a private TMPDIR for the install, made from the rg binary of `@vscode/ripgrep-universal` (Microsoft's one
// package with rg for every platform, the one newer VS Code ships, from the npm registry). A code-server without
// `@vscode/ripgrep` (4.139.1 has the universal package) needs nothing: ripgrepSeed() returns no variables.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The rg binaries: the version code-server 4.139.1 (VS Code 1.139.1) ships (rg 15.0.0). */
export const RIPGREP_UNIVERSAL = '@vscode/ripgrep-universal@1.18.0';
/** `@vscode/ripgrep`'s postinstall target names for Linux (lib/postinstall.js getTarget). */
const LINUX_TARGETS = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };
/** npm pack of a 45 MB code-server tarball on a slow line (it lands in npm's cache: the install reuses it). */
const PACK_TIMEOUT_MS = 600_000;

/** `npm pack spec` into `dir`, unpacked there (only `members` when given); returns the unpacked `package/` dir. */
function unpack(spec, dir, env, members = []) {
  fs.mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', dir, '--loglevel=error'],
    { cwd: dir, env, encoding: 'utf8', timeout: PACK_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  const tgz = path.join(dir, JSON.parse(out)[0].filename);
  execFileSync('tar', ['xzf', tgz, '-C', dir, ...members.map((m) => `package/${m}`)], { stdio: 'ignore' });
  fs.rmSync(tgz);
  return path.join(dir, 'package');
}

/**
 * When code-server `version` needs it, seeds a ripgrep download cache under `workDir` and returns `{ TMPDIR }` for
 * the install's environment; otherwise `{}`. `env`: the environment npm runs with.
 * @param {string} version  @param {string} workDir  @param {Record<string, string>} env
 * @returns {Record<string, string>}
 */
export function ripgrepSeed(version, workDir, env) {
  const cs = unpack(`code-server@${version}`, path.join(workDir, 'code-server'), env, ['lib/vscode/npm-shrinkwrap.json']);
  const shrinkwrap = JSON.parse(fs.readFileSync(path.join(cs, 'lib', 'vscode', 'npm-shrinkwrap.json'), 'utf8'));
  const rgPackage = shrinkwrap.packages?.['node_modules/@vscode/ripgrep']?.version;
  if (!rgPackage) return {};
  const target = LINUX_TARGETS[process.arch];
  if (process.platform !== 'linux' || !target) throw new Error(`code-server ${version} downloads ripgrep from GitHub; a seed is made for Linux x64/arm64 only, not ${process.platform}-${process.arch}`);
  const postinstall = fs.readFileSync(path.join(unpack(`@vscode/ripgrep@${rgPackage}`, path.join(workDir, 'ripgrep'), env), 'lib', 'postinstall.js'), 'utf8');
  const release = /const VERSION = '([^']+)'/.exec(postinstall)?.[1];
  if (!release) throw new Error(`@vscode/ripgrep@${rgPackage}'s lib/postinstall.js names no VERSION: cannot seed its download cache`);
  const universal = unpack(RIPGREP_UNIVERSAL, path.join(workDir, 'ripgrep-universal'), env);
  const rgDir = path.join(universal, 'bin', `linux-${process.arch}`);
  execFileSync(path.join(rgDir, 'rg'), ['--version'], { stdio: 'ignore', timeout: 30_000 });   // it runs here
  const tmp = path.join(workDir, 'tmp');
  const cache = path.join(tmp, `vscode-ripgrep-cache-${rgPackage}`);
  fs.mkdirSync(cache, { recursive: true });
  execFileSync('tar', ['czf', path.join(cache, `ripgrep-${release}-${target}.tar.gz`), '-C', rgDir, 'rg'], { stdio: 'ignore' });
  return { TMPDIR: tmp };
}
