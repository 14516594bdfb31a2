#!/usr/bin/env node
// Builds the extension and packages it as a .vsix with @vscode/vsce.
// CLI: `node scripts/package.mjs [--dev] [-o out.vsix]` → zut-vscode-<version>.vsix in the repo root by default
// (`--dev` keeps the non-minified build with source maps). Install with `code --install-extension <file>`.
// API: `buildExtension()`, `packageVsix({ out, production })`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanNpmEnv } from './npmEnv.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The extension's package.json. */
export function extensionManifest() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

/** `npm run build` (plus `-- --production` for a release build). */
export function buildExtension({ production = false } = {}) {
  const args = ['run', '--silent', 'build', ...(production ? ['--', '--production'] : [])];
  execFileSync('npm', args, { cwd: ROOT, env: cleanNpmEnv(), stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Builds and packages the extension; returns the absolute path of the .vsix.
 * The dependencies are bundled by esbuild, so vsce packages without node_modules (`--no-dependencies`);
 * .vscodeignore is an allow-list that keeps test/ out (a vsix with the test folder silently fails to register commands).
 */
export function packageVsix({ out, production = true } = {}) {
  const { name, version } = extensionManifest();
  const vsix = path.resolve(out ?? path.join(ROOT, `${name}-${version}.vsix`));
  buildExtension({ production });
  fs.mkdirSync(path.dirname(vsix), { recursive: true });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  try {
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (e) {
    throw new Error(`vsce package failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  return vsix;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { dev: { type: 'boolean', default: false }, out: { type: 'string', short: 'o' } } });
  try {
    const vsix = packageVsix({ out: values.out, production: !values.dev });
    console.log(vsix);
    const rel = path.relative(process.cwd(), vsix);
    console.log(`install it with: code --install-extension ${rel.startsWith('..') ? vsix : rel}`);
  } catch (e) {
    console.error(String(e.message ?? e));
    process.exit(1);
  }
}
