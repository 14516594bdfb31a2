// Builds the extension (Node, CommonJS, `vscode` external), the headless CLI, the webview script (browser), and
// (not in watch mode) the TypeScript SDK into dist/sdk and the manifest's JSON Schema into dist/extension.schema.json.
import * as esbuild from 'esbuild';
import { buildSdk, writeManifestSchema } from './scripts/sdk.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: { extension: 'src/extension.ts', cli: 'src/cli.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
  {
    // The agent-mode relay VS Code starts as an MCP stdio server: Node built-ins only, no source map in the vsix.
    entryPoints: { 'mcp-relay': 'src/mcp/relay.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: production,
    logLevel: 'warning',
  },
  {
    entryPoints: { panel: 'media/panel.ts' },
    outdir: 'dist/media',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // The SDK (fails when its generated frame types drifted from src/protocol) and the manifest's JSON Schema.
  await buildSdk();
  await writeManifestSchema();
}
