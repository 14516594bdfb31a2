/**
 * Discovery of e extensions (e spec, "Extensions"): an e extension has no manifest file. It is an executable in an
 * extensions directory, either a top-level file (`foo.mjs`) or the entry point of a directory (`foo/`), picked in
 * this order: `index.*`, a file matching the directory name (`foo`, `foo.*`), a sole executable. When two files
 * match the same rule, path order breaks the tie. The program's own manifest arrives later, in its answer to
 * `initialize`; until then the extension is known by its file stem or directory name.
 *
 * Choices where the e spec is silent (ours):
 * - A top-level file that is not executable is not an extension (READMEs and helper data sit beside them) and is
 *   skipped silently; dot-files and dot-directories are skipped.
 * - A directory with no entry point, or whose entry point is not executable, is listed as an `error` (the user put
 *   a directory there to be an extension).
 * - Windows has no executable bit: every file counts as executable there.
 */
import { promises as fs, readFileSync, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';
import { MAX_E_SETTINGS_BYTES } from '../../protocol/limits';
import type { Manifest } from '../types';
import { isExecutable } from './manifest';

/** Where an e extension's program is: its directory (cwd and identity) and its entry file. */
interface EEntry {
  /** The name before `initialize` answers: the file stem (`foo.mjs` → `foo`) or the directory name. */
  name: string;
  /** The spawn directory: the extension's own directory, or the extensions dir for a top-level file. */
  dir: string;
  /** Absolute path of the entry file (the program spawned; what consent fingerprints). */
  entry: string;
  /** True for a top-level file (its `dir` is shared with its siblings). */
  topLevel: boolean;
}

/** What reading one e extension gave: a runnable entry, or an error naming the directory. */
type EReadResult = { ok: true; entry: EEntry; manifest: Manifest } | { ok: false; name: string; dir: string; error: string };

async function statOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(p); // follows symlinks (an extension linked in place)
  } catch {
    return undefined;
  }
}

/** `foo.mjs` → `foo`; `foo` → `foo`; `.x` never reaches here. */
function fileStem(file: string): string {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

const LANGUAGES: Record<string, string> = {
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.js': 'javascript',
  '.ts': 'typescript',
  '.py': 'python',
  '.sh': 'sh',
  '.rb': 'ruby',
};

/**
 * The manifest the host works with until `initialize` answers: the entry as `exec` (`./index.mjs`, relative to
 * `dir`, so spawning, consent and the watcher treat it like a zut extension's relative exec), nothing else.
 */
export function eManifest(entry: EEntry): Manifest {
  const language = LANGUAGES[path.extname(entry.entry).toLowerCase()];
  const exec = `.${path.sep}${path.basename(entry.entry)}`;
  return { name: entry.name, exec, args: [], skills: [], enabled: true, ...(language && { language }) };
}

/**
 * The entry point of an e extension directory by the spec's rules, or why there is none. Files only (symlinks to
 * files count); `index.*` and `<dir>.*` need not be executable to be picked, but then the extension is an error.
 */
export async function pickEntryPoint(dir: string): Promise<{ entry: string } | { error: string }> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => !n.startsWith('.')).sort();
  } catch (e) {
    return { error: `read e extension directory: ${(e as Error).message}` };
  }
  const files: { name: string; st: Stats }[] = [];
  for (const name of names) {
    const st = await statOrUndefined(path.join(dir, name));
    if (st?.isFile()) files.push({ name, st });
  }
  const base = path.basename(dir);
  const rules: ((f: { name: string; st: Stats }) => boolean)[] = [
    (f) => f.name.startsWith('index.'),
    (f) => f.name === base || f.name.startsWith(base + '.'),
  ];
  for (const rule of rules) {
    const hit = files.find(rule);
    if (!hit) continue;
    if (!isExecutable(hit.st)) return { error: `e entry point ${JSON.stringify(hit.name)} is not executable (chmod +x it)` };
    return { entry: path.join(dir, hit.name) };
  }
  const executables = files.filter((f) => isExecutable(f.st));
  if (executables.length === 1) return { entry: path.join(dir, executables[0]!.name) };
  const why = executables.length === 0 ? 'no executable' : `${executables.length} executables and no index.* or ${base}.*`;
  return { error: `no e entry point in ${dir}: ${why} (e picks index.*, then ${base}.*, then a sole executable)` };
}

/** Reads one e extension: `target` is a top-level file or a directory inside an extensions dir. */
export async function readEExtension(target: string): Promise<EReadResult | undefined> {
  const st = await statOrUndefined(target);
  if (!st) return undefined;
  if (st.isFile()) {
    if (!isExecutable(st)) return undefined;
    const entry: EEntry = { name: fileStem(target), dir: path.dirname(target), entry: target, topLevel: true };
    return { ok: true, entry, manifest: eManifest(entry) };
  }
  if (!st.isDirectory()) return undefined;
  const picked = await pickEntryPoint(target);
  const name = path.basename(target);
  if ('error' in picked) return { ok: false, name, dir: target, error: picked.error };
  const entry: EEntry = { name, dir: target, entry: picked.entry, topLevel: false };
  return { ok: true, entry, manifest: eManifest(entry) };
}

/** The entries (files and directories, dot-names skipped) of an e extensions dir, sorted; none when it is missing. */
export async function listEExtensions(root: string): Promise<string[]> {
  try {
    return (await fs.readdir(root))
      .filter((n) => !n.startsWith('.'))
      .sort()
      .map((n) => path.join(root, n));
  } catch {
    return [];
  }
}

const ESettings = /* @__PURE__ */ lazySchema(() => z.object({ extensions: z.record(z.string(), z.unknown()) }));

/**
 * e's `initialize.params.extensions_config` (e spec): every entry under `"extensions"` in `<eHome>/settings.json`,
 * namespaced by extension name. A missing, malformed, oversized (`MAX_E_SETTINGS_BYTES`) or non-regular file gives `{}` (e's config is optional). Read at each start,
 * so an edit applies on the next restart.
 */
export function readEExtensionsConfig(eHome: string): Record<string, unknown> {
  try {
    const file = path.join(eHome, 'settings.json');
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_E_SETTINGS_BYTES) return {};
    const parsed = ESettings.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.extensions : {};
  } catch {
    return {};
  }
}
