/**
 * The guarded tool path: every tool call, whoever makes it (`@zut`, "Zut: Call Tool…", `zut-host tool` and `trace`,
 * the MCP bridge for agent mode and `zut-host mcp`, a zot extension's `call_tool`) and whoever owns the tool (a zut
 * extension, the host's `skill`, one of VS Code's own tools), goes through `GuardedPath.invoke`: the guard door
 * (toolGuard.ts: the `tool_call` event, the interception chain, a foreign tool mapped onto zut's and back), then the
 * call (reply timeout, the interactive rule, `tool_cancel` on abort) with the caller's session branch, under which the
 * dispatcher files the reply's `details` (dispatch.ts `toolResult`), then the `tool_result` event. Built with the
 * dispatcher and the extension set. VS Code-free.
 */
import type { SessionContext } from '../../protocol';
import { abortError, type Blocked, type CallToolOptions, RequestError, type ToolInfo, type ToolResult } from '../types';
import type { ForeignSource, JsonObject } from './foreignTools';
import type { Guarded, ToolGuard, ToolOutcomeStatus } from './toolGuard';

/**
 * Who is calling. Origins with a person at a VS Code window (`chat`, `palette`, `agent`) may run interactive tools;
 * the headless ones (`cli`, `mcp`) reject them with a tool error, as zut's print/RPC hosts do (spec: Interactive
 * tools).
 */
export type ToolOrigin = 'chat' | 'palette' | 'agent' | 'cli' | 'mcp' | 'extension';

/** Origins that cannot show an interactive tool's panel. */
const HEADLESS_ORIGINS: ReadonlySet<ToolOrigin> = new Set<ToolOrigin>(['cli', 'mcp']);

/** Whether a tool may be offered to / called from `origin` (interactive tools need a window). */
export function toolAllowedFor(tool: Pick<ToolInfo, 'interactive'>, origin: ToolOrigin): boolean {
  return !(tool.interactive && HEADLESS_ORIGINS.has(origin));
}

/** Options of one guarded call. */
export interface InvokeToolOptions {
  /** The caller's session branch: `details` are filed under `session.id`. */
  session: SessionContext;
  origin: ToolOrigin;
  /** Cancels the call (guards included); sends `tool_cancel` when the extension advertised it. */
  signal?: AbortSignal;
  /** Reply timeout; the host's configured one when omitted. Interactive tools have none. */
  timeoutMs?: number;
  /** The id in the `tool_call` event and interception (the model's call id); a fresh one when omitted. */
  toolId?: string;
  /** A host-implemented tool (the `skill` tool): runs instead of an extension call, after the same event and guards. */
  run?: (args: unknown, signal: AbortSignal) => Promise<ToolResult>;
  /** Called once the guards allowed the call, right before it starts (progress in chat). */
  onStart?: () => void;
  /** Output the tool streams while it runs (e's `tool.update`): progress in chat, stderr lines in the CLI. */
  onProgress?: (text: string) => void;
  /** The headless caller answers panels itself (`zut-host tool --keys`): an interactive tool may run. */
  answersPanels?: boolean;
  /** Names of the tool calls this one is nested in (zot's `call_tool` chain rules; see extRequests.ts). */
  chain?: readonly string[];
  /** The extension whose `call_tool` this is: `origin_extension` in the events and the interception. */
  originExtension?: string;
  /**
   * A foreign tool (one of VS Code's): guards see zut's counterpart (foreignTools/: `run_in_terminal` as `bash`,
   * `editor_tool` set), and `run` runs the tool itself with the input they left, in its own shape.
   */
  foreign?: { source: ForeignSource; run: (input: JsonObject, signal: AbortSignal) => Promise<ToolResult> };
}

/** A result of the guarded path: a blocked call is an `isError` result naming the guard (`blocked` says who). */
export interface InvokeResult extends ToolResult {
  blocked?: Blocked;
}

/** What the guarded path sends through (dispatch.ts's `Dispatcher`): the bare call, its last step. */
export interface ToolDispatch {
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;
}

/** What it asks of the extensions (extensionSet.ts's `ExtensionSet`). */
export interface ToolCatalog {
  /** The registered tools (`active`: offered now). */
  readonly index: { readonly tools: readonly ToolInfo[] };
}

/** The text of a blocked call's result: the guard and its reason. */
function blockedText(b: Blocked): string {
  return `blocked by ${b.ext}: ${b.reason}`;
}

/** The guarded path over one Manager's extensions. */
export class GuardedPath {
  constructor(
    private readonly dispatch: ToolDispatch,
    private readonly catalog: ToolCatalog,
    private readonly guards: ToolGuard,
  ) {}

  /**
   * Runs one tool call through the guarded path. Resolves with the result (a block is an `isError` result);
   * rejects with `RequestError` for an unknown tool, a timeout, a crash, a stop, or `cancelled` after `signal`.
   */
  async invoke(name: string, args: unknown, o: InvokeToolOptions): Promise<InvokeResult> {
    const hostRun = o.run ?? o.foreign?.run;
    const tool = hostRun ? undefined : this.catalog.index.tools.find((t) => t.active && t.name.toLowerCase() === name.toLowerCase());
    if (!hostRun && !tool) throw new RequestError('not-found', `unknown tool ${name}`);
    const toolName = tool?.name ?? name;
    const signal = o.signal ?? new AbortController().signal;
    if (signal.aborted) throw abortError(signal, `tool ${toolName}: cancelled`);

    const g = await this.guards.guard({ name: toolName, input: args ?? {}, source: o.foreign?.source, toolId: o.toolId, originExtension: o.originExtension });
    let executed = false;
    try {
      let r: InvokeResult;
      const v = g.verdict;
      if (v.blocked) {
        r = { ext: tool?.ext ?? 'zut', content: [{ type: 'text', text: blockedText(v.blocked) }], isError: true, blocked: v.blocked };
      } else {
        if (signal.aborted) throw abortError(signal, `tool ${toolName}: cancelled`);
        r = tool && !toolAllowedFor(tool, o.origin) && !o.answersPanels ? interactiveRefused(tool, o.origin) : await this.start(toolName, v.input, signal, o, () => (executed = true));
      }
      g.finished(r.blocked ? 'blocked' : r.isError ? 'failed' : 'completed', r, executed);
      return r;
    } catch (e) {
      finishedWithError(g, e, executed);
      throw e;
    }
  }

  /** The call itself, once the guards allowed it (`started` right before it starts). */
  private start(toolName: string, args: unknown, signal: AbortSignal, o: InvokeToolOptions, started: () => void): Promise<ToolResult> {
    started();
    o.onStart?.();
    if (o.foreign) return o.foreign.run(args as JsonObject, signal);
    if (o.run) return o.run(args, signal);
    return this.dispatch.callTool(toolName, args, { signal, timeoutMs: o.timeoutMs, session: o.session, chain: o.chain, onProgress: o.onProgress });
  }
}

/** The `tool_result` event of a call that threw: timed out, cancelled or failed. */
function finishedWithError(g: Guarded, e: unknown, executed: boolean): void {
  const kind = e instanceof RequestError ? e.kind : 'internal';
  const status: ToolOutcomeStatus = kind === 'timeout' ? 'timed_out' : kind === 'cancelled' ? 'cancelled' : 'failed';
  g.finished(status, { content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }], isError: true }, executed);
}

/** An interactive tool called from a headless origin: a tool error, not a call. */
function interactiveRefused(tool: ToolInfo, origin: ToolOrigin): InvokeResult {
  return {
    ext: tool.ext,
    content: [{ type: 'text', text: `tool ${tool.name} is interactive: it needs a person at a VS Code window and cannot run from ${origin}` }],
    isError: true,
  };
}
