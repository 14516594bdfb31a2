/**
 * The content fingerprint consent is given for (consent.ts): sha-256 over EVERY entry of the extension's
 * directory, in sorted path order, plus every file outside it that `exec` or an argument names. Any file in the
 * directory may be code the extension runs (a sourced `lib.sh`, the TS template's `sdk/index.js`, a `json.py`
 * that shadows Python's own), so nothing in it is excluded: not `.git` (hooks), not caches (`__pycache__` holds
 * bytecode Python runs). Bounded: past `FINGERPRINT_MAX_ENTRIES` entries or `FINGERPRINT_MAX_BYTES` of content the
 * extension is refused (never fingerprinted in part). Symlinks are followed: a link is fingerprinted as its
 * target's content, wherever that lies (a directory reached twice, a cycle, counts once by its real path); other
 * kinds (FIFOs, devices, sockets) count by kind and are never opened. A file outside the directory named by
 * `exec`/`args` counts by content when it lies in a workspace folder (the repository can change it) and by its
 * size, mtime and inode elsewhere (an interpreter of the machine's). Files are hashed incrementally (chunked reads,
 * a few at a time), all asynchronously: the activation path never waits for it. No `vscode`.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { execIsRelativePath, resolveExec } from '../disk/manifest';
import { logPathFor } from '../disk/paths';
import type { DiscoveredExtension } from '../types';
import { FINGERPRINT_MAX_BYTES, FINGERPRINT_MAX_ENTRIES, FINGERPRINT_PARALLEL_READS, FINGERPRINT_READ_CHUNK_BYTES } from '../../protocol/limits';

/** What to fingerprint. */
export interface FingerprintTarget {
  name: string;
  dir: string;
  manifestPath: string;
  exec?: string | undefined;
  args?: readonly string[] | undefined;
  /** Only the directory's top level (a top-level e file shares its directory with its siblings, each its own extension). */
  shallow?: boolean;
  /** The workspace folders: a named file outside `dir` inside one counts by content. */
  folders: readonly string[];
  /** The extension's log (named by a refusal). */
  logPath: string;
}

/**
 * A fingerprint and what it was made of: `parts` maps each entry's key (its path relative to the directory with
 * `/`, or `named:<path>`) to `<kind>\0<digest>` (a file's digest is `<size>:<sha-256 hex>`), so a caller can tell
 * which entries differ between two fingerprints (gates.ts: an editor save of the user's own extension).
 */
export type FingerprintResult = { ok: true; fingerprint: string; entries: number; bytes: number; parts: ReadonlyMap<string, string> } | { ok: false; error: string };

/** The part a regular file with exactly these bytes has in a fingerprint (`FingerprintResult.parts`). */
export function filePart(bytes: Uint8Array): string {
  return `file\0${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Bounds of one fingerprint (the limits.ts ones unless a test narrows them). */
export interface FingerprintBounds {
  maxEntries: number;
  maxBytes: number;
}
const DEFAULT_BOUNDS: FingerprintBounds = { maxEntries: FINGERPRINT_MAX_ENTRIES, maxBytes: FINGERPRINT_MAX_BYTES };

interface Entry {
  /** `dir/` relative path with `/` separators, or `named:<arg>` for a file outside the directory. */
  key: string;
  kind: 'file' | 'dir' | 'seen-dir' | 'dangling' | 'other' | 'stamp';
  abs: string;
  /** Bytes to hash (files), or the stamp / real path / mode that stands for the entry. */
  size: number;
  note: string;
}

class Refused extends Error {}

/**
 * What consent fingerprints for a discovered extension (the Gatekeeper's gate and the pins of a copied MCP
 * configuration, pins.ts, alike): its directory (a top-level e file: only that level, shared with its siblings), its
 * manifest and the files `exec`/`args` name.
 */
export function fingerprintTarget(d: Pick<DiscoveredExtension, 'name' | 'dir' | 'manifestPath' | 'manifest' | 'ecosystem' | 'eTarget'>, folders: readonly string[], zutHome: string): FingerprintTarget {
  return {
    name: d.name,
    dir: d.dir,
    manifestPath: d.manifestPath,
    exec: d.manifest?.exec,
    args: d.manifest?.args,
    shallow: d.ecosystem === 'e' && d.eTarget !== undefined && d.eTarget !== d.dir,
    folders,
    logPath: logPathFor(zutHome, d.name),
  };
}

export async function contentFingerprint(t: FingerprintTarget, bounds: FingerprintBounds = DEFAULT_BOUNDS): Promise<FingerprintResult> {
  const budget = { entries: 0, bytes: 0 };
  const refuse = (what: string): never => {
    throw new Refused(
      `${t.name} (${t.dir}) not started: ${what}, too much to fingerprint for consent (a project extension runs only once you allowed all of its content). ` +
        `Keep build output and dependencies out of its directory, or install it globally. Log: ${t.logPath}`,
    );
  };
  const count = (bytes: number): void => {
    if (++budget.entries > bounds.maxEntries) refuse(`its directory has more than ${bounds.maxEntries} entries (files and directories)`);
    budget.bytes += bytes;
    if (budget.bytes > bounds.maxBytes) refuse(`its files hold more than ${bounds.maxBytes / 1024 / 1024} MiB`);
  };
  try {
    const entries = await walk(t, count);
    entries.push(...(await namedOutside(t, count)));
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const digests = await mapLimited(entries, FINGERPRINT_PARALLEL_READS, (e) => (e.kind === 'file' ? fileDigest(e.abs, e.size) : Promise.resolve(e.note)));
    const h = createHash('sha256');
    const parts = new Map<string, string>();
    entries.forEach((e, i) => {
      h.update(`${e.kind}\0${e.key}\0${digests[i]}\n`);
      parts.set(e.key, `${e.kind}\0${digests[i]}`);
    });
    return { ok: true, fingerprint: h.digest('hex'), entries: budget.entries, bytes: budget.bytes, parts };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, error: e.message };
    return { ok: false, error: `${t.name} (${t.dir}) not started: its content could not be read for the consent fingerprint: ${(e as Error).message}. Log: ${t.logPath}` };
  }
}

/** Every entry of `t.dir` (breadth first), counted against the bounds as it is found. */
async function walk(t: FingerprintTarget, count: (bytes: number) => void): Promise<Entry[]> {
  const out: Entry[] = [];
  const seen = new Set<string>([await fs.realpath(t.dir)]);
  const queue: string[] = [''];
  for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
    const names = (await fs.readdir(path.join(t.dir, rel))).sort();
    const stats = await Promise.all(names.map((n) => statOrUndefined(path.join(t.dir, rel, n))));
    for (let i = 0; i < names.length; i++) {
      const key = rel ? `${rel}/${names[i]}` : names[i]!;
      const abs = path.join(t.dir, key);
      const st = stats[i];
      if (!st) {
        count(0);
        out.push({ key, kind: 'dangling', abs, size: 0, note: await fs.readlink(abs).catch(() => '?') });
      } else if (st.isFile()) {
        count(st.size);
        out.push({ key, kind: 'file', abs, size: st.size, note: '' });
      } else if (st.isDirectory()) {
        count(0);
        if (t.shallow) continue; // a sibling directory of a top-level e file is another extension
        const real = await fs.realpath(abs);
        if (seen.has(real)) {
          out.push({ key, kind: 'seen-dir', abs, size: 0, note: real });
          continue;
        }
        seen.add(real);
        out.push({ key, kind: 'dir', abs, size: 0, note: '' });
        queue.push(key);
      } else {
        count(0);
        out.push({ key, kind: 'other', abs, size: 0, note: `mode ${st.mode.toString(8)}` });
      }
    }
  }
  return out;
}

/** The files outside the directory that `exec`, an argument or the manifest path name. */
async function namedOutside(t: FingerprintTarget, count: (bytes: number) => void): Promise<Entry[]> {
  const named = [t.manifestPath, ...(t.exec && (execIsRelativePath(t.exec) || path.isAbsolute(t.exec)) ? [resolveExec(t.dir, t.exec)] : []), ...(t.args ?? []).map((a) => path.resolve(t.dir, a))];
  const out: Entry[] = [];
  for (const abs of new Set(named)) {
    if (t.shallow ? path.dirname(abs) === t.dir : isInside(abs, t.dir)) continue; // walked already
    const st = await statOrUndefined(abs);
    if (!st?.isFile()) continue; // an option, not a file
    const key = `named:${abs}`;
    if (t.folders.some((f) => isInside(abs, f))) {
      count(st.size);
      out.push({ key, kind: 'file', abs, size: st.size, note: '' });
    } else {
      out.push({ key, kind: 'stamp', abs, size: 0, note: `${st.size}:${st.mtimeMs}:${st.ino}` });
    }
  }
  return out;
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

async function statOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(p);
  } catch {
    return undefined;
  }
}

/** sha-256 of the first `size` bytes of `file` (its size when walked), read in chunks. */
async function fileDigest(file: string, size: number): Promise<string> {
  const h = createHash('sha256');
  // Non-blocking: a file swapped for a FIFO since it was walked must not hang the fingerprint.
  const fh = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    if (!(await fh.stat()).isFile()) return 'not a regular file';
    const buf = Buffer.allocUnsafe(Math.min(FINGERPRINT_READ_CHUNK_BYTES, Math.max(size, 1)));
    let done = 0;
    while (done < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - done), done);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
      done += bytesRead;
    }
    return `${done}:${h.digest('hex')}`;
  } finally {
    await fh.close();
  }
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
