// Packs `zut-host`, the headless host CLI alone, as an npm package: the bundled CLI (no dependencies, no VS Code
// parts), the light agent-hook entry (dist/hook.js) and beside them the SDK that `zut-host new --lang ts` copies
// (runtime, declarations, TypeScript transform).
//   node scripts/pack-cli.mjs [--out DIR]      → DIR/zut-host-<version>.tgz (default DIR: the repository root)
// Install it with `npm install -g ./zut-host-<version>.tgz` (or into a project), then `zut-host …` / `npx zut-host …`.
// API (for tests): `packCli({ outDir })` resolves with the tarball's path.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSdkRuntime, bundleTsTransform, ROOT, SDK_DIR, TS_TRANSFORM_FILE } from './sdk.mjs';

/** @param {{ outDir?: string }} [o] */
export async function packCli({ outDir = ROOT } = {}) {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-host-pack-'));
  try {
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'cli.ts')], outfile: path.join(stage, 'dist', 'cli.js'), bundle: true,
      platform: 'node', format: 'cjs', target: 'node20', minify: true, logLevel: 'warning', external: ['vscode'],
    });
    // The light agent-hook entry the installed hook commands run (src/hook.ts; it falls back to cli.js beside it).
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'hook.ts')], outfile: path.join(stage, 'dist', 'hook.js'), bundle: true,
      platform: 'node', format: 'cjs', target: 'node20', minify: true, logLevel: 'warning',
    });
    const sdk = path.join(stage, 'dist', 'sdk');
    await bundleSdkRuntime(path.join(sdk, 'index.js'));
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', SDK_DIR, '--outDir', sdk], { stdio: 'inherit' });
    await bundleTsTransform(path.join(sdk, TS_TRANSFORM_FILE));
    fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(stage, 'LICENSE'));
    fs.writeFileSync(path.join(stage, 'README.md'), [
      '# zut-host',
      '',
      'The headless host of zut extensions from zut-vscode: `doctor`, `command`, `tool`, `trace`, `new`, `ext` (list,',
      'install, remove, enable, disable, logs) and `mcp` (the extensions\' tools as an MCP server over stdio).',
      'Run `zut-host --help`. Documentation: the zut-vscode README ("Headless").',
      '',
    ].join('\n'));
    const pkg = {
      name: 'zut-host',
      version: root.version,
      description: 'Run zut, zot and e extensions headless: doctor, call commands and tools, manage them, serve them over MCP.',
      license: root.license,
      // The repository, issue tracker and home page are the extension's (package.json holds them once).
      homepage: root.homepage,
      repository: root.repository,
      bugs: root.bugs,
      bin: { 'zut-host': 'dist/cli.js' },
      files: ['dist'],
      engines: { node: '>=20' },
      keywords: ['zut', 'extensions', 'mcp', 'cli'],
    };
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
    fs.mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', path.resolve(outDir)], { cwd: stage, encoding: 'utf8' });
    return path.join(path.resolve(outDir), out.trim().split('\n').pop());
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const i = process.argv.indexOf('--out');
  const tarball = await packCli(i > 0 ? { outDir: process.argv[i + 1] } : {});
  console.log(tarball);
}
