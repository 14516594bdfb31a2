#!/usr/bin/env node
// Builds the TypeScript SDK (packages/sdk): frame types generated from the host's zod schemas, the runtime as
// one ESM file, its declarations. The generated frames.ts must match the committed one (drift fails the build;
// `node scripts/sdk.mjs --write` regenerates it). The build is copied to dist/sdk/ (what "Zut: New Extension…"
// and `zut-host new --lang ts` put into a new extension) and to the SDK example (examples/…/sdk-demo/sdk/).
// dist/sdk/ also gets the TypeScript transform a new TypeScript extension runs its .ts files through
// (TS_TRANSFORM_FILE: sucrase's `typescript` transform, one minified ES module with its licence).
// API: `sdkFrameTypes()`, `buildSdk({ write })`, `bundleTsTransform(outFile)`, `SDK_FILES`, `TS_TRANSFORM_FILE`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SDK_DIR = path.join(ROOT, 'packages', 'sdk');
const FRAMES_TS = path.join(SDK_DIR, 'src', 'frames.ts');
/** What a new TypeScript extension gets in its `sdk/` folder. */
export const SDK_FILES = ['index.js', 'index.d.ts', 'types.d.ts', 'frames.d.ts'];
/** The TypeScript transform a new TypeScript extension gets beside the SDK (in `sdk/`), built into dist/sdk. */
export const TS_TRANSFORM_FILE = 'sucrase.js';
/** Copies of the built SDK kept in the repository (checked for drift by test/unit/sdkTypes.test.ts). */
export const SDK_COPIES = [path.join(ROOT, 'examples', 'workspace', '.zut', 'extensions', 'sdk-demo', 'sdk')];

/** Imports a TypeScript module of this repository (bundled by esbuild into a temp file) at build time. */
export async function importTs(relPath) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-gen-')), 'gen.mjs');
  try {
    await esbuild.build({ entryPoints: [path.join(ROOT, relPath)], outfile: out, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
    return await import(pathToFileURL(out).href);
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

/** The generated text of packages/sdk/src/frames.ts. */
export async function sdkFrameTypes() {
  return (await importTs('src/protocol/typesGen.ts')).generateSdkFrameTypes();
}

/** Where the manifest's JSON Schema is written (package.json `jsonValidation` points at it). */
export const MANIFEST_SCHEMA_FILE = path.join(ROOT, 'dist', 'extension.schema.json');

/** Writes dist/extension.schema.json from the manifest's zod schema (src/host/disk/manifest.ts). */
export async function writeManifestSchema() {
  const schema = (await importTs('src/host/disk/manifest.ts')).manifestJsonSchema();
  fs.mkdirSync(path.dirname(MANIFEST_SCHEMA_FILE), { recursive: true });
  fs.writeFileSync(MANIFEST_SCHEMA_FILE, JSON.stringify(schema, null, 2) + '\n');
  return schema;
}

/** Bundles the runtime (no dependencies: node builtins only) into `outFile`. */
export async function bundleSdkRuntime(outFile) {
  await esbuild.build({
    entryPoints: [path.join(SDK_DIR, 'src', 'index.ts')], outfile: outFile, bundle: true, platform: 'node',
    format: 'esm', target: 'node20', logLevel: 'warning', legalComments: 'none',
    banner: { js: '// zut extension SDK (protocol v2), built from zut-vscode packages/sdk. Types: index.d.ts.' },
  });
}

/** The licence of the transform's only bundled package, kept at the top of the bundle (MIT asks for it). */
function sucraseBanner() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'sucrase', 'package.json'), 'utf8'));
  const license = fs.readFileSync(path.join(ROOT, 'node_modules', 'sucrase', 'LICENSE'), 'utf8').trim();
  return [
    `// TypeScript → JavaScript for zut extensions: the npm package sucrase ${pkg.version}, its \`typescript\` transform`,
    '// only, bundled by zut-vscode (scripts/tsTransform.entry.mjs). run.js loads .ts files through it; it checks no types.',
    '/*!',
    ` * sucrase ${pkg.version}, licence ${pkg.license}:`,
    ...license.split('\n').map((l) => ` * ${l}`.trimEnd()),
    ' */',
  ].join('\n');
}

/**
 * Bundles the TypeScript transform (sucrase's `typescript` transform, no dependencies at run time) into `outFile`:
 * one minified ES module exporting `transformTypeScript(code, filePath)`. Throws when it pulls in a package other
 * than sucrase (its licence would have to be carried too).
 */
export async function bundleTsTransform(outFile) {
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, 'scripts', 'tsTransform.entry.mjs')], outfile: outFile, bundle: true, platform: 'node',
    format: 'esm', target: 'node20', minify: true, logLevel: 'warning', legalComments: 'none', metafile: true,
    banner: { js: sucraseBanner() },
  });
  const packages = new Set(Object.keys(result.metafile.inputs).map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean));
  const others = [...packages].filter((p) => p !== 'sucrase');
  if (others.length > 0) throw new Error(`the TypeScript transform bundles ${others.join(', ')} besides sucrase: carry their licences too`);
}

/**
 * Checks (or with `write`, rewrites) the generated frame types, builds packages/sdk/dist, and copies it to
 * dist/sdk and the example. Throws on drift.
 */
export async function buildSdk({ write = false } = {}) {
  const generated = await sdkFrameTypes();
  const current = fs.existsSync(FRAMES_TS) ? fs.readFileSync(FRAMES_TS, 'utf8') : '';
  if (current !== generated) {
    if (!write) throw new Error(`packages/sdk/src/frames.ts is out of date with src/protocol/frames.ts: run \`node scripts/sdk.mjs --write\``);
    fs.writeFileSync(FRAMES_TS, generated);
  }
  const distDir = path.join(SDK_DIR, 'dist');
  fs.rmSync(distDir, { recursive: true, force: true });
  await bundleSdkRuntime(path.join(distDir, 'index.js'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', SDK_DIR], { stdio: 'inherit' });
  for (const target of [path.join(ROOT, 'dist', 'sdk'), ...SDK_COPIES]) {
    fs.mkdirSync(target, { recursive: true });
    for (const f of SDK_FILES) fs.copyFileSync(path.join(distDir, f), path.join(target, f));
  }
  await bundleTsTransform(path.join(ROOT, 'dist', 'sdk', TS_TRANSFORM_FILE));
  return distDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    await buildSdk({ write: process.argv.includes('--write') });
  } catch (e) {
    console.error(`sdk: ${e.message ?? e}`);
    process.exit(1);
  }
}
