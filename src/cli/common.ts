/**
 * What every `zut-host` subcommand shares: the option table, usage errors and exit codes, output, and running
 * the Manager for one invocation (always stopped afterwards, also on Ctrl+C).
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import pkg from '../../package.json';
import type { ExtensionHost, ManagerOptions } from '../host/api';
import type { LoadReport } from '../host/types';
import { sanitizeText } from '../host/disk/doctor';
import type { HostUi } from '../host/hostUi';
import { NullHostUi } from '../host/hostUi';
import { Manager } from '../host/manager';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';

export const VERSION = pkg.version;

export const USAGE = `usage:
  zut-host doctor  [--cwd DIR] [--ext DIR]... [--json]
  zut-host command [--cwd DIR] [--ext DIR]... [--timeout MS] [--keys KEYS | --keys-file FILE] [-q] NAME [ARGS...]
  zut-host tool    [--cwd DIR] [--ext DIR]... [--timeout MS] [--keys KEYS | --keys-file FILE] [-q] NAME ['JSON']
  zut-host new     --lang ts|python|go|sh [--dir DIR] NAME
  zut-host trace   --ext DIR [--cwd DIR] [--timeout MS] [command NAME [ARGS...] | tool NAME ['JSON']]
  zut-host mcp     [--cwd DIR] [--ext DIR]... [--timeout MS]   serve the tools over MCP (stdio)
  zut-host hook    [--agent vscode|copilot-cli|claude] [--allow-project] EVENT   an agent's hook (JSON on stdin)
  zut-host hook    install|uninstall --agent vscode|copilot-cli|claude --scope user|workspace [--cwd DIR]
  zut-host ext     list | doctor | install | remove | enable | disable | logs   (zut-host ext --help)

  --cwd DIR        project directory (its .zut/extensions are loaded; sent as hello_ack.cwd). Default: cwd
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
  --agent AGENT    hook: whose hook this is (vscode, copilot-cli, claude). Default: vscode
  --scope SCOPE    hook install/uninstall: user (~/.copilot/hooks, ~/.claude) or workspace (.github/hooks, .claude)
  --allow-project  hook: also run the project extensions of the input's cwd (or $ZUT_ALLOW_PROJECT=1)
  --no-zot         do not load zot extensions (.zot/extensions, $ZOT_HOME/extensions)
  --no-e           do not load e extensions (.e/extensions, ~/.e/extensions)
  $ZUT_HOME        zut's home (global extensions, logs)
  $ZOT_HOME        zot's home (default $XDG_STATE_HOME/zot, else the platform's, as for zut)
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
  scope: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type Parsed = ReturnType<typeof parse>;

/** Options that only some subcommands take. */
const ONLY: Record<string, readonly string[]> = {
  json: ['doctor'],
  timeout: ['command', 'tool', 'trace', 'mcp'],
  keys: ['command', 'tool'],
  'keys-file': ['command', 'tool'],
  quiet: ['command', 'tool'],
  lang: ['new'],
  dir: ['new'],
  agent: ['hook'],
  'allow-project': ['hook'],
  scope: ['hook'],
  'no-zot': ['doctor', 'command', 'tool', 'mcp'],
  'no-e': ['doctor', 'command', 'tool', 'mcp'],
};

export function parse(argv: string[]) {
  let p;
  try {
    p = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const sub = p.positionals[0];
  if (sub !== undefined) {
    for (const [opt, subs] of Object.entries(ONLY)) {
      if ((p.values as Record<string, unknown>)[opt] !== undefined && !subs.includes(sub)) throw new UsageError(`--${opt} is for ${subs.join(' and ')}`);
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

export function timeoutOf(p: Parsed): number | undefined {
  if (p.values.timeout === undefined) return undefined;
  const ms = Number(p.values.timeout);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds`);
  return ms;
}

/** Builds and starts the Manager for this run; `run` gets it, and it is always stopped afterwards. */
/** A session of its own for one CLI run. */
export function cliSession(p: Parsed): { id: string; cwd: string } {
  return { id: `zut-host-${randomUUID()}`, cwd: path.resolve(p.values.cwd ?? process.cwd()) };
}

export async function withHost<T>(
  p: Parsed,
  run: (host: ExtensionHost, report: LoadReport) => Promise<T>,
  extra: { ui?: HostUi; options?: Partial<ManagerOptions>; onHost?: (host: ExtensionHost) => void } = {},
): Promise<T> {
  const timeout = timeoutOf(p);
  const cwd = path.resolve(p.values.cwd ?? process.cwd());
  const manager = new Manager({
    folders: [cwd],
    zutHome: resolveZutHome(),
    extensionPaths: (p.values.ext ?? []).map((d) => path.resolve(d)),
    ...(!p.values['no-zot'] && { zot: { home: resolveZotHome() } }),
    ...(!p.values['no-e'] && { e: { home: resolveEHome() } }),
    ui: extra.ui ?? new NullHostUi(),
    hostVersion: VERSION,
    provider: 'zut-host',
    model: 'none',
    autoRestart: false,
    ...(timeout !== undefined && { commandTimeoutMs: timeout, toolTimeoutMs: timeout }),
    ...extra.options,
  });
  extra.onHost?.(manager);
  const logs = p.values.verbose
    ? manager.onDidLog((l) => {
        if (l.kind === 'stderr' || l.kind === 'host') errLine(`[${l.ext}] ${l.text}`);
      })
    : undefined;
  const interrupted = new Promise<never>((_, reject) => {
    process.once('SIGINT', () => reject(new Interrupted()));
    process.once('SIGTERM', () => reject(new Interrupted()));
  });
  interrupted.catch(() => undefined); // observed below; never an unhandled rejection
  try {
    const report = await Promise.race([manager.start(), interrupted]);
    return await Promise.race([run(manager, report), interrupted]);
  } finally {
    await manager.stop();
    logs?.dispose();
    manager.dispose();
  }
}

/** Load errors on stderr (command/tool; the doctor shows them in its report). */
export async function reportLoadErrors(report: LoadReport): Promise<void> {
  for (const e of report.errors) await write(process.stderr, sanitizeText(`zut-host: ${e.ext}: ${e.message}`) + '\n');
}
