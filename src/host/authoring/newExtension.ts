/**
 * "Zut: New Extension…" and `zut-host new`: writes a minimal, working extension (one command, one tool) in
 * TypeScript (with the SDK), Python, Go or POSIX sh. VS Code-free; the VS Code command and the CLI only ask
 * for the language, name and place.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { NEW_EXTENSION_NAME_MAX } from '../../protocol/limits';
import { exists } from '../disk/install';
import { MANIFEST_FILE } from '../disk/manifest';
import type { Template, TemplateVars } from './templates/common';
import { goTemplate } from './templates/go';
import { pythonTemplate } from './templates/python';
import { shTemplate } from './templates/sh';
import { tsTemplate } from './templates/ts';

/** The languages a new extension can be written in. */
export const NEW_EXTENSION_LANGS = ['ts', 'python', 'go', 'sh'] as const;
export type NewExtensionLang = (typeof NEW_EXTENSION_LANGS)[number];

/** Labels for pickers. */
export const LANG_LABELS: Record<NewExtensionLang, string> = {
  ts: 'TypeScript (zut SDK; runs on Node 20.6+ with no build step or install)',
  python: 'Python 3 (standard library)',
  go: 'Go 1.19+ (standard library; built on start)',
  sh: 'POSIX shell (sh + sed/awk)',
};

const TEMPLATES: Record<NewExtensionLang, Template> = { ts: tsTemplate, python: pythonTemplate, go: goTemplate, sh: shTemplate };

/** The SDK files a TypeScript extension gets in `sdk/` (built by scripts/sdk.mjs into dist/sdk). */
export const SDK_FILES = ['index.js', 'index.d.ts', 'types.d.ts', 'frames.d.ts'] as const;
/** The TypeScript transform its run.js loads .ts files through, also in dist/sdk and copied to `sdk/`. */
export const TS_TRANSFORM_FILE = 'sucrase.js';

export interface NewExtensionOptions {
  lang: NewExtensionLang;
  name: string;
  /** The extensions directory the new `<name>/` goes into (a project's `.zut/extensions`, `$ZUT_HOME/extensions`). */
  root: string;
  /** Where the built SDK and TypeScript transform are (dist/sdk next to the bundle); required for `ts`. */
  sdkDir?: string;
  /**
   * Called with the staging directory once every file is written, before it is renamed into place: what it holds
   * is exactly what the extension will be (VS Code records consent for that content: gates.ts `allowOwnContent`).
   */
  beforeCommit?: (staging: string) => Promise<void>;
}

export interface NewExtension {
  name: string;
  dir: string;
  manifestPath: string;
  /** The file to open (absolute). */
  mainFile: string;
  command: string;
  tool: string;
  /** Every file written, relative to `dir`. */
  files: string[];
}

const NAME_RE = new RegExp(`^[a-z][a-z0-9-]{0,${NEW_EXTENSION_NAME_MAX - 1}}$`);

/** Why a name is unusable, or undefined. Lower case letters, digits and dashes, starting with a letter. */
export function newExtensionNameProblem(name: string): string | undefined {
  if (!NAME_RE.test(name)) {
    return `invalid extension name ${JSON.stringify(name)}: use lower-case letters, digits and dashes, starting with a letter (at most ${NEW_EXTENSION_NAME_MAX})`;
  }
  return undefined;
}

/** The command and tool names a new extension registers: `/<name>` and `<name_with_underscores>_greet`. */
function templateVars(name: string): TemplateVars {
  return { name, command: name, tool: `${name.replace(/-/g, '_')}_greet` };
}

export function isNewExtensionLang(s: string): s is NewExtensionLang {
  return (NEW_EXTENSION_LANGS as readonly string[]).includes(s);
}

/**
 * Writes `<root>/<name>/` with `extension.json` and the language's files: into `<root>/.staging-<random>` first
 * (a dot directory discovery skips), renamed into place once complete, so the extension appears whole. Refuses an
 * existing directory. On failure nothing half-written is left behind.
 */
export async function createNewExtension(o: NewExtensionOptions): Promise<NewExtension> {
  const problem = newExtensionNameProblem(o.name);
  if (problem) throw new Error(problem);
  const t = TEMPLATES[o.lang];
  const vars = templateVars(o.name);
  const dir = path.join(path.resolve(o.root), o.name);
  const files = t.files(vars);
  const sdk: { from: string; to: string }[] = [];
  if (o.lang === 'ts') {
    if (!o.sdkDir) throw new Error('the TypeScript template needs the built SDK (sdkDir)');
    for (const f of [...SDK_FILES, TS_TRANSFORM_FILE]) sdk.push({ from: path.join(o.sdkDir, f), to: path.join('sdk', f) });
    await Promise.all(sdk.map((s) => fs.access(s.from).catch(() => Promise.reject(new Error(`the zut SDK is missing: ${s.from} (build it with npm run build)`)))));
  }
  const taken = (): Error => new Error(`${dir} already exists: pick another name`);
  if (await exists(dir)) throw taken();
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const staging = path.join(path.dirname(dir), `.staging-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(staging);
  try {
    const manifest = {
      name: o.name,
      version: '0.1.0',
      description: `${o.name}: a zut extension (one command, one tool)`,
      exec: t.exec,
      ...(t.args ? { args: t.args } : {}),
      language: t.language,
    };
    await fs.writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    for (const f of files) {
      const target = path.join(staging, f.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, f.content, { mode: f.executable ? 0o755 : 0o644 });
    }
    for (const s of sdk) {
      await fs.mkdir(path.dirname(path.join(staging, s.to)), { recursive: true });
      await fs.copyFile(s.from, path.join(staging, s.to));
    }
    await o.beforeCommit?.(staging);
    // rename(2) would replace an empty directory: refuse one that appeared meanwhile.
    if (await exists(dir)) throw taken();
    await fs.rename(staging, dir);
  } catch (e) {
    await fs.rm(staging, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    manifestPath: path.join(dir, MANIFEST_FILE),
    mainFile: path.join(dir, t.main),
    ...vars,
    files: [MANIFEST_FILE, ...files.map((f) => f.path), ...sdk.map((s) => s.to)],
  };
}

