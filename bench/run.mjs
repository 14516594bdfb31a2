// `npm run bench [-- --json [FILE]] [-- --only roundtrip,throughput] [-- --quick]`: bundles bench/main.ts with esbuild
// into a temp file (Node 20 cannot run TypeScript), builds the release bundle next to it (the bundle figure), then
// runs it with --expose-gc (the memory figure needs it).
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-build-'));
const outfile = path.join(dir, 'bench.cjs');
const bundleDir = path.join(dir, 'dist');
try {
  await build({ production: true, outdir: bundleDir }); // the release bundle, measured by bench/bundle.ts
  await esbuild.build({
    entryPoints: [path.join(root, 'bench', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // The agent-mode relay (bench/mcpRelay.ts) runs as its own process, as in VS Code: bundled like dist/mcp-relay.js.
  const relay = path.join(dir, 'mcp-relay.js');
  await esbuild.build({ entryPoints: [path.join(root, 'src', 'mcp', 'relay.ts')], outfile: relay, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  const r = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', outfile, ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ZUT_REPO_ROOT: root, ZUT_CALLER_CWD: process.env.INIT_CWD ?? process.cwd(), ZUT_BENCH_RELAY: relay, ZUT_BENCH_BUNDLE_DIR: bundleDir },
  });
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
