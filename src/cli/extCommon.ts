/**
 * What the `zut-host ext` verbs share: their option table and parser, `--cwd`, and finding installed extensions by
 * name through discovery (nothing is started).
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { discover } from '../host/disk/discovery';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import type { DiscoveredExtension } from '../host/types';
import { parseVerb, UsageError } from './common';

const EXT_OPTIONS = {
  cwd: { type: 'string' },
  json: { type: 'boolean' },
  dir: { type: 'string' },
  build: { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  follow: { type: 'boolean', short: 'f' },
  'no-zot': { type: 'boolean' },
  'no-e': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Options that only some verbs take. */
const ONLY: Record<string, readonly string[]> = {
  cwd: ['list', 'remove', 'enable', 'disable', 'logs'],
  json: ['list'],
  dir: ['install'],
  build: ['install'],
  'dry-run': ['install'],
  yes: ['install'],
  follow: ['logs'],
  'no-zot': ['list', 'remove', 'enable', 'disable', 'logs'],
  'no-e': ['list', 'remove', 'enable', 'disable', 'logs'],
};

export type ExtValues = ReturnType<typeof parseExt>['values'];

/** Parses `argv` after `ext`; an unknown option, or one the verb does not take, is a usage error. */
export function parseExt(argv: string[]) {
  return parseVerb(argv, EXT_OPTIONS, ONLY, (opt, _verbs, verb) => `--${opt} is not an option of ext ${verb}`);
}

/** `--cwd` (default: the current directory), which must be a directory. */
export function cwdOf(v: ExtValues): string {
  const cwd = path.resolve(v.cwd ?? process.cwd());
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`--cwd ${cwd} is not a directory`);
  return cwd;
}

/** What discovery finds for this project and $ZUT_HOME (and zot's and e's, unless --no-zot / --no-e); nothing runs. */
export function installed(v: ExtValues): Promise<DiscoveredExtension[]> {
  return discover({
    folders: [cwdOf(v)],
    zutHome: resolveZutHome(),
    ...(!v['no-zot'] && { zot: { home: resolveZotHome() } }),
    ...(!v['no-e'] && { e: { home: resolveEHome() } }),
  });
}

/** Every copy named `name` (exact names first, else case-insensitively), in discovery's priority order. */
export function named(all: DiscoveredExtension[], name: string): DiscoveredExtension[] {
  const exact = all.filter((e) => e.name === name);
  return exact.length > 0 ? exact : all.filter((e) => e.name.toLowerCase() === name.toLowerCase());
}
