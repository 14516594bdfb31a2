/**
 * A fingerprint of every manifest the Manager would discover: each extensions directory's entries and the size
 * and mtime of their `extension.json`, kept per extension directory. The file watcher reloads only when it differs
 * from the fingerprint of the running set, and restarts an extension for its manifest only when that one's stamp
 * differs, so late or duplicate watcher events (our own install, remove or enable/disable) do not restart
 * everything again. Also the sorting of changed paths and the files a watcher follows. Imports no `vscode`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FILE_TIME_SLACK_MS } from '../../protocol/limits';
import { execIsRelativePath, MANIFEST_FILE, resolveExec } from './manifest';

async function manifestStamp(dir: string): Promise<string> {
  try {
    const st = await fs.stat(path.join(dir, MANIFEST_FILE));
    return `${st.size}@${st.mtimeMs}`;
  } catch {
    return '-';
  }
}

/**
 * The manifests' fingerprint, one stamp per extension directory (each root's entries, and each explicit path):
 * compared whole to tell that extensions came, went or changed, and per directory to tell that one extension's
 * manifest changed (a restart stores only its own stamp, so it never hides another one's pending change).
 */
export class ManifestStamps {
  constructor(private readonly stamps: ReadonlyMap<string, string>) {}

  /** Whether `other` holds the same directories with the same stamps. */
  equals(other: ManifestStamps | undefined): boolean {
    if (!other || other.stamps.size !== this.stamps.size) return false;
    for (const [dir, stamp] of this.stamps) if (other.stamps.get(dir) !== stamp) return false;
    return true;
  }

  /** Whether extension directory `dir` is one of ours (then `stampOf` compares it alone). */
  has(dir: string): boolean {
    return this.stamps.has(path.resolve(dir));
  }

  stampOf(dir: string): string | undefined {
    return this.stamps.get(path.resolve(dir));
  }

  /** These stamps with `dir`'s taken from `from` (gone when `from` has none). */
  with(dir: string, from: ManifestStamps): ManifestStamps {
    const key = path.resolve(dir);
    const next = new Map(this.stamps);
    const stamp = from.stamps.get(key);
    if (stamp === undefined) next.delete(key);
    else next.set(key, stamp);
    return new ManifestStamps(next);
  }

  toString(): string {
    return [...this.stamps].map(([dir, stamp]) => `${dir}=${stamp}`).join('\n');
  }
}

/**
 * The stamps of `roots` (directories holding one extension directory per entry) and `explicit` (extension
 * directories themselves). A missing root has no entries.
 */
export async function manifestStamps(roots: readonly string[], explicit: readonly string[]): Promise<ManifestStamps> {
  const stamps = new Map<string, string>();
  for (const root of roots) {
    let entries: string[];
    try {
      entries = (await fs.readdir(root)).sort();
    } catch {
      entries = [];
    }
    const dirs = entries.map((e) => path.resolve(root, e));
    const each = await Promise.all(dirs.map((d) => manifestStamp(d)));
    dirs.forEach((d, i) => stamps.set(d, each[i]!));
  }
  for (const dir of explicit) stamps.set(path.resolve(dir), await manifestStamp(dir));
  return new ManifestStamps(stamps);
}

/** The fingerprint of `roots` and `explicit` as one string (`manifestStamps`). */
export async function manifestSignature(roots: readonly string[], explicit: readonly string[]): Promise<string> {
  return (await manifestStamps(roots, explicit)).toString();
}

/**
 * Sorts changed paths: a loaded extension's manifest or a file inside its directory → restart that extension
 * (`manifest` or `executable`); anything else (a directory that came or went, an unknown manifest) → `other`.
 */
export function changedExtensions(
  paths: readonly string[],
  extensions: readonly { name: string; dir: string; manifestPath: string; state: string; ecosystem?: string }[],
): { restart: Map<string, 'manifest' | 'executable'>; other: string[]; files: Map<string, string[]> } {
  const restart = new Map<string, 'manifest' | 'executable'>();
  const other: string[] = [];
  const files = new Map<string, string[]>();
  // An e extension's `manifestPath` is its entry file (its program: a change restarts it like an executable's), and
  // a top-level one shares its directory with its siblings: only that file counts.
  const owns = (e: (typeof extensions)[number], p: string) => p === e.manifestPath || (e.ecosystem !== 'e' && p.startsWith(e.dir + path.sep));
  for (const p of paths) {
    const ext = extensions.find((e) => e.state !== 'shadowed' && owns(e, p));
    if (!ext) {
      other.push(p);
      continue;
    }
    files.set(ext.name, [...(files.get(ext.name) ?? []), p]);
    if (p === ext.manifestPath && ext.ecosystem !== 'e') restart.set(ext.name, 'manifest');
    else if (!restart.has(ext.name)) restart.set(ext.name, 'executable');
  }
  return { restart, other, files };
}

/**
 * Whether any of `files` may have changed at or after `since` (ms since epoch): its mtime is not clearly older
 * (`FILE_TIME_SLACK_MS`), or it cannot be read, or its mtime is a whole second (a filesystem with coarse timestamps
 * cannot tell; assume it changed). A running extension whose changed files are all older than its process already
 * runs them: a late watcher event (files copied in just before a reload started it) is no reason to restart it.
 */
export async function modifiedSince(files: readonly string[], since: number): Promise<boolean> {
  for (const f of files) {
    try {
      const { mtimeMs } = await fs.stat(f);
      if (mtimeMs >= since - FILE_TIME_SLACK_MS || mtimeMs % 1000 === 0) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * The files whose change restarts an extension (the watcher's targets besides its manifest): its executable when
 * that is a relative path, every argument naming a file inside its directory (`node main.js`, a Go extension's
 * `main.go`), and its skills' SKILL.md files (the restart reads their names and descriptions again, and a project
 * extension's changed skill passes the consent gate like changed code). Its consent fingerprint covers more (its
 * whole directory: extensions/fingerprint.ts), checked at every spawn.
 */
export function watchedFiles(ext: { dir: string; exec?: string; args?: readonly string[]; skills?: readonly { path: string }[] }): string[] {
  const files = ext.exec && execIsRelativePath(ext.exec) ? [resolveExec(ext.dir, ext.exec)] : [];
  const inside = (p: string) => p.startsWith(ext.dir + path.sep) && !files.includes(p);
  for (const a of ext.args ?? []) {
    const p = path.resolve(ext.dir, a);
    if (inside(p)) files.push(p);
  }
  for (const s of ext.skills ?? []) if (inside(s.path)) files.push(s.path);
  return files;
}
