/**
 * Shared types of the VS Code-free host: manifests, discovered extensions, live extension info,
 * tool/command results. Kept in one place so discovery, the Manager, the CLI and the VS Code adapters agree.
 */
import type { ContentBlock, SessionContext, ToolAnnotations } from '../protocol';
import type { ZotEventFromHost } from '../protocol/zot';

/** The protocol an extension speaks: zut's v2, zot's v1, or e's JSON-RPC (protocols/). */
export type ProtocolName = 'zut' | 'zot' | 'e';

/** Where an extension was found. `explicit` = a one-run path (zut's `--ext`, the `zut.extensionPaths` setting). */
export type Scope = 'project' | 'global' | 'explicit';

/**
 * Which host an extension was written for: zut (`.zut/extensions`, `$ZUT_HOME`), zot (`.zot/extensions`,
 * `$ZOT_HOME`; the same manifest, protocol v1 or v2) or e (`~/.e/extensions`: an executable, JSON-RPC).
 */
export type Ecosystem = 'zut' | 'zot' | 'e';

/** A parsed, validated `extension.json`. */
export interface Manifest {
  name: string;
  version?: string;
  exec?: string;
  args: string[];
  language?: string;
  description?: string;
  skills: string[];
  enabled: boolean;
}

/** A bundled skill (`<dir>/SKILL.md`) that passed path validation. */
export interface Skill {
  name: string;
  description?: string;
  /** Absolute path of the SKILL.md file. */
  path: string;
}

/** Which extension, and where: what discovery's result and the views' snapshot share. */
export interface ExtensionPlace {
  /** The manifest name, or the directory name when the manifest could not be read. */
  name: string;
  /** Absolute extension directory. */
  dir: string;
  manifestPath: string;
  scope: Scope;
  /** For project scope: the workspace folder it belongs to. */
  folder?: string;
  /** A sibling ecosystem's extension (absent = zut). An `e` one speaks JSON-RPC; its `manifestPath` is its entry file. */
  ecosystem?: Exclude<Ecosystem, 'zut'>;
}

/** What discovery found in one extension directory. */
export interface DiscoveredExtension extends ExtensionPlace {
  /** e only: what discovery read (a top-level executable, or the extension's directory); read again on restart. */
  eTarget?: string;
  manifest?: Manifest;
  /**
   * `enabled`: to be spawned; `disabled`: `enabled: false`; `shadowed`: another extension of that name won;
   * `theme-only`: no exec, ships a theme (listed, never spawned); `error`: the manifest is unusable.
   */
  status: 'enabled' | 'disabled' | 'shadowed' | 'theme-only' | 'error';
  /** For `error`: zut's words (`read manifest: …`, `parse manifest: …`, `manifest: name is required`, …). */
  error?: string;
  /** For `shadowed`: the winner's directory. */
  shadowedBy?: string;
  /** Non-fatal problems (bad skill paths, …). */
  diagnostics: string[];
  skills: Skill[];
}

/** The live state of one extension, as the Extensions view shows it. */
export type ExtensionState =
  | 'starting'
  | 'running'
  | 'crashed'
  | 'restarting'
  | 'stopped'
  | 'error'
  | 'disabled'
  | 'shadowed'
  | 'blocked'
  | 'consent'
  | 'denied'
  | 'theme-only';

/** How registration ended: `ready` frame, 250 ms of silence, or the ready grace elapsed. */
export type ReadyMode = 'ready' | 'auto-ready' | 'ready-timeout';

export interface CommandInfo {
  name: string;
  description?: string;
  ext: string;
  /** False when another extension owns the name (first registration wins). */
  active: boolean;
}

export interface ToolInfo {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema; `{type:"object"}` when the extension sent none). */
  schema: Record<string, unknown>;
  ext: string;
  active: boolean;
  deferred: boolean;
  /** True once a deferred tool was named in `activate_tools`. */
  activated: boolean;
  interactive: boolean;
  /** `register_tool.annotations` (title, readOnlyHint, …), passed through to MCP clients. */
  annotations?: ToolAnnotations;
}

/** A snapshot of one extension for views, the doctor report and the CLI. */
export interface ExtensionInfo extends ExtensionPlace {
  version?: string;
  description?: string;
  language?: string;
  /** The manifest's `exec`, as written. */
  exec?: string;
  /** The manifest's `args`, as written. */
  args?: string[];
  state: ExtensionState;
  /** The last load/crash error, naming the extension, its directory and its log. */
  error?: string;
  shadowedBy?: string;
  logPath: string;
  diagnostics: string[];
  readyMode?: ReadyMode;
  capabilities: string[];
  commands: CommandInfo[];
  tools: ToolInfo[];
  /** Lifecycle events it subscribed to (`subscribe.events`), in the order sent. */
  subscriptions: string[];
  /** Events it intercepts (`subscribe.intercept`: tool_call, turn_start, assistant_message). */
  interceptions: string[];
  skills: Skill[];
  pid?: number;
  restarts: number;
  /** Requests (tool calls, commands, intercepts) awaiting a reply. */
  pending: number;
  /** Of those, requests held in the host unwritten until a slot frees (requestWindow.ts); absent when none. */
  held?: number;
  /** While starting: when the spawn began (ms since epoch), for "starting… (12 s)". */
  startingSince?: number;
  /** Project extensions in consent mode `ask`: the content fingerprint the consent is for. */
  fingerprint?: string;
  /** Waiting for consent (HostConsent.pendingConsent) though an earlier content of it was allowed here. */
  allowedBefore?: true;
  /** Disabled by the workspace-local choice ("Disable (Workspace)"), not by its manifest. */
  disabledInWorkspace?: boolean;
  /** The wire protocol it spoke at its last handshake (`zut` v2, `zot` v1, `e`); undefined before one. */
  protocol?: ProtocolName;
}

/** A `tool_result`, attributed to its extension. */
export interface ToolResult {
  ext: string;
  content: ContentBlock[];
  isError: boolean;
  activateTools?: string[];
  details?: unknown;
}

/**
 * Why a request did not get a reply: `timeout` (no reply in time), `cancelled` (the caller's signal), `crashed` (its
 * process died or could not be written to), `stopped` (not running), `not-found` (no such tool or command),
 * `protocol` (a reply that is not what the protocol says), `internal` (a failure that was no RequestError, wrapped),
 * `busy` (too many in flight), `invalid` (the request cannot be encoded for its protocol).
 */
export type RequestFailure = 'timeout' | 'cancelled' | 'crashed' | 'stopped' | 'not-found' | 'protocol' | 'internal' | 'busy' | 'invalid';

/**
 * The error of a request whose `signal` aborted: the signal's reason when that is a `RequestError` (a caller's own
 * deadline aborts with kind `timeout`), else `cancelled` with `message`.
 */
export function abortError(signal: AbortSignal, message: string): RequestError {
  return signal.reason instanceof RequestError ? signal.reason : new RequestError('cancelled', message);
}

/** A request (tool call, command, intercept) that ended without a reply. */
export class RequestError extends Error {
  constructor(
    readonly kind: RequestFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** The result of a (re)load: what stopped, what loaded, what became ready, and the errors. */
export interface LoadReport {
  stopped: string[];
  loaded: string[];
  ready: string[];
  errors: { ext: string; message: string }[];
}

/** Options of one tool call. */
export interface CallToolOptions {
  /** Cancels the call; sends `tool_cancel` when the extension advertised it. */
  signal?: AbortSignal;
  /** Overrides the configured reply timeout. Ignored (no deadline) for interactive tools. */
  timeoutMs?: number;
  /** The caller's session branch: `details` are filed under its id (none: the no-session branch). */
  session?: SessionContext;
  /** Names of the tool calls this one is nested in (zot's `call_tool` chain rules). */
  chain?: readonly string[];
  /** Output the tool streams while it runs (e's `tool.update`). */
  onProgress?: (text: string) => void;
}

/**
 * A lifecycle event as the host emits it: the `event` frame's fields (zut's, plus those zot's events carry:
 * `origin_extension`, and `status`/`executed`/`result` of its `tool_result` event) without `type`, without `state`
 * (the Manager fills it in per receiver) and without zot's per-connection `session_id`/`cwd`/`sequence`.
 */
export type LifecycleEvent = Omit<ZotEventFromHost, 'type' | 'state' | 'session_id' | 'cwd' | 'sequence'>;

/** Who blocked, and why. */
export interface Blocked {
  ext: string;
  reason: string;
}

/**
 * A `tool_call` put to the interception chain. `origin_extension`: the zot extension whose `call_tool` this is;
 * `editor_tool`: the real tool of another agent or the editor behind the name guards see (foreignTools/; an additive
 * frame field); `effect`: what that tool does (`exec`, `write`, `read`, `network`; additive).
 */
export interface ToolCallIntercept {
  tool_id: string;
  tool_name: string;
  tool_args: unknown;
  origin_extension?: string;
  editor_tool?: string;
  effect?: string;
}

/**
 * Checks a guard's `modified_args` before the chain goes on: a string says why they cannot be applied (a foreign
 * tool's input cannot express them), and the call is blocked by that guard (fail closed).
 */
export type AcceptArgs = (args: unknown) => string | undefined;

/** Outcome of the `turn_start` chain. `context`: the joined hidden context (`[ext]\n<text>` blocks, capped 16 KiB). */
export interface TurnStartDecision {
  blocked?: Blocked;
  context?: string;
}

/** Outcome of the `assistant_message` chain. `text`: what the user sees (possibly replaced). */
export interface AssistantMessageDecision {
  blocked?: Blocked;
  text: string;
}

/** A line an extension wrote to stderr, or (when tracing) a frame in or out. */
export interface ExtensionLogLine {
  ext: string;
  kind: 'stderr' | 'in' | 'out' | 'host';
  text: string;
}

export type TraceLevel = 'off' | 'messages' | 'verbose';
