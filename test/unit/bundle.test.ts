// The release bundle stays small and clean: dist/extension.js (minified) within BUNDLE_LIMIT_BYTES with zod's
// English messages and none of its other locales; a build empties its output dir first; .vscodeignore packages no
// source map; the package-time check refuses an oversized bundle or a source map.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

type PackageScript = typeof import('../../scripts/package.mjs', { with: { 'resolution-mode': 'import' } });
let pkg: PackageScript;
let tmp: string;
let out: string;

beforeAll(async () => {
  // The scripts are ES modules; this file is compiled as CommonJS, so they are loaded with import().
  pkg = await import('../../scripts/package.mjs');
  const { build } = await import('../../esbuild.mjs');
  tmp = tempDir('zut-bundle-');
  out = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(out, 'media'), { recursive: true });
  fs.writeFileSync(path.join(out, 'stale.js'), 'old entry');
  fs.writeFileSync(path.join(out, 'media', 'old.js.map'), '{}');
  await build({ production: true, outdir: out });
}, 60_000);
afterAll(cleanupTemps);

describe('release bundle', () => {
  it(`dist/extension.js is within the limit`, () => {
    const bytes = fs.statSync(path.join(out, 'extension.js')).size;
    expect(pkg.BUNDLE_LIMIT_BYTES).toBe(350_000);
    expect(bytes).toBeLessThanOrEqual(pkg.BUNDLE_LIMIT_BYTES);
    expect(() => pkg.checkPackageFiles({ files: pkg.REQUIRED_FILES, bundle: path.join(out, 'extension.js') })).not.toThrow();
  });

  it("keeps zod's English messages and leaves its other locales out", () => {
    const js = fs.readFileSync(path.join(out, 'extension.js'), 'utf8');
    expect(js).toContain('Invalid input: expected');
    // (esbuild escapes non-ASCII text, so the probes are locales written in ASCII)
    expect(js).not.toContain('Ongeldige invoer'); // nl
    expect(js).not.toContain('Input tidak valid'); // id
  });

  it('dist/hook.js (run by agents per tool call) stays light: no zod, no host, a few KB', () => {
    const js = fs.readFileSync(path.join(out, 'hook.js'), 'utf8');
    // 12 KB with three agents; each agent's dialect (src/hooks/dialects, issue 39) adds 0.5–1 KB minified: room for
    // the nine of today and a few more. Loading it is not what a hook's time goes to (bench agent-hook-*).
    expect(js.length).toBeLessThan(24_000);
    expect(js).not.toContain('Invalid input');
    expect(js).not.toContain('hello_ack');
  });

  it('dist/main.js (the entry: loads extension.js through a code cache) stays tiny: no zod, no host, no vscode', () => {
    const js = fs.readFileSync(path.join(out, 'main.js'), 'utf8');
    expect(js.length).toBeLessThan(4_000);
    expect(js).not.toContain('Invalid input');
    expect(js).not.toContain('require("vscode")');
    expect(js).toContain('"extension.js"');
  });

  it('dist/chat.js and dist/panels.js (a first @zut request, a first panel) carry no zod: what needs it is handed in', () => {
    for (const f of ['chat.js', 'panels.js']) {
      const js = fs.readFileSync(path.join(out, f), 'utf8');
      expect(js, f).not.toContain('Invalid input');
      expect(js.length, f).toBeLessThan(30_000);
    }
  });

  it('the foreign-tool table is a lazy bundle: extension.js loads dist/foreign-tools.js at its first call, which maps as the source does', () => {
    const js = fs.readFileSync(path.join(out, 'extension.js'), 'utf8');
    expect(js).toContain('"foreign-tools.js"');
    expect(js).not.toContain('str_replace_editor'); // a row of the table: not in the extension's own bundle
    const table = createRequire(__filename)(path.join(out, 'foreign-tools.js')) as typeof import('../../src/host/calls/foreignTools');
    expect(table.foreignCall('vscode', 'run_in_terminal', { command: 'ls' }).views).toEqual([{ name: 'bash', args: { command: 'ls' }, effect: 'exec' }]);
  });

  it('a build empties its output dir first (nothing stale, no source map of a release build)', () => {
    const files = fs.readdirSync(out, { recursive: true }).map(String).sort();
    expect(files).toEqual(['agent-setup.js', 'chat.js', 'cli.js', 'extension.js', 'foreign-tools.js', 'hook-server.js', 'hook.js', 'main.js', 'management.js', 'mcp-relay.js', 'media', path.join('media', 'panel.js'), 'new-extension.js', 'panels.js', 'relay-server.js']);
  });
});

describe('package-time check', () => {
  it('.vscodeignore packages the bundle, the CLI, the MCP relay and its server end, the panel script, the SDK and TypeScript transform, no source map', () => {
    const dir = path.join(tmp, 'pkg');
    for (const f of ['package.json', '.vscodeignore', 'README.md', 'LICENSE', 'media/panel.css']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.copyFileSync(path.join(pkg.ROOT, f), path.join(dir, f));
    }
    const sdk = pkg.REQUIRED_FILES.filter((f) => f.startsWith('dist/sdk/'));
    expect(sdk).toContain('dist/sdk/sucrase.js');
    const built = ['dist/main.js', 'dist/main.js.map', 'dist/extension.js', 'dist/extension.js.map', 'dist/cli.js', 'dist/cli.js.map', 'dist/mcp-relay.js', 'dist/relay-server.js', 'dist/hook-server.js', 'dist/agent-setup.js', 'dist/new-extension.js', 'dist/chat.js', 'dist/management.js', 'dist/panels.js', 'dist/foreign-tools.js', 'dist/hook.js', 'dist/media/panel.js', 'dist/media/panel.js.map', ...sdk];
    for (const f of built) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), '//');
    }
    const files = pkg.packagedFiles(dir);
    expect(files.filter((f) => f.startsWith('dist/')).sort()).toEqual(['dist/agent-setup.js', 'dist/cli.js', 'dist/extension.js', 'dist/foreign-tools.js', 'dist/hook-server.js', 'dist/hook.js', 'dist/main.js', 'dist/mcp-relay.js', 'dist/media/panel.js', 'dist/new-extension.js', 'dist/chat.js', 'dist/management.js', 'dist/panels.js', 'dist/relay-server.js', ...sdk].sort());
    expect(() => pkg.checkPackageFiles({ files, bundle: path.join(out, 'extension.js') })).not.toThrow();
  }, 30_000);

  it('refuses a source map, a missing bundle or SDK file, and a release bundle over the limit', () => {
    const big = path.join(tmp, 'big.js');
    fs.writeFileSync(big, Buffer.alloc(pkg.BUNDLE_LIMIT_BYTES + 1, 0x20));
    expect(() => pkg.checkPackageFiles({ files: [...pkg.REQUIRED_FILES, 'dist/extension.js.map'], bundle: big, production: false }))
      .toThrow('the package would contain source maps: dist/extension.js.map');
    expect(() => pkg.checkPackageFiles({ files: ['package.json'], bundle: big })).toThrow(/would lack dist\/main\.js, dist\/extension\.js/);
    expect(() => pkg.checkPackageFiles({ files: pkg.REQUIRED_FILES.filter((f) => f !== 'dist/sdk/sucrase.js'), bundle: big }))
      .toThrow(/^the package would lack dist\/sdk\/sucrase\.js:/);
    expect(() => pkg.checkPackageFiles({ files: pkg.REQUIRED_FILES.filter((f) => f !== 'dist/hook.js'), bundle: big })).toThrow(/^the package would lack dist\/hook\.js:/);
    expect(() => pkg.checkPackageFiles({ files: pkg.REQUIRED_FILES, bundle: big })).toThrow(/350,001 bytes, over the 350,000-byte limit/);
    expect(pkg.checkPackageFiles({ files: pkg.REQUIRED_FILES, bundle: big, production: false }).bytes).toBe(350_001);
  });
});
