/**
 * Discovery: which extensions exist, where, and which copy of each name wins.
 *
 * Search order (zut's "Layout & discovery", plus one-run paths): explicit paths (`--ext`,
 * `zut.extensionPaths`) > each workspace folder's `.zut/extensions/<dir>/` in folder order >
 * `$ZUT_HOME/extensions/<dir>/`. Choices where the spec is silent:
 * - A directory in a search dir without `extension.json` is not an extension and is skipped silently (zut "reads
 *   every extension.json"; leftover state-only directories are common). An explicit path without one IS an error,
 *   since the user named it.
 * - Directories whose name starts with `.` are skipped (hidden dirs, install staging dirs).
 * - Symlinks to directories are followed (a common way to develop an extension in place).
 * - Only entries that would run (`enabled`, `theme-only`) claim their name. A `disabled` copy does not shadow a
 *   lower-priority copy, and is reported as `disabled` even when a higher-priority copy exists; an `error` entry
 *   claims nothing (its name is only the directory's name).
 * - The same directory reached twice (an explicit path inside a search dir, a repeated workspace folder) is
 *   listed once, with the higher-priority scope.
 *
 * An explicit path is recognised by its layout (explicitLayout.ts): a zut or zot folder, an e file or folder.
 *
 * Sibling ecosystems (`zut.compat.zot`, `zut.compat.e`; issue 13), searched after all of zut's dirs so that a name
 * present in two ecosystems is zut's and the other copy is `shadowed`: zot's `.zot/extensions/<dir>/` per folder,
 * then `$ZOT_HOME/extensions/<dir>/` (the same `extension.json`), then e's `.e/extensions/` per folder and
 * `~/.e/extensions/` (executables; discoverE.ts). Project-local copies of both are scope `project`: blocked in an
 * untrusted workspace and subject to consent exactly like zut's.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readEExtension, listEExtensions } from './discoverE';
import { explicitLayout } from './explicitLayout';
import { MANIFEST_FILE, readManifest } from './manifest';
import { eProjectExtensionsDir, globalExtensionsDir, projectExtensionsDir, zotProjectExtensionsDir } from './paths';
import { loadSkills } from './skills';
import type { DiscoveredExtension, Ecosystem, Manifest, Scope, Skill } from '../types';

export interface DiscoverOptions {
  /** Workspace folders, in order (absolute). */
  folders: string[];
  zutHome: string;
  /** One-run extension directories; each is an extension directory itself. Relative paths resolve against cwd. */
  explicit?: string[];
  /**
   * Scopes whose extensions cannot run now (an untrusted workspace blocks project and explicit ones): they are
   * listed but claim no name, so the extension of the same name from a running scope is not shadowed by them.
   */
  blockedScopes?: Scope[];
  /** False: skip `$ZUT_HOME/extensions` (`zut-host trace` runs just its `--ext`). Default true. */
  searchGlobal?: boolean;
  /** Also read zot extensions (`zut.compat.zot`): `.zot/extensions` per folder and `<home>/extensions` ($ZOT_HOME). */
  zot?: { home: string };
  /** Also read e extensions (`zut.compat.e`): `.e/extensions` per folder and `<home>/extensions` (`~/.e`). */
  e?: { home: string };
}

/** A directory to read, with where it came from. `rank` orders candidates: lower wins. */
interface Candidate {
  dir: string;
  scope: Scope;
  folder?: string;
  rank: number;
  /** Explicit paths must have a manifest; search-dir entries without one are skipped. */
  required: boolean;
  ecosystem: Ecosystem;
  /** An explicit path that is no extension layout at all: listed as an error with this message. */
  layoutError?: string;
}

const SCOPE_RANK: Record<Scope, number> = { explicit: 0, project: 1, global: 2 };
const ECOSYSTEM_RANK: Record<Ecosystem, number> = { zut: 0, zot: 1, e: 2 };

/**
 * What names one extension in `shadowedBy` and in the same-directory check: its directory, or for an e extension
 * its entry file (top-level e files share their directory).
 */
export function identity(ext: Pick<DiscoveredExtension, 'dir' | 'manifestPath' | 'ecosystem'>): string {
  return ext.ecosystem === 'e' ? ext.manifestPath : ext.dir;
}

/** The subdirectories (or symlinks to directories) of an extensions dir, sorted, dot-dirs skipped. */
async function listExtensionDirs(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch {
    return []; // no extensions dir (or unreadable): nothing installed there
  }
  const dirs = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.'))
      .map(async (e) => {
        const p = path.join(root, e.name);
        if (e.isDirectory()) return p;
        if (!e.isSymbolicLink()) return undefined;
        try {
          return (await fs.stat(p)).isDirectory() ? p : undefined;
        } catch {
          return undefined; // dangling symlink
        }
      }),
  );
  return dirs.filter((d): d is string => d !== undefined).sort();
}

/** A key identifying a directory, so the same one reached by two routes is read once. */
async function dirKey(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return dir;
  }
}

async function readCandidate(c: Candidate): Promise<DiscoveredExtension | undefined> {
  if (c.ecosystem === 'e') return readECandidate(c);
  const manifestPath = path.join(c.dir, MANIFEST_FILE);
  const base = {
    dir: c.dir,
    manifestPath,
    scope: c.scope,
    ...(c.folder !== undefined && { folder: c.folder }),
    ...(c.ecosystem !== 'zut' && { ecosystem: c.ecosystem }),
  };
  if (c.layoutError !== undefined) return { ...base, name: path.basename(c.dir), status: 'error', error: c.layoutError, diagnostics: [], skills: [] };
  if (!c.required) {
    try {
      await fs.lstat(manifestPath);
    } catch {
      return undefined; // not an extension
    }
  }
  const r = await readManifest(c.dir);
  if (!r.ok) {
    return { ...base, name: path.basename(c.dir), status: 'error', error: r.error, diagnostics: [], skills: [] };
  }
  const { skills, diagnostics } = await loadSkills(c.dir, r.manifest.skills);
  return {
    ...base,
    name: r.manifest.name,
    manifest: r.manifest,
    status: !r.manifest.enabled ? 'disabled' : r.themeOnly ? 'theme-only' : 'enabled',
    diagnostics: [...r.diagnostics, ...diagnostics],
    skills,
  };
}

/** An e candidate: a top-level executable or a directory with an entry point (discoverE.ts). */
async function readECandidate(c: Candidate): Promise<DiscoveredExtension | undefined> {
  const r = await readEExtension(c.dir);
  if (!r) return undefined;
  const where = { scope: c.scope, ...(c.folder !== undefined && { folder: c.folder }), ecosystem: 'e' as const, eTarget: c.dir };
  if (!r.ok) return { name: r.name, dir: r.dir, manifestPath: r.dir, ...where, status: 'error', error: r.error, diagnostics: [], skills: [] };
  const { entry, manifest } = r;
  return { name: entry.name, dir: entry.dir, manifestPath: entry.entry, ...where, manifest, status: 'enabled', diagnostics: [], skills: [] };
}

/** A manifest read again: what discovery would find now (its diagnostics and skills included). */
export type RereadResult = { ok: true; manifest: Manifest; diagnostics: string[]; skills: Skill[] } | { ok: false; error: string };

/**
 * The manifest of a discovered extension, read again (a restart): `extension.json` for zut and zot (with its
 * skills, as discovery loads them), the entry point rules for e (the entry may have changed; an e extension is
 * never `enabled: false`). Its diagnostics replace the old ones: a fixed manifest leaves none behind.
 */
export async function rereadManifest(ext: Pick<DiscoveredExtension, 'dir' | 'manifestPath' | 'ecosystem' | 'eTarget'>): Promise<RereadResult> {
  if (ext.ecosystem !== 'e') {
    const r = await readManifest(ext.dir);
    if (!r.ok) return r;
    const { skills, diagnostics } = await loadSkills(ext.dir, r.manifest.skills);
    return { ok: true, manifest: r.manifest, diagnostics: [...r.diagnostics, ...diagnostics], skills };
  }
  const r = await readEExtension(ext.eTarget ?? ext.dir);
  return r === undefined ? { ok: false, error: `e extension ${ext.manifestPath} is gone` } : r.ok ? { ok: true, manifest: r.manifest, diagnostics: [], skills: [] } : { ok: false, error: r.error };
}

/**
 * Finds every extension in the search dirs and explicit paths, reads manifests and skills (in parallel) and
 * resolves name conflicts: zut > zot > e, and within each explicit > project (folder order) > global; losers are
 * `shadowed` with `shadowedBy` set to the winner's `identity`. Result order: ecosystem, scope priority (explicit,
 * project in folder order, global), then name, then directory.
 */
export async function discover(opts: DiscoverOptions): Promise<DiscoveredExtension[]> {
  const explicit = (opts.explicit ?? []).map((p) => path.resolve(p));
  const folders = opts.folders.map((f) => path.resolve(f));
  const global = opts.searchGlobal !== false;
  /** One ecosystem's search dirs: each folder's project dir in folder order, then the global dir. */
  const ecosystem = (eco: Ecosystem, projectDir: (folder: string) => string, globalDir: string | undefined, list: (root: string) => Promise<string[]>) => [
    ...folders.map(async (folder, i) =>
      (await list(projectDir(folder))).map((dir): Candidate => ({ dir, scope: 'project', folder, rank: 0x10000 * (i + 1), required: false, ecosystem: eco })),
    ),
    (globalDir === undefined ? Promise.resolve([] as string[]) : list(globalDir)).then((dirs) =>
      dirs.map((dir): Candidate => ({ dir, scope: 'global', rank: Number.MAX_SAFE_INTEGER, required: false, ecosystem: eco })),
    ),
  ];
  const groups: Promise<Candidate[]>[] = [
    // Each explicit path is recognised by its layout (explicitLayout.ts): zut, zot or e.
    Promise.all(
      explicit.map(async (dir, i): Promise<Candidate> => {
        const layout = await explicitLayout(dir, opts.zot?.home);
        return { dir, scope: 'explicit', rank: i, required: true, ...(layout.ok ? { ecosystem: layout.ecosystem } : { ecosystem: 'zut', layoutError: layout.error }) };
      }),
    ),
    ...ecosystem('zut', projectExtensionsDir, global ? globalExtensionsDir(opts.zutHome) : undefined, listExtensionDirs),
    ...(opts.zot ? ecosystem('zot', zotProjectExtensionsDir, global ? globalExtensionsDir(opts.zot.home) : undefined, listExtensionDirs) : []),
    ...(opts.e ? ecosystem('e', eProjectExtensionsDir, global ? globalExtensionsDir(opts.e.home) : undefined, listEExtensions) : []),
  ];
  const candidates = (await Promise.all(groups)).flat();

  // The same directory twice: keep the first (highest-priority) occurrence.
  const keys = await Promise.all(candidates.map((c) => dirKey(c.dir)));
  const seenDirs = new Set<string>();
  const unique = candidates.filter((_, i) => !seenDirs.has(keys[i]!) && seenDirs.add(keys[i]!));

  const read = await Promise.all(unique.map(async (c) => ({ c, ext: await readCandidate(c) })));
  const found = read.filter((r): r is { c: Candidate; ext: DiscoveredExtension } => r.ext !== undefined);

  // Candidates are already in priority order (zut before zot before e; within each, explicit in given order,
  // folders in order, dirs sorted).
  const winners = new Map<string, string>();
  const blocked = new Set(opts.blockedScopes ?? []);
  for (const { c, ext } of found) {
    if ((ext.status !== 'enabled' && ext.status !== 'theme-only') || blocked.has(c.scope)) continue;
    const winner = winners.get(ext.name);
    if (winner === undefined) winners.set(ext.name, identity(ext));
    else {
      ext.status = 'shadowed';
      ext.shadowedBy = winner;
    }
  }
  for (const { c, ext } of found) {
    const instead = blocked.has(c.scope) && ext.status === 'enabled' ? found.find((f) => identity(f.ext) === winners.get(ext.name)) : undefined;
    if (instead) ext.diagnostics.push(`blocked by Workspace Trust: the ${instead.c.scope} extension ${instead.ext.dir} runs instead`);
  }

  const ecoRank = (c: Candidate) => ECOSYSTEM_RANK[c.ecosystem];
  const groupRank = (c: Candidate) => (c.scope === 'explicit' ? 0 : c.scope === 'global' ? Number.MAX_SAFE_INTEGER : c.rank);
  return found
    .sort(
      (a, b) =>
        ecoRank(a.c) - ecoRank(b.c) ||
        SCOPE_RANK[a.c.scope] - SCOPE_RANK[b.c.scope] ||
        groupRank(a.c) - groupRank(b.c) ||
        cmp(a.ext.name, b.ext.name) ||
        cmp(a.ext.dir, b.ext.dir),
    )
    .map((r) => r.ext);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
