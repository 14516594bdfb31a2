/**
 * dist/main.js, the extension's entry (package.json `main`): loads the extension itself (dist/extension.js) through a
 * V8 code cache kept in the extension's global storage, then hands activate() over to it. Loading the 340 KB bundle
 * was most of VS Code's activation figure (issue 28); with the cache V8 skips parsing it and compiling the functions
 * activation ran. The cache is made once per build and Node (keyed by the bundle's hash and V8's version), written
 * after activation (CODE_CACHE_WRITE_DELAY_MS, never on its path), only read when it is the user's own private file,
 * and V8 itself rejects one that does not match the source: then the bundle compiles as without a cache, and a new
 * cache replaces the old. Nothing here can stop the extension from loading.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire, wrap } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { CODE_CACHE_WRITE_DELAY_MS } from './protocol/limits';

/** What the extension's bundle exports. */
interface ExtensionModule {
  activate(context: unknown): unknown;
  deactivate?(): unknown;
}

/** The part of VS Code's ExtensionContext the loader reads. */
interface LoaderContext {
  globalStorageUri: { fsPath: string };
}

/** How one load went (tests and the Zut log). */
export interface CodeCacheLoad<T> {
  exports: T;
  /** `used`: compiled from the cache; `none`: there was none (or not a private one); `rejected`: V8 refused it. */
  cache: 'used' | 'none' | 'rejected';
  /** Writes the cache now when this load did not use one (false when nothing was written). */
  writeCache(): boolean;
}

const CACHE_FOLDER = 'code-cache';

/** The cache file of `source` under `cacheDir`: one per bundle content and V8 version. */
function cacheFileOf(cacheDir: string, name: string, source: string): string {
  const key = createHash('sha256').update(process.versions.v8).update('\0').update(source).digest('hex').slice(0, 24);
  return path.join(cacheDir, `${name}-${key}.bin`);
}

/** The cache, when it is a regular file of this user's that nobody else may write (else it is not read). */
function readPrivate(file: string): Buffer | undefined {
  try {
    const st = fs.lstatSync(file);
    const uid = process.getuid?.();
    // (Windows keeps no such mode bits: there the global storage's own ACL is what keeps others out.)
    const othersMayWrite = process.platform !== 'win32' && (st.mode & 0o022) !== 0;
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || othersMayWrite) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` as `file` through an exclusively created temporary file and a rename; removes older caches. */
function writePrivate(file: string, data: Buffer): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, data, { flag: 'wx', mode: 0o600 });
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  const prefix = path.basename(file).replace(/-[0-9a-f]+\.bin$/, '-');
  for (const f of fs.readdirSync(dir)) {
    if (f.startsWith(prefix) && f.endsWith('.bin') && f !== path.basename(file)) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/**
 * Loads the CommonJS file `file` as Node's `require` would (its own `require`, `module`, `__dirname`), compiled with
 * the cache under `cacheDir` when there is a usable one. Throws only what loading the file itself throws.
 */
export function loadWithCodeCache<T>(file: string, cacheDir: string): CodeCacheLoad<T> {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileOf(cacheDir, path.basename(file, '.js'), source);
  const cachedData = readPrivate(cacheFile);
  const script = new Script(wrap(source), { filename: file, ...(cachedData && { cachedData }) });
  const cache = !cachedData ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} as T, id: file, filename: file };
  // `require` of the bundle's own path: VS Code hands the `vscode` module to the extension a requiring file is in.
  const fn = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: unknown, f: string, d: string) => void;
  fn.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return {
    exports: module.exports,
    cache,
    writeCache: () => {
      if (cache === 'used') return false;
      try {
        writePrivate(cacheFile, script.createCachedData());
        return true;
      } catch {
        return false; // a cache is an optimisation: a read-only or full disk only costs the next load its speed
      }
    },
  };
}

let extension: ExtensionModule | undefined;
let writeTimer: ReturnType<typeof setTimeout> | undefined;

export function activate(context: LoaderContext): unknown {
  const t0 = performance.now();
  const loaded = loadWithCodeCache<ExtensionModule>(path.join(__dirname, 'extension.js'), path.join(context.globalStorageUri.fsPath, CACHE_FOLDER));
  const bundleLoadMs = performance.now() - t0;
  extension = loaded.exports;
  const result = extension.activate(context);
  // The split for the in-host suite and bench:ui (the extension's `timings`, src/extension.ts ActivationTimings).
  const timings = (result as { timings?: unknown } | undefined)?.timings;
  if (timings && typeof timings === 'object') Object.assign(timings, { bundleLoadMs, codeCache: loaded.cache });
  // After activation, so the cache holds the functions activation compiled, and off its path.
  if (loaded.cache !== 'used') {
    writeTimer = setTimeout(() => {
      writeTimer = undefined;
      loaded.writeCache();
    }, CODE_CACHE_WRITE_DELAY_MS);
    writeTimer.unref();
  }
  return result;
}

export function deactivate(): unknown {
  clearTimeout(writeTimer);
  writeTimer = undefined;
  return extension?.deactivate?.();
}
