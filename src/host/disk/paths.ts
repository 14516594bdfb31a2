/**
 * Where zut keeps its state: `$ZUT_HOME`, its global `extensions/` directory and per-extension stderr logs.
 * Pure functions of (env, platform, home) so every platform's rule is testable on any machine.
 */
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

/** Path helpers of the target platform (Windows paths must be joined with `\` even when tested on Linux). */
function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** An environment value that is set and non-empty (an empty `ZUT_HOME=` means "unset", as in zut). */
function envValue(env: NodeJS.ProcessEnv, key: string): string | undefined {
  const v = env[key];
  return v !== undefined && v !== '' ? v : undefined;
}

/**
 * Resolves `$ZUT_HOME`: `ZUT_HOME`, else `$XDG_STATE_HOME/zut` (any platform), else the platform default:
 * `~/Library/Application Support/zut` (macOS), `%LOCALAPPDATA%\zut` (Windows, falling back to
 * `~\AppData\Local\zut`), `~/.local/state/zut` (Linux and every other platform).
 */
export function resolveZutHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  homedir: string = os.homedir(),
): string {
  return resolveStateHome('zut', env, platform, homedir);
}

/**
 * Resolves `$ZOT_HOME` by the same rule as zut's (zot spec, "Layout & discovery"): `ZOT_HOME`, else
 * `$XDG_STATE_HOME/zot`, else `~/Library/Application Support/zot` (macOS), `%LOCALAPPDATA%\zot` (Windows),
 * `~/.local/state/zot` (elsewhere).
 */
export function resolveZotHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  homedir: string = os.homedir(),
): string {
  return resolveStateHome('zot', env, platform, homedir);
}

/** `$<APP>_HOME`, else `$XDG_STATE_HOME/<app>`, else the platform's state directory for `<app>`. */
function resolveStateHome(app: 'zut' | 'zot', env: NodeJS.ProcessEnv, platform: NodeJS.Platform, homedir: string): string {
  const p = pathFor(platform);
  const explicit = envValue(env, `${app.toUpperCase()}_HOME`);
  if (explicit) return explicit;
  const xdg = envValue(env, 'XDG_STATE_HOME');
  if (xdg) return p.join(xdg, app);
  switch (platform) {
    case 'darwin':
      return p.join(homedir, 'Library', 'Application Support', app);
    case 'win32': {
      const local = envValue(env, 'LOCALAPPDATA');
      return local ? p.join(local, app) : p.join(homedir, 'AppData', 'Local', app);
    }
    default:
      return p.join(homedir, '.local', 'state', app);
  }
}

/** `~/.e`: e's home (e spec: extensions live in `~/.e/extensions/`, settings in `~/.e/settings.json`). */
export function resolveEHome(homedir: string = os.homedir()): string {
  return path.join(homedir, '.e');
}

/** `<zutHome>/extensions`: where `zut ext install` puts extensions (scope `global`). */
export function globalExtensionsDir(zutHome: string): string {
  return path.join(zutHome, 'extensions');
}

/** `<folder>/.zut/extensions`: the project-local extensions of one workspace folder. */
export function projectExtensionsDir(folder: string): string {
  return path.join(folder, '.zut', 'extensions');
}

/** `<folder>/.zot/extensions`: the project-local zot extensions of one workspace folder (zot spec). */
export function zotProjectExtensionsDir(folder: string): string {
  return path.join(folder, '.zot', 'extensions');
}

/**
 * `<folder>/.e/extensions`: project-local e extensions. The e spec names only `~/.e/extensions/` and a package's
 * `extensions/` directory; this mirrors the global layout inside the project (ours), so a repository can ship e
 * extensions the way it ships `.zut/extensions` (and they are gated the same way).
 */
export function eProjectExtensionsDir(folder: string): string {
  return path.join(folder, '.e', 'extensions');
}

/** Where a host's extensions live: its folders' project directories and the global ones (zut's; zot's and e's when loaded). */
export interface ExtensionHomes {
  folders: readonly string[];
  zutHome: string;
  zot?: { home: string };
  e?: { home: string };
}

/** Every extensions directory a host with `h` loads from (discovery's, the Loader's fingerprint, the watchers'). */
export function extensionRoots(h: ExtensionHomes): string[] {
  return [
    ...h.folders.map(projectExtensionsDir),
    globalExtensionsDir(h.zutHome),
    ...(h.zot ? [...h.folders.map(zotProjectExtensionsDir), globalExtensionsDir(h.zot.home)] : []),
    ...(h.e ? [...h.folders.map(eProjectExtensionsDir), globalExtensionsDir(h.e.home)] : []),
  ];
}

/** `<zutHome>/logs`. */
export function logsDir(zutHome: string): string {
  return path.join(zutHome, 'logs');
}

/**
 * `<zutHome>/logs/ext-<name>.log`, the extension's append-mode stderr log. The name comes from a manifest,
 * so anything that could leave the logs directory (separators, `..`, control characters) is replaced by `_`.
 */
export function logPathFor(zutHome: string, name: string): string {
  return path.join(logsDir(zutHome), `ext-${safeFileName(name)}.log`);
}

/**
 * `<zutHome>/project-data/<name>-<16 hex of sha-256(dir)>`: the `data_dir` of an extension that is the
 * repository's code (a project extension, or one inside a workspace folder). zut's default, its own directory, is
 * part of the content its consent is given for (extensions/fingerprint.ts): state kept there would ask for consent
 * again after every use. Outside the repository, per extension directory (so per workspace folder), the same in the
 * VS Code window, the hooks' headless host and `zut-host --allow-project`.
 */
export function projectDataDir(zutHome: string, dir: string, name: string): string {
  const hash = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  return path.join(zutHome, 'project-data', `${safeFileName(name)}-${hash}`);
}

/** A file-name-safe version of an extension name (identity for ordinary names). */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[/\\:*?"<>|\x00-\x1f\x7f]/g, '_');
  // `.` and `..` alone would name a directory, not a file.
  if (/^\.*$/.test(cleaned)) return cleaned.replace(/\./g, '_') || '_';
  return cleaned;
}
