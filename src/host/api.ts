/**
 * The public face of the host Manager, in roles (lifecycle, catalog, calls, sessions, panels, consent, logs): what
 * the VS Code adapters, the `@zut` chat loop, the MCP server and the CLI program against, each taking the roles it
 * uses. `Manager` (manager.ts) implements their intersection, `ExtensionHost`.
 */
import type { InterceptableEvent, PanelKeyName, SessionContext } from '../protocol';
import type { BeforeAgentStart } from './calls/intercept';
import type { InvokeResult, InvokeToolOptions } from './calls/invoke';
import type { GuardRequest, Guarded, PermissionEvent } from './calls/toolGuard';
import type { CommandReply } from './protocols/types';
import type { Event } from './events';
import type { ManagerOptions } from './extensions/options';

export type { ManagerOptions };
import type {
  AssistantMessageDecision,
  CommandInfo,
  ExtensionInfo,
  ExtensionLogLine,
  LifecycleEvent,
  LoadReport,
  ToolInfo,
  ToolResult,
  TraceLevel,
  TurnStartDecision,
} from './types';

/** Loading and each extension's lifecycle: start, reload, restart, stop, enable in the manifest, the last report. */
export interface HostLifecycle {
  /** Discover and start everything (parallel). Resolves when every extension is ready or failed. */
  start(): Promise<LoadReport>;
  /** Stop all, rediscover, respawn. */
  reload(): Promise<LoadReport>;
  /** Restart one extension by name. */
  restart(name: string): Promise<void>;
  /** Graceful shutdown of every child (shutdown → grace → SIGTERM → SIGKILL on the process group). */
  stop(): Promise<void>;
  /** Rewrites `enabled` in the extension's manifest, then reloads that extension. */
  setEnabled(name: string, enabled: boolean): Promise<void>;
  /** The last start/reload's report (load errors for the doctor), whoever asked for it. */
  lastReport(): LoadReport | undefined;
  /** Resolves once no extension is starting and no load runs, or at `deadline` (ms since epoch). */
  whenSettled(deadline: number): Promise<void>;
}

/** What is there: the extensions, their active commands and tools, and the change event. */
export interface HostCatalog {
  /** Fires whenever an extension's state, registrations or diagnostics change. */
  readonly onDidChangeExtensions: Event<void>;
  extensions(): ExtensionInfo[];
  /** Active commands (first registration of each name, case-insensitive). */
  commands(): CommandInfo[];
  /** Tools currently offered to the model: active, and not deferred unless activated. */
  tools(): ToolInfo[];
  /** Any registered, active tool, deferred or not (for "Zut: Call Tool…"). */
  allTools(): ToolInfo[];
}

/** Calls into the extensions: commands, the one guarded tool path, lifecycle events and interception. */
export interface HostCalls {
  /** `command_invoked` → `command_response` (30 s). Name is matched case-insensitively. */
  invokeCommand(name: string, args: string): Promise<CommandReply & { ext: string }>;
  /**
   * The one guarded tool path (invoke.ts): `tool_call` event, interception chain, the call, `details` filed under
   * `options.session`. Every caller (chat, palette, CLI, MCP) uses this; a block is an `isError` result.
   */
  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult>;
  /** Whether any running extension intercepts this event (the chat loop streams text only when none does). */
  hasInterceptors(event: InterceptableEvent | 'before_agent_start'): boolean;
  /** Fan a lifecycle event out to its subscribers (in order per extension). */
  emit(event: LifecycleEvent): void;
  /**
   * The guard door alone (toolGuard.ts), for a call another program runs (an agent's PreToolUse hook): the
   * `tool_call` event, the interception chain, another agent's tool seen as zut's. Never rejects: what it cannot
   * judge is blocked. `finished` on the result sends the `tool_result` event.
   */
  guardTool(request: GuardRequest): Promise<Guarded>;
  /** A call another program ran (an agent's PostToolUse hook): the `tool_result` event, as the door shows it. */
  toolRan(request: GuardRequest, result: Pick<ToolResult, 'content' | 'isError'>): void;
  /** The agent asks the person about a call, or a decision about it is known: `tool_confirmation_requested`, `permission_decision`. */
  toolPermission(request: GuardRequest, what: PermissionEvent): void;
  /**
   * The `turn_start` chain for model step `step`. `prompt`: the user's prompt that started the turn, sent to e
   * extensions' `hook.before_turn` (zut's and zot's `event_intercept` carry `step` alone, as their specs say).
   */
  interceptTurnStart(step: number, prompt?: string): Promise<TurnStartDecision>;
  interceptAssistantMessage(text: string): Promise<AssistantMessageDecision>;
  /**
   * zot's `before_agent_start`: the system prompt after every interceptor's replacement (intercept.ts), the same
   * for the same session, model and base prompt until extensions are (re)loaded.
   */
  interceptBeforeAgentStart(e: Omit<BeforeAgentStart, 'agent_run_id'>): Promise<string>;
}

/** Sessions: the branch later `hello_ack`s announce, session events, the per-branch state, the model. */
export interface HostSessions {
  /**
   * The session branch announced in `hello_ack` to extensions that start later (the latest one opened); a forked
   * branch starts from its parent's state. Tool calls never use it: each names its own session.
   */
  setSession(session: SessionContext | undefined): void;
  /** Send a session event (`session_start`, `session_opened`, …) with each receiver's own state for that branch. */
  emitSessionEvent(event: string, session: SessionContext): void;
  /** Serializable snapshot of every (branch → extension → state), for workspace storage. */
  exportState(): Record<string, Record<string, unknown>>;
  importState(snapshot: Record<string, Record<string, unknown>>): void;
  /** Fires when a tool result changed some extension's session state (not its lifecycle: the supervisor's `onDidChangeState`). */
  readonly onDidChangeSessionState: Event<void>;
  /** Provider and model reported in later `hello_ack`s. */
  setModel(provider: string, model: string): void;
}

/** Input from a panel's view, sent to its extension. */
export interface HostPanels {
  panelKey(ext: string, panelId: string, key: PanelKeyName, text?: string): void;
  panelResize(ext: string, panelId: string, columns: number, rows: number): void;
  /** The user closed a panel: sends `panel_close`. */
  panelClosed(ext: string, panelId: string): void;
}

/** Consent for project-local code and the user's local choices (consent.ts, gates.ts). */
export interface HostConsent {
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
  /**
   * The user wrote `staging` through us (New Extension, Install), about to become `dest`: Allow for exactly that
   * content, so it runs at once. Not serialised: call it inside `exclusive`, before the rename.
   */
  allowOwnContent(staging: string, dest: string): Promise<void>;
  /**
   * `file` was saved in the editor with `bytes`: when it belongs to one of the user's own extensions and is the only
   * change since that extension was allowed, its new content is allowed too (gates.ts). Resolves whether it was.
   */
  allowOwnEdit(file: string, bytes: Uint8Array): Promise<boolean>;
  /** "Disable (Workspace)": a workspace-local choice; the manifest is not touched. */
  setDisabledInWorkspace(name: string, disabled: boolean): Promise<void>;
  /** Stop until Start, a restart or a reload (no automatic restart). */
  stopExtension(name: string): Promise<void>;
  startExtension(name: string): Promise<void>;
}

/** What the extensions write and how they fail, and how much of their traffic is traced. */
export interface HostLogs {
  /** stderr lines (always) and frames (when tracing), per extension. */
  readonly onDidLog: Event<ExtensionLogLine>;
  /** A load error, a crash, or restarts given up: one sentence naming the extension, its dir and log. */
  readonly onDidFail: Event<{ ext: string; message: string; kind: 'load' | 'crash' | 'gave-up' }>;
  setTrace(level: TraceLevel): void;
}

/**
 * The Manager's public API: every role. Consumers take the narrowest role they use. The bare `callTool` and
 * `getState` are the concrete Manager's (benchmarks and tests), not the façade's: every caller goes through the
 * guarded `invokeTool`.
 */
export interface ExtensionHost extends HostLifecycle, HostCatalog, HostCalls, HostSessions, HostPanels, HostConsent, HostLogs {}
