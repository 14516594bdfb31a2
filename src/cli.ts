#!/usr/bin/env node
/**
 * `zut-host`: the headless host CLI. It runs the same discovery → spawn → handshake path as the VS Code
 * extension (the Manager), then reports or makes one request, and always shuts every extension down.
 *
 *   zut-host doctor  [--cwd DIR] [--ext DIR]… [--json]
 *   zut-host command [--cwd DIR] [--ext DIR]… [--timeout MS] NAME [ARGS…]
 *   zut-host tool    [--cwd DIR] [--ext DIR]… [--timeout MS] NAME ['JSON']
 *   zut-host mcp     [--cwd DIR] [--ext DIR]… [--timeout MS]   (an MCP server over stdio: src/mcp/stdio.ts)
 *
 * Like `zut --ext`, the `--ext` directories are loaded in addition to (and win over) the project extensions of
 * `--cwd` and the global ones of `$ZUT_HOME`. Exit codes: 0 ok; 1 an extension/request error (doctor: any
 * extension in error); 2 usage; 130 interrupted.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import pkg from '../package.json';
import type { ExtensionHost, LoadReport } from './host/api';
import { buildDoctorReport, doctorHasErrors, doctorJson, doctorText, sanitizeText } from './host/doctor';
import { NullHostUi } from './host/hostUi';
import { Manager } from './host/manager';
import { resolveZutHome } from './host/paths';
import { RequestError } from './host/types';
import { runMcpStdio } from './mcp/stdio';

const USAGE = `usage:
  zut-host doctor  [--cwd DIR] [--ext DIR]... [--json]
  zut-host command [--cwd DIR] [--ext DIR]... [--timeout MS] NAME [ARGS...]
  zut-host tool    [--cwd DIR] [--ext DIR]... [--timeout MS] NAME ['JSON']
  zut-host mcp     [--cwd DIR] [--ext DIR]... [--timeout MS]   serve the tools over MCP (stdio)

  --cwd DIR      project directory (its .zut/extensions are loaded; sent as hello_ack.cwd). Default: cwd
  --ext, -e DIR  load this extension directory for this run (repeatable; wins over installed copies)
  --json         doctor: print {"extensions":[...],"errors":[...]}
  --timeout MS   command/tool: reply timeout (defaults: command 30000, tool 60000)
  --verbose, -v  copy extensions' stderr to stderr
  $ZUT_HOME      zut's home (global extensions, logs)
`;

class UsageError extends Error {}

const EXIT = { ok: 0, error: 1, usage: 2, interrupted: 130 } as const;

const OPTIONS = {
  cwd: { type: 'string' },
  ext: { type: 'string', short: 'e', multiple: true },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type Parsed = ReturnType<typeof parse>;

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

function timeoutOf(p: Parsed): number | undefined {
  if (p.values.timeout === undefined) return undefined;
  const ms = Number(p.values.timeout);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds`);
  return ms;
}

/** Builds and starts the Manager for this run; `run` gets it, and it is always stopped afterwards. */
async function withHost<T>(p: Parsed, run: (host: ExtensionHost, report: LoadReport) => Promise<T>): Promise<T> {
  const timeout = timeoutOf(p);
  const cwd = path.resolve(p.values.cwd ?? process.cwd());
  const manager = new Manager({
    folders: [cwd],
    zutHome: resolveZutHome(),
    extensionPaths: (p.values.ext ?? []).map((d) => path.resolve(d)),
    ui: new NullHostUi(),
    hostVersion: pkg.version,
    provider: 'zut-host',
    model: 'none',
    autoRestart: false,
    ...(timeout !== undefined && { commandTimeoutMs: timeout, toolTimeoutMs: timeout }),
  });
  const logs = p.values.verbose
    ? manager.onDidLog((l) => {
        if (l.kind === 'stderr' || l.kind === 'host') process.stderr.write(sanitizeText(`[${l.ext}] ${l.text}`) + '\n');
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
  }
}

class Interrupted extends Error {}

/** Load errors on stderr (command/tool; the doctor shows them in its report). */
async function reportLoadErrors(report: LoadReport): Promise<void> {
  for (const e of report.errors) await write(process.stderr, sanitizeText(`zut-host: ${e.ext}: ${e.message}`) + '\n');
}

async function doctor(p: Parsed): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError(`doctor takes no arguments`);
  return withHost(p, async (host, load) => {
    const report = buildDoctorReport(host.extensions(), load.errors);
    await write(process.stdout, p.values.json ? doctorJson(report) : doctorText(report));
    return doctorHasErrors(report) ? EXIT.error : EXIT.ok;
  });
}

async function command(p: Parsed): Promise<number> {
  const [, name, ...rest] = p.positionals;
  if (!name) throw new UsageError('command needs a NAME');
  return withHost(p, async (host, load) => {
    await reportLoadErrors(load);
    if (!host.commands().some((c) => c.name.toLowerCase() === name.toLowerCase())) {
      const known = host.commands().map((c) => c.name).join(', ') || 'none';
      await write(process.stderr, sanitizeText(`zut-host: no command "${name}" (registered: ${known})`) + '\n');
      return EXIT.error;
    }
    const response = await host.invokeCommand(name, rest.join(' ').trim());
    await write(process.stdout, JSON.stringify(response, null, 2) + '\n');
    return response.action === 'error' ? EXIT.error : EXIT.ok;
  });
}

async function tool(p: Parsed): Promise<number> {
  const [, name, json, ...extra] = p.positionals;
  if (!name) throw new UsageError('tool needs a NAME');
  if (extra.length > 0) throw new UsageError(`tool takes NAME and one JSON argument (quote it)`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (e) {
      throw new UsageError(`tool arguments are not valid JSON: ${(e as Error).message}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new UsageError('tool arguments must be a JSON object');
  }
  return withHost(p, async (host, load) => {
    await reportLoadErrors(load);
    if (!host.allTools().some((t) => t.name === name)) {
      const known = host.allTools().map((t) => t.name).join(', ') || 'none';
      await write(process.stderr, sanitizeText(`zut-host: no tool "${name}" (registered: ${known})`) + '\n');
      return EXIT.error;
    }
    const session = { id: `zut-host-${randomUUID()}`, cwd: path.resolve(p.values.cwd ?? process.cwd()) };
    const result = await host.invokeTool(name, args, { session, origin: 'cli' });
    await write(process.stdout, JSON.stringify(result, null, 2) + '\n');
    return result.isError ? EXIT.error : EXIT.ok;
  });
}

async function main(argv: string[]): Promise<number> {
  try {
    const p = parse(argv);
    if (p.values.version) {
      await write(process.stdout, `zut-host ${pkg.version}\n`);
      return EXIT.ok;
    }
    const sub = p.positionals[0];
    if (p.values.help || sub === undefined || sub === 'help') {
      await write(sub === undefined && !p.values.help ? process.stderr : process.stdout, USAGE);
      return sub === undefined && !p.values.help ? EXIT.usage : EXIT.ok;
    }
    if (p.values.json && sub !== 'doctor') throw new UsageError('--json is for doctor');
    if (p.values.timeout !== undefined && sub === 'doctor') throw new UsageError('--timeout is for command and tool');
    switch (sub) {
      case 'doctor':
        return await doctor(p);
      case 'command':
        return await command(p);
      case 'tool':
        return await tool(p);
      case 'mcp':
        if (p.positionals.length > 1) throw new UsageError('mcp takes no arguments');
        return await runMcpStdio({
          cwd: path.resolve(p.values.cwd ?? process.cwd()),
          zutHome: resolveZutHome(),
          extensionPaths: (p.values.ext ?? []).map((d) => path.resolve(d)),
          version: pkg.version,
          timeoutMs: timeoutOf(p),
          verbose: p.values.verbose,
        });
      default:
        throw new UsageError(`unknown subcommand "${sub}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      await write(process.stderr, `zut-host: ${e.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (e instanceof Interrupted) return EXIT.interrupted;
    const msg = e instanceof RequestError ? `${e.kind}: ${e.message}` : e instanceof Error ? e.message : String(e);
    await write(process.stderr, sanitizeText(`zut-host: ${msg}`) + '\n');
    return EXIT.error;
  }
}

// Exit explicitly once output is flushed and every extension stopped: nothing may keep the CLI alive.
void main(process.argv.slice(2)).then((code) => process.exit(code));
