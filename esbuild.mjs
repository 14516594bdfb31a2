// Builds the extension (Node, CommonJS, `vscode` external), the headless CLI, the webview script (browser), and
// (not in watch mode) the TypeScript SDK into dist/sdk and the manifest's JSON Schema into dist/extension.schema.json.
//   node esbuild.mjs [--production] [--watch]
// A one-shot build empties dist/ first, so nothing stale (an old entry, a source map of a dev build) can be packaged.
// API (for tests and scripts): `buildOptions({ production, outdir })`, `build({ production, outdir })`.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSdk, writeManifestSchema } from './scripts/sdk.mjs';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * Modules that dist/extension.js loads from a bundle of their own, beside it in dist/, at their first call, though the
 * VS Code-free host imports them as usual (ARCHITECTURE.md, "Lazy bundles": what, and why). The build swaps each such
 * import for a stand-in (`lazyStandIn`); the CLI bundles the module whole. Only functions are exported through the
 * stand-in. A module that only src/vscode needs is loaded with src/vscode/lazyBundle.ts `lazyBundle()` instead.
 * @type {{ module: string, bundle: string, exports: string[] }[]}
 */
export const LAZY_STAND_INS = [
  // The foreign-tool table: needed only when a guard judges a call of another agent's or VS Code's tool
  // (src/host/calls/guardRun.ts imports it).
  { module: 'src/host/calls/foreignTools/index.ts', bundle: 'foreign-tools', exports: ['foreignCall'] },
];

/**
 * The esbuild plugin that changes what an import means: in the bundle it builds, an import of one of LAZY_STAND_INS
 * from outside the module's folder resolves to a stand-in whose functions load the module's own bundle
 * (`require(<this bundle's folder>/<bundle>.js)`) on their first call. The module's own files import each other as
 * usual (its bundle is built whole, `standInBundleEntries`).
 * @returns {esbuild.Plugin}
 */
function lazyStandIn() {
  const byPath = new Map(LAZY_STAND_INS.map((l) => [path.join(ROOT, l.module), l]));
  // An import that may name one of them: its folder (for an index.ts) or its file, with or without `.ts`.
  const names = LAZY_STAND_INS.map((l) => (path.basename(l.module) === 'index.ts' ? `${path.basename(path.dirname(l.module))}(/index)?` : path.basename(l.module, '.ts')));
  const filter = new RegExp(`(${names.join('|')})(\\.ts)?$`);
  return {
    name: 'lazy-stand-in',
    setup(b) {
      b.onResolve({ filter }, (args) => {
        const base = path.resolve(args.resolveDir, args.path);
        const abs = [base, `${base}.ts`, path.join(base, 'index.ts')].find((c) => byPath.has(c));
        return abs && !args.importer.startsWith(path.dirname(abs) + path.sep) ? { path: abs, namespace: 'lazy-stand-in' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-stand-in' }, (args) => {
        const l = byPath.get(args.path);
        const lines = [`let m; const load = () => (m ??= require(require('node:path').join(__dirname, ${JSON.stringify(l.bundle + '.js')})));`];
        for (const name of l.exports) lines.push(`exports.${name} = (...a) => load().${name}(...a);`);
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };
}

/**
 * Modules outside the bundle (`vscode`, Node's built-ins) imported once: esbuild gives each importing file its own
 * `__toESM(require(x))`, a copy of every property as a getter — 31 copies of the whole `vscode` API object and 26 of
 * `node:path` in dist/extension.js, paid at load (issue 28, activation). Each is routed through one module of the
 * bundle (`export * from`), so its properties are copied once and every file reads that one namespace.
 * @returns {esbuild.Plugin}
 */
function externalsOnce() {
  return {
    name: 'externals-once',
    setup(b) {
      b.onResolve({ filter: /^(vscode|node:[a-z_/]+)$/ }, (args) =>
        args.namespace === 'externals-once' ? { path: args.path, external: true } : { path: args.path, namespace: 'externals-once' });
      b.onLoad({ filter: /.*/, namespace: 'externals-once' }, (args) => ({
        contents: `export * from ${JSON.stringify(args.path)};`,
        loader: 'js',
      }));
    },
  };
}

/** The bundle each stand-in loads: the module's own entry. */
const standInBundleEntries = () => Object.fromEntries(LAZY_STAND_INS.map((l) => [l.bundle, path.join(ROOT, l.module)]));

/**
 * The esbuild options of every entry. zod is imported as a namespace (`import * as z from 'zod'`, enforced by the
 * lint config) so esbuild tree-shakes it: `import { z }` would bundle all of zod's locales (~264 KB).
 * @param {{ production?: boolean, outdir?: string }} [o]
 * @returns {esbuild.BuildOptions[]}
 */
export function buildOptions({ production = false, outdir = path.join(ROOT, 'dist') } = {}) {
  return [
    {
      // The extension: what it needs only now and then comes from the lazy bundles beside it (LAZY_STAND_INS).
      // dist/main.js (package.json `main`) loads dist/extension.js through a V8 code cache (src/main.ts).
      entryPoints: { main: path.join(ROOT, 'src/main.ts'), extension: path.join(ROOT, 'src/extension.ts') },
      outdir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
      plugins: [lazyStandIn(), externalsOnce()],
    },
    {
      entryPoints: { cli: path.join(ROOT, 'src/cli.ts') },
      outdir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
      plugins: [externalsOnce()],
    },
    {
      // The agent-mode relay VS Code starts as an MCP stdio server: Node built-ins only, no source map in the vsix.
      // The agent-hook server (src/hooks/server.ts), loaded by the extension only when a workspace is open: kept out of
      // dist/extension.js (its size limit). Likewise the launcher upkeep and the agent setup commands
      // (src/vscode/agentSetupCommands.ts → dist/agent-setup.js, loaded from the extension's folder: `vscode` resolves).
      // The light agent-hook entry (src/hook.ts) an agent spawns per tool call: the fast path only, dist/cli.js beside
      // it for the rest. The extension host's end of the relay with the MCP handler (src/mcp/relayServer.ts), loaded
      // when VS Code first starts the agent-mode server: kept out of dist/extension.js too.
      entryPoints: {
        'mcp-relay': path.join(ROOT, 'src/mcp/relay.ts'),
        'relay-server': path.join(ROOT, 'src/mcp/relayServer.ts'),
        'hook-server': path.join(ROOT, 'src/hooks/server.ts'),
        'agent-setup': path.join(ROOT, 'src/vscode/agentSetupCommands.ts'),
        // "New Extension…"'s generator and its templates (src/host/authoring/, ~17 KB), loaded when the command runs.
        'new-extension': path.join(ROOT, 'src/host/authoring/newExtension.ts'),
        // A `@zut` request (the loop, the model adapter, the renderer), loaded at the first (src/vscode/chat/request.ts);
        // the management commands' work (install, doctor, remove, Call Tool…), loaded when one first runs
        // (src/vscode/managementCommands.ts); the panels' webviews, loaded at the first `open_panel`
        // (src/vscode/panels.ts): not what a window needs before its first extension answers (issue 41).
        chat: path.join(ROOT, 'src/vscode/chat/request.ts'),
        management: path.join(ROOT, 'src/vscode/managementCommands.ts'),
        panels: path.join(ROOT, 'src/vscode/panels.ts'),
        hook: path.join(ROOT, 'src/hook.ts'),
        ...standInBundleEntries(),
      },
      outdir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      minify: production,
      logLevel: 'warning',
      plugins: [externalsOnce()],
    },
    {
      entryPoints: { panel: path.join(ROOT, 'media/panel.ts') },
      outdir: path.join(outdir, 'media'),
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
    },
  ];
}

/** Empties `outdir`, then builds every entry into it. */
export async function build({ production = false, outdir = path.join(ROOT, 'dist') } = {}) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await Promise.all(buildOptions({ production, outdir }).map((b) => esbuild.build(b)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const production = process.argv.includes('--production');
  if (process.argv.includes('--watch')) {
    for (const b of buildOptions({ production })) await (await esbuild.context(b)).watch();
    console.log('esbuild: watching');
  } else {
    await build({ production });
    // The SDK (fails when its generated frame types drifted from src/protocol) and the manifest's JSON Schema.
    await buildSdk();
    await writeManifestSchema();
  }
}
