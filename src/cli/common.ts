/**
 * What every `zut-host` subcommand shares: the option table, usage errors and exit codes, output, the host's
 * choices (a project's own extensions start only with `--allow-project`), and running a host for one invocation
 * (src/runtime's `cli` shell: always stopped afterwards, also on Ctrl+C; a second Ctrl+C kills at once).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import pkg from '../../package.json';
import type { ExtensionHost } from '../host/api';
import type { LoadReport } from '../host/types';
import { sanitizeText } from '../host/terminalText';
import type { HostUi } from '../host/hostUi';
import { NullHostUi } from '../host/hostUi';
import { HostRuntime } from '../runtime/runtime';
import type { HostChoices } from '../runtime/recipe';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import type { ConsentOptions } from '../host/extensions/consent';
import { parsePin, pinnedConsent } from '../host/extensions/pins';
import { allowProject, type ProjectScan } from './project';
import { stopSignals } from './signals';
import { HOOK_AGENTS } from '../hooks/names';

export const VERSION = pkg.version;

export const USAGE = `usage:
  zut-host doctor  [--cwd DIR] [--allow-project] [--ext DIR]... [--json]
  zut-host command [--cwd DIR] [--allow-project] [--ext DIR]... [--timeout MS] [--keys KEYS | --keys-file FILE] [-q] NAME [ARGS...]
  zut-host tool    [--cwd DIR] [--allow-project] [--ext DIR]... [--timeout MS] [--keys KEYS | --keys-file FILE] [-q] NAME ['JSON']
  zut-host new     --lang ts|python|go|sh [--dir DIR] NAME
  zut-host trace   --ext DIR [--cwd DIR] [--timeout MS] [command NAME [ARGS...] | tool NAME ['JSON']]
  zut-host mcp     [--cwd DIR] [--allow-project [--pin ID=FP]...] [--ext DIR]... [--timeout MS] [--window]
                   serve the tools over MCP (stdio); --window: through the zut window that published its relay
                   (zut's agent plugin), else by itself
  zut-host hook    [--agent AGENT] [--allow-project] [--no-warm] EVENT   an agent's hook (JSON on stdin)
  zut-host hook    install|uninstall --agent AGENT --scope user|workspace [--cwd DIR]
                   [--with-mcp | --command-hooks]   (claude: mcp_tool hooks through zut's MCP server, or commands;
                   other agents: --with-mcp also writes (removes) zut's MCP server in the agent's configuration)
  zut-host hook    host [--cwd DIR] [--allow-project] [--idle-timeout S] | host status [--json] | host stop [--cwd DIR]
  zut-host ext     list | doctor | install | remove | enable | disable | logs   (zut-host ext --help)

  --cwd DIR        project directory (sent as hello_ack.cwd); it must exist. Default: cwd
  --allow-project  also start the project's own extensions (.zut/extensions, .zot/extensions, .e/extensions under
                   --cwd): code from the repository. Without it they are listed, not started
  --pin ID=FP      with --allow-project (repeatable): start a project extension only while its content has this
                   consent fingerprint (ID: its folder relative to --cwd); any other is held. "Copy MCP Client
                   Configuration…" writes them
  --ext, -e PATH   load this extension for this run (repeatable; wins over installed copies): a zut or zot
                   extension folder, an e extension file or folder (recognised by its layout)
  --json           doctor: print {"extensions":[...],"errors":[...]}
  --timeout MS     command/tool/mcp: reply timeout (defaults: command 30000, tool 60000)
  --keys KEYS      command/tool: keys to send once a panel opens: characters, and <enter> <esc> <up> <down>
                   <left> <right> <tab> <backspace> <delete> <home> <end> <pageup> <pagedown> <lt>
                   (without --keys, a panel that opens fails the call at once)
  --keys-file FILE the same, read from FILE (each line break is <enter>)
  --quiet, -q      command/tool: do not print notify/status/panel lines on stderr
  --lang LANG      new: ts (the zut TypeScript SDK), python, go or sh
  --dir DIR        new: the extensions directory to create NAME in. Default: <cwd>/.zut/extensions
  --verbose, -v    copy extensions' stderr to stderr
  --agent AGENT    hook: whose hook this is (${HOOK_AGENTS.join(', ')}). Default: vscode
  --scope SCOPE    hook install/uninstall: user (~/.copilot/hooks, ~/.claude) or workspace (.github/hooks, .claude)
  --with-mcp       hook install --agent claude: also configure zut's MCP server for Claude Code (.mcp.json, or
                   ~/.claude.json for --scope user) and answer the hooks through it (mcp_tool). Without either flag,
                   mcp_tool hooks when zut's MCP server is already configured for Claude Code, else commands
  --command-hooks  hook install --agent claude: command hooks (a process per call), whatever is configured
  --allow-project  hook: also run the project extensions of the input's cwd (or $ZUT_ALLOW_PROJECT=1)
  --no-warm        hook: answer here (or through a window on the folder); neither ask nor start a warm hook host
  --idle-timeout S hook host: exit after S seconds without a call (default 600; $ZUT_HOOK_HOST_IDLE_SECONDS)
  --no-zot         do not load zot extensions (.zot/extensions, $ZOT_HOME/extensions)
  --no-e           do not load e extensions (.e/extensions, ~/.e/extensions)
  $ZUT_HOME        zut's home (global extensions, logs)
  $ZOT_HOME        zot's home (default $XDG_STATE_HOME/zot, else the platform's, as for zut)
  $ZUT_ALLOW_PROJECT=1  the same as --allow-project (CI)
`;

export class UsageError extends Error {}
export class Interrupted extends Error {}

export const EXIT = { ok: 0, error: 1, usage: 2, interrupted: 130 } as const;

const OPTIONS = {
  cwd: { type: 'string' },
  ext: { type: 'string', short: 'e', multiple: true },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  keys: { type: 'string' },
  'keys-file': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  lang: { type: 'string' },
  dir: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  'no-zot': { type: 'boolean' },
  'no-e': { type: 'boolean' },
  agent: { type: 'string' },
  'allow-project': { type: 'boolean' },
  pin: { type: 'string', multiple: true },
  scope: { type: 'string' },
  'with-mcp': { type: 'boolean' },
  'command-hooks': { type: 'boolean' },
  'idle-timeout': { type: 'string' },
  'after-pid': { type: 'string' },
  'no-warm': { type: 'boolean' },
  window: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type Parsed = ReturnType<typeof parse>;

/** Options that only some subcommands take. */
const ONLY: Record<string, readonly string[]> = {
  json: ['doctor', 'hook'],
  'idle-timeout': ['hook'],
  'after-pid': ['hook'],
  'no-warm': ['hook'],
  window: ['mcp'],
  timeout: ['command', 'tool', 'trace', 'mcp'],
  keys: ['command', 'tool'],
  'keys-file': ['command', 'tool'],
  quiet: ['command', 'tool'],
  lang: ['new'],
  dir: ['new'],
  agent: ['hook'],
  scope: ['hook'],
  'with-mcp': ['hook'],
  'command-hooks': ['hook'],
  'no-zot': ['doctor', 'command', 'tool', 'mcp', 'hook'],
  'no-e': ['doctor', 'command', 'tool', 'mcp', 'hook'],
  'allow-project': ['doctor', 'command', 'tool', 'mcp', 'hook'],
  pin: ['doctor', 'command', 'tool', 'mcp'],
};

export function parse(argv: string[]) {
  return parseVerb(argv, OPTIONS, ONLY, (opt, subs) => `--${opt} is for ${subs.join(' and ')}`);
}

/**
 * Parses `argv` strictly with `options`; an option that `only` reserves for other verbs than the first positional
 * is a usage error (`notFor` says it). Shared by the verbs and `ext`'s verbs.
 */
export function parseVerb<O extends ParseArgsConfig['options']>(
  argv: string[],
  options: O,
  only: Readonly<Record<string, readonly string[]>>,
  notFor: (opt: string, verbs: readonly string[], verb: string) => string,
) {
  let p;
  try {
    p = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const verb = p.positionals[0];
  if (verb !== undefined) {
    for (const [opt, verbs] of Object.entries(only)) {
      if ((p.values as Record<string, unknown>)[opt] !== undefined && !verbs.includes(verb)) throw new UsageError(notFor(opt, verbs, verb));
    }
  }
  return p;
}

export function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Untrusted text for stderr, one line. */
export function errLine(text: string): void {
  process.stderr.write(sanitizeText(text) + '\n');
}

function timeoutOf(p: Parsed): number | undefined {
  if (p.values.timeout === undefined) return undefined;
  const ms = Number(p.values.timeout);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds`);
  return ms;
}

/** A session of its own for one CLI run. */
export function cliSession(p: Parsed): { id: string; cwd: string } {
  return { id: `zut-host-${randomUUID()}`, cwd: cwdOf(p) };
}

/** `--cwd` (default: the process's), which must be an existing directory: else a usage error naming it. */
export function cwdOf(p: Parsed): string {
  return checkedCwd(p.values.cwd);
}

/**
 * The one check of a `--cwd` value (the verbs' and `ext`'s): resolved against the process's, it must be an existing
 * directory, else a usage error worded by `say` (`why`: `no such directory` or `not a directory`).
 */
export function checkedCwd(value: string | undefined, say = (cwd: string, why: string) => `--cwd ${cwd}: ${why}`): string {
  const cwd = path.resolve(value ?? process.cwd());
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    throw new UsageError(say(cwd, 'no such directory'));
  }
  if (!st.isDirectory()) throw new UsageError(say(cwd, 'not a directory'));
  return cwd;
}

/**
 * The host's choices of a headless run (every verb that starts extensions: doctor, command, tool, mcp, hook; the
 * runtime's recipe adds what each kind of shell fixes: src/runtime/recipe.ts): the project's own extensions only with
 * `--allow-project` (else no folder at all: project.ts), `$ZUT_HOME`, `--ext`, zot and e unless `--no-zot` /
 * `--no-e`, the reply timeout.
 */
export function hostOptions(p: Parsed): Omit<HostChoices, 'ui'> {
  const timeout = timeoutOf(p);
  const consent = pinsOf(p);
  return {
    folders: allowProject(p.values) ? [cwdOf(p)] : [],
    ...(consent && { consent }),
    zutHome: resolveZutHome(),
    extensionPaths: (p.values.ext ?? []).map((d) => path.resolve(d)),
    ...(!p.values['no-zot'] && { zot: { home: resolveZotHome() } }),
    ...(!p.values['no-e'] && { e: { home: resolveEHome() } }),
    hostVersion: VERSION,
    ...(timeout !== undefined && { commandTimeoutMs: timeout, toolTimeoutMs: timeout }),
  };
}

/** `--pin`s as consent for exactly that content (pins.ts); undefined without any. Needs `--allow-project`. */
function pinsOf(p: Parsed): ConsentOptions | undefined {
  if (!p.values.pin?.length) return undefined;
  if (!allowProject(p.values)) throw new UsageError('--pin pins project extensions: it needs --allow-project');
  try {
    return pinnedConsent(cwdOf(p), p.values.pin.map(parsePin));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Where the project extensions this run holds back are (project.ts), or undefined when it starts them. */
export function heldScan(p: Parsed): ProjectScan | undefined {
  if (allowProject(p.values)) return undefined;
  return {
    cwd: cwdOf(p),
    zutHome: resolveZutHome(),
    ...(!p.values['no-zot'] && { zot: { home: resolveZotHome() } }),
    ...(!p.values['no-e'] && { e: { home: resolveEHome() } }),
  };
}

/**
 * Enters the project directory: extensions are told the Manager's first folder, else its own cwd, as theirs
 * (`hello_ack.cwd`), and a run that holds the project back gives the Manager no folder. Call it once every
 * relative path of the command line was resolved; `--cwd` is absolute from then on.
 */
export function enterProject(p: Parsed): void {
  const cwd = cwdOf(p);
  process.chdir(cwd);
  p.values.cwd = cwd;
}

/** The pids of every extension process the host has now (a forced stop kills their groups: signals.ts). */
export function extensionPids(host: ExtensionHost): number[] {
  return host.extensions().flatMap((e) => (e.pid ? [e.pid] : []));
}

/**
 * Builds and starts the host for this run (the runtime's `cli` shell); `run` gets it, and it is always stopped
 * afterwards. The first SIGINT/SIGTERM interrupts the run and stops the extensions gracefully; a second one kills them
 * at once (signals.ts).
 */
export async function withHost<T>(
  p: Parsed,
  run: (host: ExtensionHost, report: LoadReport) => Promise<T>,
  extra: { ui?: HostUi; options?: Partial<HostChoices>; onHost?: (host: ExtensionHost) => void } = {},
): Promise<T> {
  const options = hostOptions(p);
  enterProject(p);
  const runtime = new HostRuntime('cli', { ...options, ui: extra.ui ?? new NullHostUi(), ...extra.options });
  const host = runtime.manager;
  extra.onHost?.(host);
  if (p.values.verbose) runtime.copyLogs(errLine);
  let interrupt!: () => void;
  const interrupted = new Promise<never>((_, reject) => (interrupt = () => reject(new Interrupted())));
  interrupted.catch(() => undefined); // observed below; never an unhandled rejection
  const signals = stopSignals(interrupt, () => extensionPids(host), EXIT.interrupted);
  try {
    const report = await Promise.race([runtime.start(), interrupted]);
    return await Promise.race([run(host, report), interrupted]);
  } finally {
    await runtime.shutdown();
    signals.dispose();
  }
}

/** Load errors on stderr (command/tool; the doctor shows them in its report). */
export async function reportLoadErrors(report: LoadReport): Promise<void> {
  for (const e of report.errors) await write(process.stderr, sanitizeText(`zut-host: ${e.ext}: ${e.message}`) + '\n');
}
