/**
 * The public face of the host Manager: what the VS Code adapters, the `@zut` chat loop, the CLI and the
 * benchmarks program against. `Manager` (manager.ts) implements it.
 */
import type { InterceptableEvent, PanelKeyName, SessionContext } from '../protocol';
import type { BeforeAgentStart } from './calls/intercept';
import type { InvokeResult, InvokeToolOptions } from './calls/invoke';
import type { CommandReply } from './protocols/types';
import type { Event } from './events';
import type { ManagerOptions } from './extensions/options';

export type { ManagerOptions };
import type {
  AssistantMessageDecision,
  CallToolOptions,
  CommandInfo,
  ExtensionInfo,
  ExtensionLogLine,
  LifecycleEvent,
  LoadReport,
  AcceptArgs,
  ToolCallDecision,
  ToolCallIntercept,
  ToolInfo,
  ToolResult,
  TraceLevel,
  TurnStartDecision,
} from './types';


/** The Manager's public API. */
export interface ExtensionHost {
  /** Fires whenever an extension's state, registrations or diagnostics change. */
  readonly onDidChangeExtensions: Event<void>;
  /** stderr lines (always) and frames (when tracing), per extension. */
  readonly onDidLog: Event<ExtensionLogLine>;
  /** A load error, a crash, or restarts given up: one sentence naming the extension, its dir and log. */
  readonly onDidFail: Event<{ ext: string; message: string; kind: 'load' | 'crash' | 'gave-up' }>;

  /** Discover and start everything (parallel). Resolves when every extension is ready or failed. */
  start(): Promise<LoadReport>;
  /** Stop all, rediscover, respawn. */
  reload(): Promise<LoadReport>;
  /** Restart one extension by name. */
  restart(name: string): Promise<void>;
  /** Graceful shutdown of every child (shutdown → grace → SIGTERM → SIGKILL on the process group). */
  stop(): Promise<void>;

  extensions(): ExtensionInfo[];
  /** Active commands (first registration of each name, case-insensitive). */
  commands(): CommandInfo[];
  /** Tools currently offered to the model: active, and not deferred unless activated. */
  tools(): ToolInfo[];
  /** Any registered, active tool, deferred or not (for "Zut: Call Tool…"). */
  allTools(): ToolInfo[];

  /** `command_invoked` → `command_response` (30 s). Name is matched case-insensitively. */
  invokeCommand(name: string, args: string): Promise<CommandReply & { ext: string }>;
  /**
   * The one guarded tool path (invoke.ts): `tool_call` event, interception chain, the call, `details` filed under
   * `options.session`. Every caller (chat, palette, CLI, MCP) uses this; a block is an `isError` result.
   */
  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult>;
  /**
   * The bare call, without event or guards (`invokeTool`'s last step; benchmarks and host tests only).
   * `tool_call` → `tool_result`. Rejects with `RequestError` (timeout, cancelled, crashed, stopped, unknown).
   */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;

  /** Whether any running extension intercepts this event (the chat loop streams text only when none does). */
  hasInterceptors(event: InterceptableEvent | 'before_agent_start'): boolean;
  /** Fan a lifecycle event out to its subscribers (in order per extension). */
  emit(event: LifecycleEvent): void;
  /**
   * `origin_extension`: the zot extension whose `call_tool` this is (zot's guards see who asked); `editor_tool`: the
   * editor's real tool behind a mapped name (foreignTools.ts). `accept` refuses a `modified_args` (the call is then
   * blocked by that guard, fail closed).
   */
  interceptToolCall(e: ToolCallIntercept, accept?: AcceptArgs): Promise<ToolCallDecision>;
  interceptTurnStart(step: number): Promise<TurnStartDecision>;
  interceptAssistantMessage(text: string): Promise<AssistantMessageDecision>;
  /**
   * zot's `before_agent_start`: the system prompt after every interceptor's replacement (intercept.ts), the same
   * for the same session, model and base prompt until extensions are (re)loaded.
   */
  interceptBeforeAgentStart(e: Omit<BeforeAgentStart, 'agent_run_id'>): Promise<string>;

  /**
   * The session branch announced in `hello_ack` to extensions that start later (the latest one opened); a forked
   * branch starts from its parent's state. Tool calls never use it: each names its own session.
   */
  setSession(session: SessionContext | undefined): void;
  /** Send a session event (`session_start`, `session_opened`, …) with each receiver's own state for that branch. */
  emitSessionEvent(event: string, session: SessionContext): void;
  /** Opaque state kept for (branch, extension). */
  getState(branch: string, ext: string): unknown;

  /** Serializable snapshot of every (branch → extension → state), for workspace storage. */
  exportState(): Record<string, Record<string, unknown>>;
  importState(snapshot: Record<string, Record<string, unknown>>): void;
  /** Fires when a tool result changed some extension's state. */
  readonly onDidChangeState: Event<void>;

  /** Provider and model reported in later `hello_ack`s. */
  setModel(provider: string, model: string): void;

  panelKey(ext: string, panelId: string, key: PanelKeyName, text?: string): void;
  panelResize(ext: string, panelId: string, columns: number, rows: number): void;
  /** The user closed a panel: sends `panel_close`. */
  panelClosed(ext: string, panelId: string): void;

  setTrace(level: TraceLevel): void;
  /** Rewrites `enabled` in the extension's manifest, then reloads that extension. */
  setEnabled(name: string, enabled: boolean): Promise<void>;
  /** The last start/reload's report (load errors for the doctor), whoever asked for it. */
  lastReport(): LoadReport | undefined;
  /** Project extensions now waiting for consent (consent.ts); the VS Code layer asks the user once for all. */
  readonly onDidRequestConsent: Event<ExtensionInfo[]>;
  /** Extensions waiting for consent. */
  pendingConsent(): ExtensionInfo[];
  /**
   * Remembers the answer for their current content; `allow` starts them, `deny` keeps them stopped. `seen`: the
   * fingerprint each had when the question was shown (default: the one it waits with); Allow for content that
   * changed since asks again instead.
   */
  answerConsent(names: readonly string[], answer: 'allow' | 'deny', seen?: Readonly<Record<string, string>>): Promise<void>;
  /** Forgets the answer: the extension stops and waits for consent again. */
  revokeConsent(name: string): Promise<void>;
  /** "Disable (Workspace)": a workspace-local choice; the manifest is not touched. */
  setDisabledInWorkspace(name: string, disabled: boolean): Promise<void>;
  /** Stop until Start, a restart or a reload (no automatic restart). */
  stopExtension(name: string): Promise<void>;
  startExtension(name: string): Promise<void>;
}
