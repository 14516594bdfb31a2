/**
 * vitest `globalSetup` (runs once per `vitest run`, in the main process): bundles the CLI (src/cli.ts), the light
 * hook entry (src/hook.ts, beside the CLI as in dist/) and the MCP relay (src/mcp/relay.ts) once, as esbuild.mjs
 * does, into a private temp dir (parallel builds of dist/ cannot interfere); test files get the paths with
 * `builtCli()` / `builtHook()` / `builtRelay()` (test/helpers/built.ts). First it ensures the Debian packages the unit
 * tests need (Go, for `ext install --build=go`: scripts/provision.mjs installs it as root, else fails with the
 * apt-get line), so no test has to skip for want of it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };

declare module 'vitest' {
  export interface ProvidedContext {
    zutCli: string;
    zutHook: string;
    zutRelay: string;
  }
}

const ROOT = path.resolve(__dirname, '../..');

export default async function setup(project: TestProject): Promise<() => void> {
  const provision = await import('../../scripts/provision.mjs');
  // Debian packages are Linux's; the macOS and Windows runners of .github/workflows/ci.yml come with Go.
  if (process.platform === 'linux') await provision.ensureDebianPackages(provision.UNIT_TEST_PACKAGES);
  const esbuild = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-built-'));
  const bundle = (entry: string, outfile: string) =>
    esbuild.build({ entryPoints: [path.join(ROOT, entry)], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  const cli = path.join(dir, 'cli.js');
  const hook = path.join(dir, 'hook.js');
  const relay = path.join(dir, 'mcp-relay.js');
  await Promise.all([bundle('src/cli.ts', cli), bundle('src/hook.ts', hook), bundle('src/mcp/relay.ts', relay)]);
  // esbuild's service process would otherwise live as long as vitest.
  await esbuild.stop();
  project.provide('zutCli', cli);
  project.provide('zutHook', hook);
  project.provide('zutRelay', relay);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
