/**
 * `zut-host ext <verb>`: zut's `zut ext` (zut-extensions.md, "Managing extensions from the CLI") — list, doctor,
 * install, remove, enable, disable, logs — over the same disk state the VS Code side uses: discovery for what is
 * installed, the manifest's `enabled` (what "Enable/Disable in Manifest" in the Extensions view rewrites) and the
 * trash for remove. Only `doctor` starts extensions; the other verbs read and change files. Install and logs have
 * their own modules (extInstall.ts, extLogs.ts).
 */
import { sanitizeText } from '../host/terminalText';
import { setManifestEnabled } from '../host/disk/manifest';
import { logPathFor, resolveZutHome } from '../host/disk/paths';
import { moveToTrash } from '../host/disk/trash';
import type { DiscoveredExtension } from '../host/types';
import { EXIT, parse, UsageError, write } from './common';
import { doctor } from './doctor';
import { installed, named, oneName, parseExt, type ExtValues } from './extCommon';
import { install } from './extInstall';
import { logs } from './extLogs';

export const EXT_USAGE = `usage:
  zut-host ext list    [--cwd DIR] [--json]     installed extensions: name, version, scope, state, description
  zut-host ext doctor  [doctor's options]       the same as zut-host doctor
  zut-host ext install [--dir DIR] [--build=go [--yes]] [--dry-run] PATH|GIT-URL
                                                copy a folder, or git clone --depth 1 a URL, into $ZUT_HOME/extensions
                                                (or DIR); prints what it will run and its files; never builds unless
                                                --build=go (go build -trimpath in the staged copy, local folders only,
                                                once you accept the plan: asked on a terminal, else --yes); --dry-run
                                                runs nothing
  zut-host ext remove  [--cwd DIR] NAME         move its folder to the trash
  zut-host ext enable  [--cwd DIR] NAME         set "enabled": true in its extension.json
  zut-host ext disable [--cwd DIR] NAME         set "enabled": false in its extension.json
  zut-host ext logs    [--cwd DIR] [-f] NAME    print its stderr log ($ZUT_HOME/logs/ext-NAME.log); -f follows it
`;

const runs = (e: DiscoveredExtension): boolean => e.status === 'enabled' || e.status === 'theme-only';

/** The copy a verb acts on: the first matching `prefer`, else the one that runs, else the first; or an error. */
function target(all: DiscoveredExtension[], name: string, prefer: (e: DiscoveredExtension) => boolean = runs): DiscoveredExtension {
  const copies = named(all, name);
  const found = copies.find(prefer) ?? copies.find(runs) ?? copies[0];
  if (!found) throw new Error(`no extension named ${JSON.stringify(name)} (zut-host ext list shows what is installed)`);
  return found;
}

const ecoSuffix = (e: DiscoveredExtension): string => (e.ecosystem ? ` (${e.ecosystem})` : '');

async function list(v: ExtValues, positionals: string[]): Promise<number> {
  if (positionals.length > 1) throw new UsageError('ext list takes no arguments');
  const zutHome = resolveZutHome();
  const all = await installed(v);
  const rows = all.map((e) => ({
    name: e.name,
    ...(e.manifest?.version !== undefined && { version: e.manifest.version }),
    scope: e.scope,
    ...(e.ecosystem !== undefined && { ecosystem: e.ecosystem }),
    state: e.status,
    ...(e.manifest?.description !== undefined && { description: e.manifest.description }),
    dir: e.dir,
    ...(e.ecosystem === 'e' && { entry: e.manifestPath }),
    logPath: logPathFor(zutHome, e.name),
    ...(e.error !== undefined && { error: e.error }),
    ...(e.shadowedBy !== undefined && { shadowedBy: e.shadowedBy }),
  }));
  if (v.json) {
    await write(process.stdout, JSON.stringify({ extensions: rows }, null, 2) + '\n');
    return EXIT.ok;
  }
  if (rows.length === 0) {
    await write(process.stdout, 'no extensions installed\n');
    return EXIT.ok;
  }
  const table = [
    ['NAME', 'VERSION', 'SCOPE', 'STATE', 'DESCRIPTION'],
    ...all.map((e, i) => {
      const r = rows[i]!;
      const desc = e.error !== undefined ? e.error : e.shadowedBy !== undefined ? `shadowed by ${e.shadowedBy}` : (r.description ?? '');
      return [r.name, r.version ?? '-', r.scope + ecoSuffix(e), r.state, desc].map((c) => sanitizeText(c).replace(/\n/g, ' '));
    }),
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...table.map((row) => row[c]!.length)));
  const text = table.map((row) => row.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ').trimEnd()).join('\n');
  await write(process.stdout, text + '\n');
  return EXIT.ok;
}

async function setEnabled(v: ExtValues, positionals: string[], enabled: boolean): Promise<number> {
  const verb = enabled ? 'enable' : 'disable';
  const name = oneName(verb, positionals);
  const ext = target(await installed(v), name, enabled ? (e) => e.status === 'disabled' : runs);
  if (ext.ecosystem === 'e') {
    throw new Error(`${ext.name} is an e extension (${ext.manifestPath}): it has no manifest to ${verb}; remove it, or use "Disable (Workspace)" in VS Code`);
  }
  if ((ext.status === 'disabled') === !enabled) {
    await write(process.stdout, sanitizeText(`${ext.name} is already ${verb}d (${ext.dir})`) + '\n');
    return EXIT.ok;
  }
  // The same rewrite as the Extensions view's "Enable/Disable in Manifest" (the host's setEnabled path).
  await setManifestEnabled(ext.dir, enabled);
  await write(process.stdout, sanitizeText(`${verb}d ${ext.name} (${ext.manifestPath})`) + '\n');
  return EXIT.ok;
}

async function remove(v: ExtValues, positionals: string[]): Promise<number> {
  const name = oneName('remove', positionals);
  const ext = target(await installed(v), name);
  if (ext.ecosystem === 'e') {
    throw new Error(`${ext.name} is an e extension (${ext.manifestPath}) without an extension.json; remove it from its extensions folder yourself`);
  }
  const where = await moveToTrash(ext.dir, { zutHome: resolveZutHome() });
  const how = where.kind === 'trash' ? 'the trash' : `${where.path} (no trash here)`;
  await write(process.stdout, sanitizeText(`removed ${ext.name}: moved ${ext.dir} to ${how}`) + '\n');
  return EXIT.ok;
}

const VERBS: Record<string, (v: ExtValues, positionals: string[]) => Promise<number>> = {
  list,
  install,
  remove,
  enable: (v, p) => setEnabled(v, p, true),
  disable: (v, p) => setEnabled(v, p, false),
  logs,
};

/** Runs `zut-host ext …` (`argv` after `ext`). */
export async function ext(argv: string[]): Promise<number> {
  if (argv[0] === 'doctor') return doctor(parse(argv));
  const p = parseExt(argv);
  const verb = p.positionals[0];
  if (p.values.help || verb === undefined || verb === 'help') {
    await write(verb === undefined && !p.values.help ? process.stderr : process.stdout, EXT_USAGE);
    return verb === undefined && !p.values.help ? EXIT.usage : EXIT.ok;
  }
  const run = Object.prototype.hasOwnProperty.call(VERBS, verb) ? VERBS[verb] : undefined;
  if (!run) throw new UsageError(`unknown ext verb "${verb}" (list, doctor, install, remove, enable, disable, logs)`);
  return run(p.values, p.positionals);
}
