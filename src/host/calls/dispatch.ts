/**
 * What the host sends its running extensions: a command (`command_invoked` → `command_response`), the bare tool
 * call (`tool_call` → `tool_result`, whose `activate_tools` and `details` are applied here), lifecycle and session
 * events to their subscribers, the interception chains (intercept.ts), and panel input. The
 * Manager delegates to it; the guarded tool path (invoke.ts `GuardedPath`: the door, toolGuard.ts, then the call)
 * ends in `callTool`. No `vscode`.
 */
import type { PanelKeyName, SessionContext } from '../../protocol';
import type { ManagerOptions } from '../extensions/options';
import {
  type AssistantMessageDecision,
  type CallToolOptions,
  type LifecycleEvent,
  RequestError,
  type ToolResult,
  type TurnStartDecision,
} from '../types';
import type { ExtensionRequests } from './extRequests';
import type { ExtensionSet } from '../extensions/extensionSet';
import { SystemPrompts, chainAssistantMessage, chainTurnStart, interceptorsOf, type BeforeAgentStart, type Interceptor } from './intercept';
import { COMMAND_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, TOOL_TIMEOUT_MS } from '../../protocol/limits';
import type { CommandReply, ToolReply } from '../protocols';
import { NO_BRANCH, type SessionStateStore } from './state';
import type { ExtensionSupervisor } from '../extensions/supervisor';

/** The Manager's timeouts the dispatch applies (omitted: limits.ts). */
export type DispatchTimeouts = Pick<ManagerOptions, 'commandTimeoutMs' | 'toolTimeoutMs' | 'interceptTimeoutMs'>;

export class Dispatcher {
  /** `before_agent_start` results: stable for a request until a (re)load. */
  private readonly prompts = new SystemPrompts();

  constructor(
    private readonly set: ExtensionSet,
    private readonly store: SessionStateStore,
    /** Tracks zot tool calls an extension may call back into (extRequests.ts). */
    private readonly requests: ExtensionRequests,
    private readonly timeouts: DispatchTimeouts,
  ) {}

  // ------------------------------------------------------------------ requests

  /** `command_invoked` → `command_response`; the name is matched case-insensitively, a leading `/` ignored. */
  async invokeCommand(name: string, args: string): Promise<CommandReply & { ext: string }> {
    const owner = this.set.index.commandOwner.get(name.replace(/^\//, '').toLowerCase());
    const s = owner?.by;
    if (!owner || !s?.conn) throw new RequestError('not-found', `unknown command /${name}`);
    const reply = await s.conn.request(
      { kind: 'command', name: owner.name, args: args.trim() },
      { timeoutMs: this.timeouts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS, what: `extension ${s.name}: command /${owner.name}` },
    );
    return { ...reply, ext: s.name };
  }

  /**
   * Calls an extension's tool (no event, no guards: `invokeTool` is the guarded path). The reply becomes the
   * result inside the request's own settlement (no extra hop on the hot path).
   */
  callTool(name: string, args: unknown, options: CallToolOptions = {}): Promise<ToolResult> {
    const owner = this.set.index.toolOwner.get(name.toLowerCase());
    const s = owner?.by;
    if (!owner || !s?.conn) return Promise.reject(new RequestError('not-found', `unknown tool ${name}`));
    const tool = owner.tool.name;
    const timeoutMs = owner.tool.interactive ? undefined : (options.timeoutMs ?? this.timeouts.toolTimeoutMs ?? TOOL_TIMEOUT_MS);
    // A zot extension may call tools back with this call as `parent_id` (extRequests.ts): known while it runs.
    const id = s.conn.hello?.protocol === 'zot' ? s.conn.nextRequestId() : undefined;
    const release = id && this.requests.track(s.name, id, [...(options.chain ?? []), tool], options.signal);
    const req = s.conn.request(
      { kind: 'tool', name: tool, args: args ?? {} },
      { id, timeoutMs, signal: options.signal, what: `extension ${s.name}: tool ${tool}`, sendCancel: true, onProgress: options.onProgress },
      (reply) => this.toolResult(s, reply, options.session),
    );
    return release ? req.finally(release) : req;
  }

  /** A `tool_result` as the caller's result: activates the tools it names, files its `details` in the session. */
  private toolResult(s: ExtensionSupervisor, reply: ToolReply, branch: SessionContext | undefined): ToolResult {
    if (reply.activate_tools?.length) this.set.activate(reply.activate_tools);
    if (reply.details !== undefined) {
      if (branch?.parent_id) this.store.fork(branch.parent_id, branch.id);
      const err = this.store.set(branch?.id ?? NO_BRANCH, s.name, reply.details);
      if (err) s.diagnostic(err);
    }
    return { ext: s.name, content: reply.content, isError: reply.is_error ?? false, activateTools: reply.activate_tools, details: reply.details };
  }

  // ------------------------------------------------------------------ events and interception

  /** A lifecycle event to each live extension subscribed to it. */
  emit(event: LifecycleEvent): void {
    for (const s of this.set.all) {
      if (s.live && s.events.has(event.event)) s.conn!.notify({ kind: 'event', event });
    }
  }

  /** `emit`, to the subscribers not in `except` (named as extensions); returns who got it. */
  emitExcept(event: LifecycleEvent, except: ReadonlySet<string>): string[] {
    const to: string[] = [];
    for (const s of this.set.all) {
      if (s.live && s.events.has(event.event) && !except.has(s.name)) {
        s.conn!.notify({ kind: 'event', event });
        to.push(s.name);
      }
    }
    return to;
  }

  /** A session event to each live subscriber, with its own state on that branch. */
  emitSessionEvent(event: string, session: SessionContext): void {
    for (const s of this.set.all) {
      if (!s.live || !s.events.has(event)) continue;
      const state = this.store.get(session.id, s.name);
      s.conn!.notify({ kind: 'event', event: { event, session, ...(state !== undefined ? { state } : {}) } });
    }
  }

  private chain(event: string): Interceptor[] {
    return interceptorsOf(this.set.all, event, this.timeouts.interceptTimeoutMs ?? INTERCEPT_TIMEOUT_MS);
  }

  /** The `tool_call` interceptors, for the guard door (toolGuard.ts: it runs the chain). */
  toolCallInterceptors(): Interceptor[] {
    return this.chain('tool_call');
  }

  /** The `turn_start` chain (`prompt`: the turn's user prompt, for e's `hook.before_turn`). */
  interceptTurnStart(step: number, prompt?: string): Promise<TurnStartDecision> {
    return chainTurnStart(this.chain('turn_start'), step, prompt);
  }

  /** The `assistant_message` chain. */
  interceptAssistantMessage(text: string): Promise<AssistantMessageDecision> {
    return chainAssistantMessage(this.chain('assistant_message'), text);
  }

  /** zot's `before_agent_start`: the system prompt after the chain, reused for the same request until a (re)load. */
  interceptBeforeAgentStart(e: Omit<BeforeAgentStart, 'agent_run_id'>): Promise<string> {
    if (!this.set.hasInterceptors('before_agent_start')) return Promise.resolve(e.system_prompt);
    return this.prompts.get(e, () => this.chain('before_agent_start'));
  }

  /** Extensions were (re)loaded: `before_agent_start` asks them again. */
  loaded(): void {
    this.prompts.clear();
  }

  // ------------------------------------------------------------------ panels

  /** A key for an extension's panel. */
  panelKey(ext: string, panelId: string, key: PanelKeyName, text?: string): void {
    this.set.find(ext)?.conn?.notify({ kind: 'panelKey', panelId, key, ...(text !== undefined ? { text } : {}) });
  }

  /** The panel's new size in cells. */
  panelResize(ext: string, panelId: string, columns: number, rows: number): void {
    this.set.find(ext)?.conn?.notify({ kind: 'panelResize', panelId, columns, rows });
  }

  /** The user closed a panel. */
  panelClosed(ext: string, panelId: string): void {
    this.set.find(ext)?.conn?.notify({ kind: 'panelClosed', panelId });
  }
}
