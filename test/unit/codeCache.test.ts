// The extension's entry (src/main.ts): dist/extension.js loaded through a V8 code cache. The cache is written after
// a load that had none, used by the next load, ignored unless it is the user's private file in a private folder
// (the file checked on what was opened, not on the path before), and a bad one never stops the bundle from loading:
// garbage, or one flipped bit of the payload (which V8 would run: it checks only its header), fails our digest
// before V8 sees it, and a good cache replaces it.
// Each load runs in a fresh Node (src/main.ts bundled by esbuild here): within one process V8's own in-memory
// compilation cache would answer a second compile of the same source, and the file's cache would not be consulted.
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

afterEach(cleanupTemps);

interface Bundle {
  answer: number;
  sibling: string;
  dirname: string;
  self: string;
}

let loaderDir: string;
beforeAll(() => {
  loaderDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-code-cache-'));
  esbuild.buildSync({ entryPoints: [path.join(__dirname, '../../src/main.ts')], outfile: path.join(loaderDir, 'main.js'), bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
});
afterAll(() => fs.rmSync(loaderDir, { recursive: true, force: true }));

/**
 * In the child, before the loader runs: the first lstat of the cache folder or of a file in it (the loader's check)
 * is followed at once by `swap` (ZUT_TEST_SWAP: [cacheDir, cacheFile, planted, 'link' | 'rename']): the cache file
 * becomes a link to `planted`, or `planted` itself. A checker that reads the path after checking it reads `planted`.
 */
const SWAP_PRELOAD = `const fs = require('node:fs'); const path = require('node:path');
const [dir, file, planted, how] = JSON.parse(process.env.ZUT_TEST_SWAP); const lstat = fs.lstatSync; let done = false;
fs.lstatSync = function (p, ...rest) {
  const r = lstat.call(this, p, ...rest);
  if (!done && [dir, file].includes(path.resolve(String(p)))) {
    done = true;
    if (how === 'link') { fs.rmSync(file); fs.symlinkSync(planted, file); } else fs.renameSync(planted, file);
  }
  return r;
};`;

/** loadWithCodeCache(file, cacheDir) in a fresh Node; `write`: then writeCache(); `swap`: see SWAP_PRELOAD. */
function loadWithCodeCache<T extends Bundle>(file: string, cacheDir: string, write = false, swap?: [string, string, string, 'link' | 'rename']): { cache: string; exports: T; wrote: boolean | null } {
  const script = `const l = require(${JSON.stringify(path.join(loaderDir, 'main.js'))}).loadWithCodeCache(process.argv[1], process.argv[2]);
const e = l.exports; const wrote = process.argv[3] === 'w' ? l.writeCache() : null;
console.log(JSON.stringify({ cache: l.cache, exports: { answer: e.answer(), sibling: e.sibling, dirname: e.dirname, self: e.self }, wrote }));`;
  const preload = path.join(loaderDir, 'swap.js');
  if (swap) fs.writeFileSync(preload, SWAP_PRELOAD);
  const args = [...(swap ? ['-r', preload] : []), '-e', script, file, cacheDir, write ? 'w' : '-'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ZUT_TEST_SWAP: JSON.stringify(swap ?? []) } });
  if (r.status !== 0) throw new Error(`loader child failed (status ${r.status}, signal ${r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout) as { cache: string; exports: T; wrote: boolean | null };
}

/** A CommonJS "bundle" that uses its own require, module and __dirname, like dist/extension.js. */
function writeBundle(dir: string, body = 'return 42;'): string {
  fs.writeFileSync(path.join(dir, 'sibling.js'), 'module.exports = "from the sibling";');
  const file = path.join(dir, 'extension.js');
  const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`).join('\n');
  fs.writeFileSync(file, `"use strict";\n${fns}\nmodule.exports = { answer() { ${body} }, sibling: require('./sibling.js'), dirname: __dirname, self: __filename, sum: f199(1) };\n`);
  return file;
}

describe('the code-cache loader (dist/main.js)', () => {
  it('loads as require would, writes a private cache after a load without one, and the next load uses it', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'storage', 'code-cache');
    const first = loadWithCodeCache<Bundle>(file, cacheDir);
    expect(first.cache).toBe('none');
    expect(first.exports.answer).toBe(42);
    expect(first.exports.sibling).toBe('from the sibling');
    expect(first.exports.dirname).toBe(dir);
    expect(first.exports.self).toBe(file);
    expect(fs.existsSync(cacheDir)).toBe(false); // written only when asked (after activation)
    expect(loadWithCodeCache<Bundle>(file, cacheDir, true).wrote).toBe(true);
    const [cacheFile, ...others] = fs.readdirSync(cacheDir);
    expect(others).toEqual([]);
    expect(cacheFile).toMatch(/^extension-[0-9a-f]{24}\.bin$/);
    if (process.platform !== 'win32') {
      expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(cacheDir, cacheFile!)).mode & 0o777).toBe(0o600);
    }
    const second = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(second.cache).toBe('used');
    expect(second.exports.answer).toBe(42);
    expect(second.exports.sibling).toBe('from the sibling');
    expect(second.wrote).toBe(false); // nothing to replace
  });

  it('a new build is a new cache: the old one is not used, and is removed when the new one is written', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const old = fs.readdirSync(cacheDir);
    writeBundle(dir, 'return 43;');
    const next = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(next.cache).toBe('none');
    expect(next.exports.answer).toBe(43);
    expect(next.wrote).toBe(true);
    const now = fs.readdirSync(cacheDir);
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(old);
  });

  it('a corrupt cache is rejected: the bundle loads all the same, and a good cache replaces it', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const cacheFile = path.join(cacheDir, fs.readdirSync(cacheDir)[0]!);
    fs.writeFileSync(cacheFile, Buffer.alloc(4096, 7), { mode: 0o600 });
    const bad = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(bad.cache).toBe('rejected');
    expect(bad.exports.answer).toBe(42);
    expect(bad.wrote).toBe(true);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('used');
  });

  it('one flipped bit of the payload: the cache is not given to V8 (rejected), the bundle loads, a good cache is written back and used', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const cacheFile = path.join(cacheDir, fs.readdirSync(cacheDir)[0]!);
    const good = fs.readFileSync(cacheFile);
    const bad = Buffer.from(good);
    bad[bad.length >> 1]! ^= 0x10; // the middle of the file: V8's payload, past any header
    fs.writeFileSync(cacheFile, bad, { mode: 0o600 });
    const load = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(load.cache).toBe('rejected');
    expect(load.exports.answer).toBe(42);
    expect(load.wrote).toBe(true);
    expect(fs.readFileSync(cacheFile).equals(bad)).toBe(false);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('used');
  });

  it.skipIf(process.platform === 'win32')('a cache folder others may write, or a link to a folder, is neither read nor written', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const [name] = fs.readdirSync(cacheDir);
    fs.chmodSync(cacheDir, 0o777);
    const open = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(open).toMatchObject({ cache: 'none', wrote: false, exports: { answer: 42 } });
    fs.chmodSync(cacheDir, 0o770);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('none');
    fs.chmodSync(cacheDir, 0o700);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('used');
    const real = path.join(dir, 'real-cc');
    fs.renameSync(cacheDir, real);
    fs.symlinkSync(real, cacheDir);
    const linked = loadWithCodeCache<Bundle>(file, cacheDir, true);
    expect(linked).toMatchObject({ cache: 'none', wrote: false });
    expect(fs.readdirSync(real)).toEqual([name]);
  });

  it.skipIf(process.platform === 'win32')('the file read is the one checked: a link or a file others may write, put in its place right after the check, is not used', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const cacheFile = path.join(cacheDir, fs.readdirSync(cacheDir)[0]!);
    const planted = path.join(dir, 'planted.bin');
    fs.copyFileSync(cacheFile, planted); // a cache V8 would take: only where it is, and whose, differs
    const link = loadWithCodeCache<Bundle>(file, cacheDir, false, [cacheDir, cacheFile, planted, 'link']);
    expect(fs.lstatSync(cacheFile).isSymbolicLink()).toBe(true); // the swap happened
    expect(link.cache).toBe('none');
    expect(link.exports.answer).toBe(42);
    fs.rmSync(cacheFile);
    fs.chmodSync(planted, 0o666);
    const writable = loadWithCodeCache<Bundle>(file, cacheDir, false, [cacheDir, cacheFile, planted, 'rename']);
    expect(fs.existsSync(planted)).toBe(false); // the swap happened
    expect(writable.cache).toBe('none');
  });

  it('a cache others may write, or a link, is never read (POSIX modes)', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const cacheDir = path.join(dir, 'cc');
    loadWithCodeCache<Bundle>(file, cacheDir, true);
    const name = fs.readdirSync(cacheDir)[0]!;
    const cacheFile = path.join(cacheDir, name);
    fs.chmodSync(cacheFile, 0o666);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('none');
    fs.chmodSync(cacheFile, 0o600);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('used');
    const elsewhere = path.join(dir, 'elsewhere.bin');
    fs.renameSync(cacheFile, elsewhere);
    fs.symlinkSync(elsewhere, cacheFile);
    expect(loadWithCodeCache<Bundle>(file, cacheDir).cache).toBe('none');
  });

  it('a cache folder that cannot be written costs only the speed', () => {
    const dir = tempDir();
    const file = writeBundle(dir);
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const load = loadWithCodeCache<Bundle>(file, path.join(blocker, 'cc'), true);
    expect(load.exports.answer).toBe(42);
    expect(load.wrote).toBe(false);
  });
});

/**
 * dist/main.js's activate() in a fresh Node, beside `extension.js` written from `bundle`; the child prints what it saw
 * as JSON lines: `returned` (whether the bundle had run when activate() returned, and whether it returned a promise),
 * then `settled` (the promise's value or error, and the bundle's log). `deactivateFirst`: deactivate() right after.
 */
function activateInChild(bundle: string, deactivateFirst = false): { returned: { ran: boolean; promise: boolean }; settled: { value?: unknown; error?: string; log: string[] } } {
  const dir = tempDir();
  fs.copyFileSync(path.join(loaderDir, 'main.js'), path.join(dir, 'main.js'));
  fs.writeFileSync(path.join(dir, 'extension.js'), bundle);
  const storage = path.join(dir, 'storage');
  fs.mkdirSync(storage, { mode: 0o700 });
  const script = `globalThis.__log = [];
const m = require(${JSON.stringify(path.join(dir, 'main.js'))});
const p = m.activate({ globalStorageUri: { fsPath: ${JSON.stringify(storage)} } });
console.log(JSON.stringify({ returned: { ran: globalThis.__log.length > 0, promise: typeof p?.then === 'function' } }));
${deactivateFirst ? 'm.deactivate();' : ''}
p.then((value) => console.log(JSON.stringify({ settled: { value, log: globalThis.__log } })),
  (e) => console.log(JSON.stringify({ settled: { error: String(e.message), log: globalThis.__log } })))
  .finally(() => setTimeout(() => { console.log(JSON.stringify({ after: globalThis.__log })); process.exit(0); }, 50));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`activation child failed (status ${r.status}): ${r.stderr}`);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const after = lines.find((l) => 'after' in l)?.after as string[];
  const settled = lines.find((l) => 'settled' in l)?.settled as { value?: unknown; error?: string; log: string[] };
  expect(after).toEqual(settled.log); // nothing ran once the promise had settled
  return { returned: lines.find((l) => 'returned' in l)?.returned as { ran: boolean; promise: boolean }, settled };
}

describe("dist/main.js's activate(): returns before the bundle loads", () => {
  const bundle = `"use strict"; __log.push('loaded');
exports.activate = (ctx) => { __log.push('activate'); return { timings: {}, storage: ctx.globalStorageUri.fsPath.endsWith('storage') }; };
exports.deactivate = () => { __log.push('deactivate'); };`;

  it('loads the bundle and runs its activate() after returning; the promise carries its exports and the split', () => {
    const { returned, settled } = activateInChild(bundle);
    expect(returned).toEqual({ ran: false, promise: true });
    expect(settled.log).toEqual(['loaded', 'activate']);
    const value = settled.value as { storage: boolean; timings: Record<string, unknown> };
    expect(value.storage).toBe(true);
    expect(value.timings.codeCache).toBe('none');
    for (const k of ['callMs', 'waitMs', 'bundleLoadMs', 'resolvedMs']) expect(value.timings[k], k).toEqual(expect.any(Number));
    expect(value.timings.resolvedMs as number).toBeGreaterThanOrEqual(value.timings.bundleLoadMs as number);
  });

  it('deactivated before the load: the promise resolves with nothing, and the bundle is never loaded', () => {
    const { returned, settled } = activateInChild(bundle, true);
    expect(returned.ran).toBe(false);
    expect(settled).toEqual({ log: [] });
  });

  it("a bundle that throws while loading, or in its activate(), rejects the promise with that error", () => {
    expect(activateInChild(`throw new Error('broken bundle');`).settled).toEqual({ error: 'broken bundle', log: [] });
    const throwing = `"use strict"; __log.push('loaded'); exports.activate = () => { throw new Error('broken activate'); };`;
    expect(activateInChild(throwing).settled).toEqual({ error: 'broken activate', log: ['loaded'] });
  });
});
