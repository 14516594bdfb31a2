/**
 * `zut-host mcp`: a project's zut extensions as an MCP server over stdio, for any MCP client (VS Code's mcp.json,
 * Claude Desktop, Cursor, Zed, …). Its own host (discovery as usual: `--cwd`'s project, `$ZUT_HOME`, `--ext`),
 * the same handler and guards as agent mode. stdout carries only MCP messages; diagnostics go to stderr.
 * Stops every extension (shutdown → grace → SIGTERM → SIGKILL) on stdin EOF, SIGTERM and SIGINT.
 */
import type { Readable, Writable } from 'node:stream';
import { sanitizeText } from '../host/disk/doctor';
import { Emitter } from '../host/events';
import { NullHostUi, type NoteLevel } from '../host/hostUi';
import { Manager } from '../host/manager';
import { readMessages } from './lines';
import { Outbox } from './outbox';
import { McpConnection, McpSessions, type ExtensionProgress } from './server';

export interface McpStdioOptions {
  cwd: string;
  zutHome: string;
  extensionPaths: string[];
  version: string;
  /** Reply timeout of non-interactive tools (ms); the spec's 60 s when omitted. */
  timeoutMs?: number;
  /** Copy extensions' stderr to our stderr. */
  verbose?: boolean;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
}

/** Extension notes and status lines become progress of that extension's running call. */
class ProgressUi extends NullHostUi {
  readonly emitter = new Emitter<ExtensionProgress>();
  override notify(ext: string, _level: NoteLevel, message: string): void {
    this.emitter.fire({ ext, message });
  }
  override status(ext: string, _key: string, _level: string | undefined, text: string): void {
    if (text) this.emitter.fire({ ext, message: text });
  }
}

/** Serves until stdin ends or a signal arrives; resolves with the exit code once every extension stopped. */
export async function runMcpStdio(o: McpStdioOptions): Promise<number> {
  const stdin = o.stdin ?? process.stdin;
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const ui = new ProgressUi();
  const host = new Manager({
    folders: [o.cwd],
    zutHome: o.zutHome,
    extensionPaths: o.extensionPaths,
    ui,
    hostVersion: o.version,
    provider: 'mcp',
    model: 'none',
    autoRestart: true,
    ...(o.timeoutMs !== undefined && { toolTimeoutMs: o.timeoutMs, commandTimeoutMs: o.timeoutMs }),
  });
  const logs = host.onDidLog((l) => {
    if (o.verbose && (l.kind === 'stderr' || l.kind === 'host')) stderr.write(sanitizeText(`[${l.ext}] ${l.text}`) + '\n');
  });
  const fails = host.onDidFail((f) => stderr.write(sanitizeText(`zut-host mcp: ${f.message}`) + '\n'));
  // Written with backpressure, progress coalesced; a client that stops reading or a broken pipe ends the session.
  let clientGone = (): void => undefined;
  const outbox = new Outbox(stdout, (reason) => {
    stderr.write(`zut-host mcp: ${reason}\n`);
    clientGone();
  });
  const send = (m: object) => outbox.send(m);
  const conn = new McpConnection(
    { host, serverVersion: o.version, origin: 'mcp', progress: ui.emitter.event, cwd: o.cwd },
    new McpSessions(host, o.cwd),
    send,
  );

  const started = host.start();
  // Requests wait for the first load (tools/list must see the tools); initialize and ping do not need to, but
  // keeping one order is simpler for clients than racing the load.
  let queue: Promise<unknown> = started.catch(() => undefined);
  readMessages(
    stdin,
    (m) => {
      queue = queue.then(() => conn.handle(m));
    },
    send,
  );

  const stopSignal = await new Promise<NodeJS.Signals | 'eof'>((resolve) => {
    clientGone = () => resolve('eof');
    stdin.once('end', () => resolve('eof'));
    stdin.once('close', () => resolve('eof'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  conn.dispose();
  await started.catch(() => undefined);
  await host.stop();
  logs.dispose();
  fails.dispose();
  host.dispose();
  return stopSignal === 'SIGINT' ? 130 : 0;
}
