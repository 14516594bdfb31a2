/**
 * The one guarded tool path. Every tool call, whoever makes it (`@zut`, "Zut: Call Tool…", `zut-host tool` and
 * `trace`, the MCP bridge for agent mode and `zut-host mcp`, a zot extension's `call_tool`), goes through
 * `GuardedPath.invoke`: the `tool_call` event to subscribers, the interception chain (first block wins;
 * `modified_args` chain), then the call (reply timeout, the interactive rule, `tool_cancel` on abort), with `details`
 * filed under the caller's own session branch. Built with the dispatcher and the extension set. VS Code-free.
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../../protocol';
import {
  abortError,
  type Blocked,
  type CallToolOptions,
  type LifecycleEvent,
  RequestError,
  type AcceptArgs,
  type ToolCallDecision,
  type ToolCallIntercept,
  type ToolInfo,
  type ToolResult,
} from '../types';
import { boundContent } from './boundContent';
import { CALL_TOOL_RESULT_MAX_BYTES } from '../../protocol/limits';

/**
 * Who is calling. Origins with a person at a VS Code window (`chat`, `palette`, `agent`) may run interactive tools;
 * the headless ones (`cli`, `mcp`) reject them with a tool error, as zut's print/RPC hosts do (spec: Interactive
 * tools).
 */
export type ToolOrigin = 'chat' | 'palette' | 'agent' | 'cli' | 'mcp' | 'extension';

/** Origins that cannot show an interactive tool's panel. */
export const HEADLESS_ORIGINS: ReadonlySet<ToolOrigin> = new Set<ToolOrigin>(['cli', 'mcp']);

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
   * A foreign (editor) tool seen by guards under `name` (foreignTools.ts): `tool` is its real name (`editor_tool` in
   * the events and the interception), `accept` refuses guard rewrites its input cannot express. Needs `run`.
   */
  foreign?: { tool: string; accept: AcceptArgs };
}

/** A result of the guarded path: a blocked call is an `isError` result naming the guard (`blocked` says who). */
export interface InvokeResult extends ToolResult {
  blocked?: Blocked;
}

/** What the guarded path sends through (dispatch.ts's `Dispatcher`). */
export interface ToolDispatch {
  emit(event: LifecycleEvent): void;
  interceptToolCall(e: ToolCallIntercept, accept?: AcceptArgs): Promise<ToolCallDecision>;
  /** The bare call, its last step. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;
}

/** What it asks of the extensions (extensionSet.ts's `ExtensionSet`). */
export interface ToolCatalog {
  /** The registered tools (`active`: offered now). */
  readonly index: { readonly tools: readonly ToolInfo[] };
  /** Whether a running extension subscribes to `event` (the `tool_result` event's bounded copy is made only then). */
  hasSubscribers(event: string): boolean;
  /** Whether a running extension intercepts `event` (with none, the call does not wait for the chain). */
  hasInterceptors(event: string): boolean;
}

/** The text of a blocked call's result: the guard and its reason. */
export function blockedText(b: Blocked): string {
  return `blocked by ${b.ext}: ${b.reason}`;
}

/** The additive fields of this call's events and interception: `origin_extension`, `editor_tool`. */
function frameExtras(o: InvokeToolOptions): { origin_extension?: string; editor_tool?: string } {
  // Built by assignment, not conditional spreads: this runs on every call (bench: editor-tool).
  const x: { origin_extension?: string; editor_tool?: string } = {};
  if (o.originExtension !== undefined) x.origin_extension = o.originExtension;
  if (o.foreign) x.editor_tool = o.foreign.tool;
  return x;
}

/** How a call ended, in the `tool_result` event (zot-extensions.md: Tool outcomes). */
type ToolOutcomeStatus = 'completed' | 'failed' | 'blocked' | 'cancelled' | 'timed_out';

/** The guarded path over one Manager's extensions. */
export class GuardedPath {
  constructor(
    private readonly dispatch: ToolDispatch,
    private readonly catalog: ToolCatalog,
  ) {}

  /**
   * Runs one tool call through the guarded path. Resolves with the result (a block is an `isError` result);
   * rejects with `RequestError` for an unknown tool, a timeout, a crash, a stop, or `cancelled` after `signal`.
   */
  async invoke(name: string, args: unknown, o: InvokeToolOptions): Promise<InvokeResult> {
    const tool = o.run ? undefined : this.catalog.index.tools.find((t) => t.active && t.name.toLowerCase() === name.toLowerCase());
    if (!o.run && !tool) throw new RequestError('unknown', `unknown tool ${name}`);
    const toolName = tool?.name ?? name;
    const signal = o.signal ?? new AbortController().signal;
    if (signal.aborted) throw abortError(signal, `tool ${toolName}: cancelled`);

    const toolId = o.toolId ?? randomUUID();
    const input = args ?? {};
    const extras = frameExtras(o);
    // With no subscriber / interceptor the event is not built and the chain not awaited (the call starts at once).
    if (this.catalog.hasSubscribers('tool_call')) this.dispatch.emit({ event: 'tool_call', tool_id: toolId, tool_name: toolName, tool_args: input, ...extras });
    let effective: unknown = input;
    let executed = false;
    // zot's observation budget: the event's copy of the result is bounded (the call's own result is not).
    const outcome = (status: ToolOutcomeStatus, result: { content: ToolResult['content']; isError: boolean }) => {
      if (!this.catalog.hasSubscribers('tool_result')) return;
      const { content, truncated } = boundContent(result.content, CALL_TOOL_RESULT_MAX_BYTES);
      this.dispatch.emit({ event: 'tool_result', tool_id: toolId, tool_name: toolName, tool_args: effective, status, executed, result: { content, is_error: result.isError, ...(truncated ? { truncated } : {}) }, ...extras });
    };
    try {
      let r: InvokeResult;
      const decision = this.catalog.hasInterceptors('tool_call')
        ? await this.dispatch.interceptToolCall({ tool_id: toolId, tool_name: toolName, tool_args: input, ...extras }, o.foreign?.accept)
        : { args: input };
      if (decision.blocked) {
        r = { ext: tool?.ext ?? 'zut', content: [{ type: 'text', text: blockedText(decision.blocked) }], isError: true, blocked: decision.blocked };
      } else {
        if (signal.aborted) throw abortError(signal, `tool ${toolName}: cancelled`);
        r = tool && !toolAllowedFor(tool, o.origin) && !o.answersPanels ? interactiveRefused(tool, o.origin) : await this.start(toolName, (effective = decision.args), signal, o, () => (executed = true));
      }
      outcome(r.blocked ? 'blocked' : r.isError ? 'failed' : 'completed', r);
      return r;
    } catch (e) {
      const kind = e instanceof RequestError ? e.kind : 'unknown';
      const status = kind === 'timeout' ? 'timed_out' : kind === 'cancelled' ? 'cancelled' : 'failed';
      outcome(status, { content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }], isError: true });
      throw e;
    }
  }

  /** The call itself, once the guards allowed it (`started` right before it starts). */
  private start(toolName: string, args: unknown, signal: AbortSignal, o: InvokeToolOptions, started: () => void): Promise<ToolResult> {
    started();
    o.onStart?.();
    if (o.run) return o.run(args, signal);
    return this.dispatch.callTool(toolName, args, { signal, timeoutMs: o.timeoutMs, session: o.session, chain: o.chain, onProgress: o.onProgress });
  }
}

/** An interactive tool called from a headless origin: a tool error, not a call. */
function interactiveRefused(tool: ToolInfo, origin: ToolOrigin): InvokeResult {
  return {
    ext: tool.ext,
    content: [{ type: 'text', text: `tool ${tool.name} is interactive: it needs a person at a VS Code window and cannot run from ${origin}` }],
    isError: true,
  };
}
