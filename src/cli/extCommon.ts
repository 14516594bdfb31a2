/**
 * What the `zut-host ext` verbs share: their option table and parser, `--cwd`, and finding installed extensions by
 * name through discovery (nothing is started).
 */
import { discover } from '../host/disk/discovery';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import type { DiscoveredExtension } from '../host/types';
import { checkedCwd, parseVerb, UsageError } from './common';

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

/**
 * The one argument after `ext VERB` (a NAME unless `what` says otherwise): missing or followed by more, a usage
 * error.
 */
export function oneName(verb: string, positionals: string[], what = { needs: 'a NAME', one: 'NAME' }): string {
  const [, name, ...extra] = positionals;
  if (!name) throw new UsageError(`ext ${verb} needs ${what.needs}`);
  if (extra.length > 0) throw new UsageError(`ext ${verb} takes one ${what.one}`);
  return name;
}

/** `--cwd` (default: the current directory), which must be a directory (common.ts `checkedCwd`, in ext's words). */
export function cwdOf(v: ExtValues): string {
  return checkedCwd(v.cwd, (cwd) => `--cwd ${cwd} is not a directory`);
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
