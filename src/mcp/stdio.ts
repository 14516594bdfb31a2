/**
 * `zut-host mcp`: a project's zut, zot and e extensions as an MCP server over stdio, for any MCP client (VS Code's
 * mcp.json, Claude Desktop, Cursor, Zed, …). Its own host (the CLI's options: `--cwd`'s project with
 * `--allow-project`, `$ZUT_HOME`, `--ext`), the same handler and guards as agent mode. stdout carries only MCP
 * messages; diagnostics go to stderr. `initialize` and `ping` never wait for an extension; tools appear as their
 * extensions become ready. Stops every extension (shutdown → grace → SIGTERM → SIGKILL; starts in progress are
 * given up) on stdin EOF, SIGTERM and SIGINT; a second signal kills them at once. Claude Code is also offered the hook
 * tool (hookTool.ts: its mcp_tool hooks answered by this host), answered at once too (it waits for starting extensions
 * itself, within the hook budget); the tool names served are published for hooks in other processes
 * (hooks/mcpServers.ts) while the server runs.
 */
import type { Readable, Writable } from 'node:stream';
import { sanitizeText } from '../host/terminalText';
import type { ExtensionHost } from '../host/api';
import { Emitter, type IDisposable } from '../host/events';
import { NullHostUi, type NoteLevel } from '../host/hostUi';
import { PIN_HELD } from '../host/extensions/pins';
import { MCP_FIRST_LOAD_WAIT_MS } from '../protocol/limits';
import type { HostChoices } from '../runtime/recipe';
import { HostRuntime } from '../runtime/runtime';
import { MCP_HOOK_TOOL } from '../hooks/mcpHook';
import { publishServed, unpublishServed } from '../hooks/mcpServers';
import { hookTool } from './hookTool';
import { readMessages } from './lines';
import { Outbox } from './outbox';
import { McpConnection, McpSessions, type ExtensionProgress } from './server';

export interface McpStdioOptions {
  /** The host's choices (the CLI's, src/cli/common.ts `hostOptions`), all but its UI: the runtime's `mcp` shell. */
  host: Omit<HostChoices, 'ui'>;
  /** The project directory (new sessions' context). */
  cwd: string;
  version: string;
  /** Copy extensions' stderr to our stderr. */
  verbose?: boolean;
  /**
   * Installs the stop signals (src/cli/signals.ts): `stop` on the first, a forced kill of `host`'s extensions on
   * the next. Omitted: only stdin's end stops the server.
   */
  signals?: (stop: (signal: NodeJS.Signals) => void, host: ExtensionHost) => IDisposable;
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

/** Requests that never wait for the extensions: the lifecycle and liveness of the server itself. */
const AT_ONCE: ReadonlySet<unknown> = new Set(['initialize', 'ping']);

/** A hook tool call: answered at once (answerHook waits for starting extensions itself, within the hook's budget). */
const isHookCall = (m: { method?: unknown; params?: unknown }) =>
  m.method === 'tools/call' && typeof m.params === 'object' && m.params !== null && (m.params as { name?: unknown }).name === MCP_HOOK_TOOL;

/** Serves until stdin ends or a signal arrives; resolves with the exit code once every extension stopped. */
export async function runMcpStdio(o: McpStdioOptions): Promise<number> {
  const stdin = o.stdin ?? process.stdin;
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const ui = new ProgressUi();
  const runtime = new HostRuntime('mcp', { ...o.host, ui });
  const host = runtime.manager;
  runtime.own(ui.emitter);
  if (o.verbose) runtime.copyLogs((line) => stderr.write(sanitizeText(line) + '\n'));
  runtime.own(host.onDidFail((f) => stderr.write(sanitizeText(`zut-host mcp: ${f.message}`) + '\n')));
  // Only a pinned run (--pin) has consent: what waits for it is content that is not the pinned one.
  runtime.own(
    host.onDidRequestConsent((pending) => {
      for (const e of pending) stderr.write(sanitizeText(`zut-host mcp: ${e.name} (${e.dir}) not started: ${PIN_HELD}`) + '\n');
    }),
  );
  let stop!: (why: NodeJS.Signals | 'eof') => void;
  const stopped = new Promise<NodeJS.Signals | 'eof'>((resolve) => (stop = resolve));
  // Written with backpressure, progress coalesced; a client that stops reading or a broken pipe ends the session.
  const outbox = new Outbox(stdout, (reason) => {
    stderr.write(`zut-host mcp: ${reason}\n`);
    stop('eof');
  });
  const send = (m: object) => outbox.send(m);
  const conn = new McpConnection(
    {
      host,
      serverVersion: o.version,
      origin: 'mcp',
      progress: ui.emitter.event,
      cwd: o.cwd,
      hookTool: hookTool(host),
      onCatalog: (names) => void publishServed(o.cwd, names),
    },
    new McpSessions(host, o.cwd),
    send,
  );

  const signals = o.signals?.((signal) => stop(signal), host);
  stdin.once('end', () => stop('eof'));
  stdin.once('close', () => stop('eof'));

  // initialize, ping and notifications are answered at once; tools appear as their extensions become ready
  // (`notifications/tools/list_changed`). Other requests wait for the first load, at most MCP_FIRST_LOAD_WAIT_MS,
  // so a client that lists once right after initialize sees the extensions that start in that time.
  const started = runtime.start();
  let timer: NodeJS.Timeout | undefined;
  const firstLoad = Promise.race([
    started.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => (timer = setTimeout(r, MCP_FIRST_LOAD_WAIT_MS))),
    stopped.then(() => undefined),
  ]).finally(() => clearTimeout(timer));
  let loaded = false;
  void firstLoad.then(() => (loaded = true));
  readMessages(
    stdin,
    (m) => {
      const msg: { id?: unknown; method?: unknown; params?: unknown } = typeof m === 'object' && m !== null ? m : {};
      if (loaded || msg.id === undefined || AT_ONCE.has(msg.method) || isHookCall(msg)) conn.handle(m);
      else void firstLoad.then(() => conn.handle(m));
    },
    send,
  );

  const why = await stopped;
  conn.dispose();
  unpublishServed();
  // The stop gives up starts in progress (an extension that never says hello does not hold it up).
  await runtime.shutdown();
  signals?.dispose();
  return why === 'SIGINT' ? 130 : 0;
}
