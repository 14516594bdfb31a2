/**
 * The stable launcher: `<dir>/zut-host` (POSIX sh, 0755), or `<dir>/zut-host.cmd` on Windows, written by the VS Code
 * extension under its global storage on every activation, so MCP client configurations and agent hook entries can
 * name one path that survives version updates (the installed extension's folder changes with each version). Each runs
 * this installation's Node (`process.execPath`: Electron in VS Code desktop, hence `ELECTRON_RUN_AS_NODE=1`, which
 * plain Node ignores) with its `dist/cli.js`; `hook EVENT` goes to the small `dist/hook.js` when that file exists
 * (`hook install|uninstall` stay with the CLI); when the CLI is gone (the extension updated or removed, VS Code not
 * started since) it says so and exits 1. It tells the CLI its own path (`ZUT_HOST_LAUNCHER`, taken out of the
 * environment at the CLI's start so no child inherits it), so `zut-host hook install` run through it writes entries
 * that run the launcher too. A file is rewritten only when its text or mode changes, and replaced, never written
 * through: it is ours (in our global storage), unlike the user's files the careful writer (host/disk/userFile.ts)
 * keeps links of, so a link placed at its path is replaced and its target left as it was. A new launcher goes to a
 * temporary file created exclusively in the same folder, then is renamed over the path, so an agent running it
 * mid-update sees the old or the new launcher, never half of one.
 * VS Code-free.
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** What a launcher runs: absolute paths of this installation. */
export interface LauncherTarget {
  node: string;
  cli: string;
  /** The fast hook entry, used when it exists at run time. */
  hook: string;
  /** Said in the launcher's comment (which version wrote it). */
  version: string;
}

/** The launchers' file names in their directory. */
const LAUNCHER_POSIX = 'zut-host';
const LAUNCHER_WINDOWS = 'zut-host.cmd';

/** The variable a launcher sets to its own absolute path for the CLI it runs. */
const LAUNCHER_ENV = 'ZUT_HOST_LAUNCHER';

let taken: { value: string | undefined } | undefined;

/**
 * The launcher this process was started through (absolute, existing), or undefined; the first call also deletes the
 * variable from the environment, so extensions and other children never inherit it.
 */
export function takeLauncherEnv(): string | undefined {
  if (!taken) {
    const v = process.env[LAUNCHER_ENV];
    delete process.env[LAUNCHER_ENV];
    taken = { value: v && path.isAbsolute(v) && existsSync(v) ? v : undefined };
  }
  return taken.value;
}

/** The launcher a command line on `platform` runs. */
export function launcherPath(dir: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? path.win32.join(dir, LAUNCHER_WINDOWS) : path.join(dir, LAUNCHER_POSIX);
}

/** A word in POSIX sh single quotes. */
export const shQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** A word nothing in it makes special to cmd.exe or PowerShell (written bare). */
const PLAIN_WORD = /^[\w\-.:\\/]+$/;

/**
 * A word for PowerShell: in single quotes, where nothing expands (`$(…)`, `$env:X`, backticks are literal); a quote
 * is doubled, including the typographic ones PowerShell also takes for quotes. A line break is refused.
 */
export function psQuote(s: string): string {
  if (/[\r\n]/.test(s)) throw new Error(`a line break cannot be written into a PowerShell command: ${JSON.stringify(s)}`);
  return `'${s.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

/**
 * A word for cmd.exe: bare when plain, else in double quotes (where `&`, `|`, `<`, `>`, `^` are literal). `%` and
 * `!` expand even inside them and a `"` cannot be quoted at all, so a word holding one (or a line break) is refused.
 */
export function cmdQuote(s: string): string {
  if (PLAIN_WORD.test(s)) return s;
  const bad = /["%!\r\n]/.exec(s)?.[0];
  if (bad !== undefined) throw new Error(`${JSON.stringify(s)} holds ${JSON.stringify(bad)}, which cmd.exe expands or cannot quote: it cannot be written into a Windows command line (rename the folder, or use the JSON configuration)`);
  return `"${s}"`;
}

/** A PowerShell command line running `words[0]` (the call operator `&`, every word in single quotes but plain ones). */
export function psCommandLine(words: readonly string[]): string {
  return `& ${words.map((w, i) => (i > 0 && PLAIN_WORD.test(w) ? w : psQuote(w))).join(' ')}`;
}

/** A path in cmd.exe double quotes (`%` doubled in a batch file; a `"` cannot be written). */
function cmdPath(s: string, batch: boolean): string {
  if (s.includes('"') || /[\r\n]/.test(s)) throw new Error(`a path with a double quote or a line break cannot be written into a Windows command: ${s}`);
  return `"${batch ? s.replaceAll('%', '%%') : s}"`;
}

/** The POSIX launcher's text; `self` is where it is written. */
export function posixLauncher(t: LauncherTarget, self: string): string {
  for (const p of [t.node, t.cli, t.hook, self]) if (/[\r\n]/.test(p)) throw new Error(`a path with a line break cannot be written into the launcher: ${JSON.stringify(p)}`);
  return [
    '#!/bin/sh',
    `# zut-host launcher, written by zut-vscode ${t.version} when it starts (rewritten after each update): runs this`,
    '# installation\'s Node with its CLI. Edits are overwritten.',
    `NODE=${shQuote(t.node)}`,
    `CLI=${shQuote(t.cli)}`,
    `HOOK=${shQuote(t.hook)}`,
    '# VS Code runs extensions in Electron: this makes it a plain Node (plain Node ignores it).',
    'ELECTRON_RUN_AS_NODE=1',
    'export ELECTRON_RUN_AS_NODE',
    `${LAUNCHER_ENV}=${shQuote(self)}`,
    `export ${LAUNCHER_ENV}`,
    'if [ ! -f "$CLI" ]; then',
    "  printf 'zut-host: %s is gone (zut-vscode was updated or removed): start VS Code once to rewrite this launcher\\n' \"$CLI\" >&2",
    '  exit 1',
    'fi',
    'if [ "$1" = hook ] && [ "$2" != install ] && [ "$2" != uninstall ] && [ -f "$HOOK" ]; then',
    '  exec "$NODE" "$HOOK" "$@"',
    'fi',
    'exec "$NODE" "$CLI" "$@"',
    '',
  ].join('\n');
}

/** The Windows launcher's text (CRLF line ends). */
export function windowsLauncher(t: LauncherTarget): string {
  const [node, cli, hook] = [t.node, t.cli, t.hook].map((p) => cmdPath(p, true));
  return [
    '@echo off',
    `rem zut-host launcher, written by zut-vscode ${t.version.replace(/[^\w.+-]/g, '')} when it starts (rewritten after each update).`,
    'setlocal',
    'set "ELECTRON_RUN_AS_NODE=1"',
    `set "${LAUNCHER_ENV}=%~f0"`,
    `if exist ${cli} goto run`,
    `echo zut-host: ${cli} is gone, zut-vscode was updated or removed: start VS Code once to rewrite this launcher 1>&2`,
    'exit /b 1',
    ':run',
    'if not "%~1"=="hook" goto cli',
    'if "%~2"=="install" goto cli',
    'if "%~2"=="uninstall" goto cli',
    `if not exist ${hook} goto cli`,
    `${node} ${hook} %*`,
    'exit /b %ERRORLEVEL%',
    ':cli',
    `${node} ${cli} %*`,
    'exit /b %ERRORLEVEL%',
    '',
  ].join('\r\n');
}

/**
 * What the launcher at `file` holds, when it is a regular file of mode 0755 (not a link: opened without following one,
 * checked by fstat of what was opened) of `size` bytes; else undefined (it is to be replaced).
 */
async function currentText(file: string, size: number, mode: number): Promise<string | undefined> {
  let fh: fs.FileHandle;
  try {
    // Windows has no O_NOFOLLOW: there a link is told by its lstat.
    if (process.platform === 'win32' && (await fs.lstat(file)).isSymbolicLink()) return undefined;
    fh = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined; // none yet, or a link
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size !== size || (process.platform !== 'win32' && (st.mode & 0o777) !== mode)) return undefined;
    return await fh.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/**
 * Puts `text` at `file` (mode 0755: anyone may run it, only its owner change it): a temporary file created
 * exclusively (`wx`) under a random name in its folder, fsynced, renamed over the path (whatever is there, a link
 * included, is replaced), the folder fsynced.
 */
async function replaceFile(file: string, text: string, mode: number): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.zut-${randomBytes(8).toString('hex')}.tmp`);
  const fh = await fs.open(tmp, 'wx', mode);
  try {
    try {
      await fh.writeFile(text, 'utf8');
      if (process.platform !== 'win32') await fh.chmod(mode); // the umask took bits off
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
  const d = process.platform === 'win32' ? undefined : await fs.open(dir, 'r').catch(() => undefined); // (not on Windows)
  if (!d) return;
  try {
    await d.sync().catch(() => undefined);
  } finally {
    await d.close();
  }
}

/**
 * Writes `text` to `file` (`mode`, 0755 by default) unless it already holds exactly that; true when it wrote. The file is replaced,
 * never written through (see the header).
 */
export async function writeIfChanged(file: string, text: string, mode = 0o755): Promise<boolean> {
  if ((await currentText(file, Buffer.byteLength(text), mode)) === text) return false;
  await replaceFile(file, text, mode);
  return true;
}

/** Writes this platform's launcher into `dir` when it changed; returns its path and whether it was written. */
export async function ensureLauncher(dir: string, t: LauncherTarget, platform: NodeJS.Platform = process.platform): Promise<{ launcher: string; written: boolean }> {
  const launcher = launcherPath(dir, platform);
  const written = await writeIfChanged(launcher, platform === 'win32' ? windowsLauncher(t) : posixLauncher(t, launcher));
  return { launcher, written };
}
