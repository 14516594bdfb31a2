/**
 * dist/main.js, the extension's entry (package.json `main`): loads the extension itself (dist/extension.js) through a
 * V8 code cache kept in the extension's global storage, then hands activate() over to it. Loading the bundle (340 KB
 * then; ~300 KB since issue 41's lazy bundles) was most of VS Code's activation figure (issue 28); with the cache V8
 * skips parsing it and compiling the functions activation ran. The cache is made once per build and Node (keyed by the
 * bundle's hash and V8's version), written after activation (CODE_CACHE_WRITE_DELAY_MS, never on its path) behind a
 * header of ours (the source's key and the sha256 of the V8 data), and only read from a folder and a file that are the
 * user's own and nobody else may write (the folder lstat'ed, the file opened without following a link and checked by
 * fstat of what was opened, then read from that descriptor). V8 checks only a cache's header, and runs a damaged
 * payload (one flipped bit can crash the process at every activation), so our digest is checked before V8 sees the
 * data: a mismatch, or a cache V8 rejects, compiles the bundle as without a cache and a new cache replaces the bad one.
 * Nothing here can stop the extension from loading. activate() itself returns before any of it (see there).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire, wrap } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { CODE_CACHE_MAX_BYTES, CODE_CACHE_WRITE_DELAY_MS } from './protocol/limits';

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
  /**
   * `used`: compiled from the cache; `none`: there was none (or not a private one, in a private folder); `rejected`:
   * there was one, but damaged, of another source, or refused by V8.
   */
  cache: 'used' | 'none' | 'rejected';
  /** Writes the cache now when this load did not use one (false when nothing was written). */
  writeCache(): boolean;
}

const CACHE_FOLDER = 'code-cache';
/** A cache file: MAGIC, the source's key (sha256 of V8's version and the source), the payload's sha256, the payload. */
const MAGIC = Buffer.from('zut-cc1\n', 'latin1');
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();
/** The header's length: MAGIC and two sha256 digests, as long as `key` (nothing hashed when this module loads). */
const headerBytes = (key: Buffer): number => MAGIC.length + 2 * key.length;

/** The identity of `source` for its cache: one per bundle content and V8 version. */
function sourceKeyOf(source: string): Buffer {
  return createHash('sha256').update(process.versions.v8).update('\0').update(source).digest();
}

/** The cache file of the source keyed `key` under `cacheDir`. */
function cacheFileOf(cacheDir: string, name: string, key: Buffer): string {
  return path.join(cacheDir, `${name}-${key.toString('hex').slice(0, 24)}.bin`);
}

/** Whether `st` is this user's and nobody else may write it (Windows keeps no such bits: its storage's ACL does). */
function isPrivate(st: fs.Stats): boolean {
  const uid = process.getuid?.();
  const othersMayWrite = process.platform !== 'win32' && (st.mode & 0o022) !== 0;
  return (uid === undefined || st.uid === uid) && !othersMayWrite;
}

/** Whether `dir` is a folder (not a link to one) of this user's that nobody else may write. */
function privateFolder(dir: string): boolean {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && isPrivate(st);
  } catch {
    return false;
  }
}

/** O_NOFOLLOW: a link at the path fails the open; O_NONBLOCK: a FIFO there cannot block activation (0 where absent). */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The payload of the cache `file` of the source keyed `key`: `none` when the folder or the file is not a private one
 * of this user's (or there is none); `rejected` when the file is ours but its header or digest does not match.
 */
function readCache(file: string, key: Buffer): Buffer | 'none' | 'rejected' {
  if (!privateFolder(path.dirname(file))) return 'none';
  let fd: number;
  try {
    // Windows has no O_NOFOLLOW: there a link is refused by its lstat (the storage's ACL keeps others out).
    if (process.platform === 'win32' && fs.lstatSync(file).isSymbolicLink()) return 'none';
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch {
    return 'none'; // none yet, or a link
  }
  try {
    const st = fs.fstatSync(fd); // what was opened, not what the path names now
    if (!st.isFile() || !isPrivate(st)) return 'none';
    const header = headerBytes(key);
    if (st.size < header || st.size > CODE_CACHE_MAX_BYTES) return 'rejected';
    const data = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < data.length) {
      const n = fs.readSync(fd, data, got, data.length - got, got);
      if (n === 0) return 'rejected'; // shorter than fstat said
      got += n;
    }
    const payload = data.subarray(header);
    const ok =
      data.subarray(0, MAGIC.length).equals(MAGIC) &&
      data.subarray(MAGIC.length, MAGIC.length + key.length).equals(key) &&
      data.subarray(MAGIC.length + key.length, header).equals(sha256(payload));
    return ok ? payload : 'rejected';
  } catch {
    return 'none';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `payload` with its header as `file` through an exclusively created temporary file and a rename (a link or
 * anything else at the path is replaced, never written through), in a folder that must be private; removes older
 * caches. No fsync: a file a crash leaves torn fails its digest, and is replaced.
 */
function writeCacheFile(file: string, key: Buffer, payload: Buffer): void {
  if (payload.length + headerBytes(key) > CODE_CACHE_MAX_BYTES) throw new Error('code cache too large');
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!privateFolder(dir)) throw new Error(`${dir} is not a private folder of this user's`);
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    try {
      fs.writeFileSync(fd, Buffer.concat([MAGIC, key, sha256(payload), payload]));
    } finally {
      fs.closeSync(fd);
    }
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
  const key = sourceKeyOf(source);
  const cacheFile = cacheFileOf(cacheDir, path.basename(file, '.js'), key);
  const read = readCache(cacheFile, key);
  const cachedData = typeof read === 'string' ? undefined : read;
  const script = new Script(wrap(source), { filename: file, ...(cachedData && { cachedData }) });
  const cache = typeof read === 'string' ? read : script.cachedDataRejected === true ? 'rejected' : 'used';
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
        writeCacheFile(cacheFile, key, script.createCachedData());
        return true;
      } catch {
        return false; // a cache is an optimisation: a read-only or full disk only costs the next load its speed
      }
    },
  };
}

let extension: ExtensionModule | undefined;
let writeTimer: ReturnType<typeof setTimeout> | undefined;
/** The activation still under way: its next step, and how to end its promise if VS Code deactivates us first. */
let activating: { step: ReturnType<typeof setImmediate>; settle(): void } | undefined;

/**
 * What VS Code calls. It returns at once, before anything is loaded: the bundle's load and then its activate() run
 * as two tasks of their own (setImmediate) after it, so the extension host serves whatever else is waiting (other
 * extensions' activations, the workbench's requests) between them instead of behind one long task of ours. VS Code
 * awaits the promise before it runs a command, a view or a participant that activated us (its activation events), so
 * everything is registered by then; the same promise carries the extension's exports (`ZutApi`) and any error.
 */
export function activate(context: LoaderContext): Promise<unknown> {
  const t0 = performance.now();
  let callMs = 0;
  const activation = new Promise<unknown>((resolve, reject) => {
    const settle = (): void => resolve(undefined); // deactivated before it was loaded: nothing to stop
    const load = (): void => {
      const t1 = performance.now();
      let loaded: CodeCacheLoad<ExtensionModule>;
      try {
        loaded = loadWithCodeCache<ExtensionModule>(path.join(__dirname, 'extension.js'), path.join(context.globalStorageUri.fsPath, CACHE_FOLDER));
      } catch (e) {
        activating = undefined;
        reject(e);
        return;
      }
      const t2 = performance.now();
      activating = { step: setImmediate(() => run(loaded, { waitMs: t1 - t0 - callMs, bundleLoadMs: t2 - t1, codeCache: loaded.cache })), settle };
    };
    const run = (loaded: CodeCacheLoad<ExtensionModule>, split: { waitMs: number; bundleLoadMs: number; codeCache: CodeCacheLoad<unknown>['cache'] }): void => {
      activating = undefined;
      extension = loaded.exports;
      let result: unknown;
      try {
        result = extension.activate(context);
      } catch (e) {
        reject(e);
        return;
      }
      // The split for the in-host suite and the benchmarks (the extension's `timings`, src/extension.ts).
      const timings = (result as { timings?: unknown } | undefined)?.timings;
      if (timings && typeof timings === 'object') Object.assign(timings, { callMs, ...split, resolvedMs: performance.now() - t0 });
      // After activation, so the cache holds the functions activation compiled, and off its path.
      if (loaded.cache !== 'used') {
        writeTimer = setTimeout(() => {
          writeTimer = undefined;
          loaded.writeCache();
        }, CODE_CACHE_WRITE_DELAY_MS);
        writeTimer.unref();
      }
      resolve(result);
    };
    activating = { step: setImmediate(load), settle };
  });
  callMs = performance.now() - t0;
  return activation;
}

export function deactivate(): unknown {
  clearTimeout(writeTimer);
  writeTimer = undefined;
  if (activating) {
    clearImmediate(activating.step);
    activating.settle();
    activating = undefined;
  }
  return extension?.deactivate?.();
}
