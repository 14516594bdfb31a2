/**
 * The seam between the host and the wire protocols it speaks. Connection (connection.ts) keeps the process, the
 * line codec, the queues and the timers; everything that depends on the wire format is an adapter behind these
 * interfaces, one per protocol: zut v2 (`v2.ts`), zot v1 (`zot.ts`), e's JSON-RPC (`e.ts`).
 *
 * How a connection uses them:
 * 1. **Handshake.** A {@link ProtocolFamily} (chosen per discovered extension; `familyFor` in index.ts) opens a
 *    {@link ProtocolHandshake}. Its `opening` lines are written right after spawn (a host that speaks first: e's
 *    `initialize` request); then every line the extension writes goes to `onLine` until a step is `done` (an
 *    {@link ExtensionProtocol} for the rest of the connection, the {@link ExtensionHello}, lines to send such as
 *    `hello_ack`) or `fail`. One family may pick among several protocols there: the zut family reads the `hello`
 *    and picks zut v2 (`protocol_version: 2`) or zot v1 (none, or 1).
 * 2. **Registration.** `registration: 'open'` (zut, zot): registrations follow until `ready`, 250 ms of silence
 *    or the 3 s grace. `'complete'` (e: the manifest in the `initialize` reply is the registration, handed over as
 *    `messages` of the `done` step): the extension is ready at once.
 * 3. **Running.** Each line → `decode` → one {@link ExtMessage}: a `reply` the Connection correlates by its `id`
 *    (a string key: the adapter maps it to its wire id, e.g. e's numbers), a one-way `notice` in the host's
 *    vocabulary, a `request` the host answers with `encodeResponse` (zot's `call_tool`, e's `ui.select`), a
 *    `cancel` of such a request, `progress` of a running host request (e's `tool.update`), a `batch` of several,
 *    `ready`, or a `diagnostic` for a line that is not usable.
 *    Host → extension: `nextId` + `encodeRequest` for requests with a reply (`decodeReply` checks and maps the
 *    reply body), `encodeNotice` for one-way messages (undefined: this protocol has no such message; nothing is
 *    sent), `encodeResponse` to answer the extension's own requests.
 *
 * The neutral vocabulary is the host's: the reply and notice shapes are zut's (snake_case names as in the
 * protocols, so they stay recognisable), which zot shares and e's adapter maps onto. Adapters never throw from
 * `decode`/`encode*`: what cannot be mapped is a `diagnostic`, an `undefined` notice or a `RequestError` reply.
 * No `vscode` here.
 */
import type { ContentBlock, ExtFrame, PanelSpec, SessionContext } from '../../protocol';
import type { LifecycleEvent, ProtocolName } from '../types';

/** The wire protocols the host speaks. */
export type { ProtocolName };

/** What the host tells an extension at the handshake (zut/zot `hello_ack`, e's `initialize` params). */
export interface HostInfo {
  /** The host's version (`zut_version`, `zot_version`, `e_version`). */
  hostVersion: string;
  provider: string;
  model: string;
  /** The user's project directory. */
  cwd: string;
  extensionDir: string;
  dataDir: string;
  /** The latest session branch (zut's `hello_ack.session`). */
  session?: SessionContext;
  /** Whether someone can answer questions (e's `initialize.params.ui`; false headless; absent = yes). */
  canAsk?: boolean;
  /** e only: `initialize.params.extensions_config` (the `extensions` entries of e's settings.json). */
  extensionsConfig?: Record<string, unknown>;
}

/** Who the extension is, once the handshake is done. */
export interface ExtensionHello {
  protocol: ProtocolName;
  /** The protocol version the two sides agreed on (zut 2, zot 1, e's `protocol`). */
  protocolVersion: number;
  name: string;
  version?: string;
  /** Capabilities the extension advertised (`tool_cancel`, `call_tool`, `panels`, …; e: its manifest families). */
  capabilities: string[];
}

// ---------------------------------------------------------------- host → extension

/**
 * The payload of an interception request: `event` plus that event's fields (tool_id, tool_args, step, text, …).
 * `prompt` (`turn_start`) is the turn's user prompt: e's `hook.before_turn` takes it; zut's and zot's frames do not
 * carry it.
 */
export interface InterceptPayload {
  event: string;
  prompt?: string;
  [field: string]: unknown;
}

/** A request the host sends and whose reply it awaits (correlated by the id from `nextId`). */
export type HostRequest =
  | { kind: 'command'; name: string; args: string }
  | { kind: 'tool'; name: string; args: unknown }
  | { kind: 'intercept'; payload: InterceptPayload };

/** A one-way host message. */
export type HostNotice =
  /** A lifecycle event for a subscriber; `state` is the receiver's own state for the event's session. */
  | { kind: 'event'; event: LifecycleEvent & { state?: unknown } }
  /** The host abandoned its request `id` (timeout, cancel): zut/zot `tool_cancel`, when the extension opted in. */
  | { kind: 'cancel'; id: string }
  | { kind: 'panelKey'; panelId: string; key: string; text?: string }
  | { kind: 'panelResize'; panelId: string; columns: number; rows: number }
  /** The user closed the extension's panel. */
  | { kind: 'panelClosed'; panelId: string }
  | { kind: 'shutdown' };

/** The host's answer to a request the extension made (see {@link ExtMessage} `request`). */
export type HostResponse =
  /** A tool's result (zot: `tool_result` with `name`; `truncated` when it was shortened to the 256 KiB bound). */
  | { kind: 'tool'; name: string; content: ContentBlock[]; isError: boolean; truncated?: boolean }
  /** A plain result value (e's `{"id":…,"result":…}`). */
  | { kind: 'result'; value: unknown }
  /** The request failed or is not supported here (zot: an `is_error` tool result; e: `{"error":…}`). */
  | { kind: 'error'; message: string };

/** Where to send the answer to an extension's request: its live connection. */
export interface Responder {
  respond(id: ExtRequestId, response: HostResponse): boolean;
}

// ---------------------------------------------------------------- replies to host requests

/** The reply to a `tool` request (zut's `tool_result` without `type`/`id`). */
export interface ToolReply {
  content: ContentBlock[];
  is_error?: boolean;
  activate_tools?: string[];
  details?: unknown;
}

/** The reply to a `command` request (zut's `command_response` without `type`/`id`; zot adds `tool_prompt`). */
export interface CommandReply {
  /** `prompt`, `tool_prompt`, `insert`, `display`, `open_panel`, `noop`. */
  action: string;
  prompt?: string;
  insert?: string;
  display?: string;
  open_panel?: PanelSpec;
  error?: string;
  /** `tool_prompt`: the tool to run (through the guarded path) before the prompt, and its arguments. */
  tool_name?: string;
  tool_args?: unknown;
}

/** The reply to an `intercept` request (zut's `event_intercept_response` without `type`/`id`). */
export interface InterceptReply {
  block?: boolean;
  reason?: string;
  modified_args?: unknown;
  replace_text?: string;
  /** `turn_start`: hidden context for the turn. */
  context?: string;
  /** `before_agent_start`: the exact replacement system prompt (`""` removes it; omitted keeps it). */
  system_prompt?: string;
}

/** Reply type per request kind. */
export interface ReplyMap {
  command: CommandReply;
  tool: ToolReply;
  intercept: InterceptReply;
}

// ---------------------------------------------------------------- extension → host

/**
 * A one-way message in the host's vocabulary: registrations, subscriptions and UI (zut's frame shapes:
 * `register_command`, `register_tool`, `subscribe`, `notify`, `status`, `widget`, `open_panel`, …).
 */
export type ExtNotice = Exclude<
  ExtFrame,
  { type: 'hello' | 'ready' | 'tool_result' | 'command_response' | 'event_intercept_response' | 'shutdown_ack' }
>;

/** The extension's own correlation id for a request it made (any JSON value on e's wire; a string on zot's). */
export type ExtRequestId = string | number;

/** What one line from the extension means. */
export type ExtMessage =
  /** The reply to host request `id` (the key from `nextId`); `body` is checked by `decodeReply`. */
  | { kind: 'reply'; id: string; body: unknown }
  | { kind: 'notice'; notice: ExtNotice }
  /**
   * The extension asks the host something and awaits `encodeResponse(id, …)`. `method` is neutral where the host
   * knows it (`call_tool`: its params are checked in extRequests.ts); other methods are the protocol's own (e's `ui.select`, …) and
   * are answered with an error unless the host has a handler for them. `ask`: a `Question` (hostUi.ts) for the user
   * (e's `ui.select` / `ui.confirm` / `ui.input`), answered `{kind: 'result', value: Answer | undefined}` (undefined:
   * dismissed) or `{kind: 'error'}` (no UI).
   */
  | { kind: 'request'; id: ExtRequestId; method: string; params: unknown }
  /** The extension withdrew its request `id` (zot's `call_tool_cancel`). */
  | { kind: 'cancel'; id: ExtRequestId }
  /**
   * Several messages from one line, plus lines the adapter answers by itself (e's `ui.notify`: a `notify` notice
   * and its `{}` answer; a request the host cannot serve: its error answer at once, so the extension never hangs).
   */
  | { kind: 'batch'; messages: ExtMessage[]; send: string[] }
  /** Output streamed by the running host request `id` (e's `tool.update`): shown as progress where the call was made. */
  | { kind: 'progress'; id: string; text: string }
  /** Registration is complete (zut/zot `ready`). */
  | { kind: 'ready' }
  /** Nothing to do (a stray `hello`, `shutdown_ack`). */
  | { kind: 'none' }
  /** The line is not usable (malformed, unknown type): logged, never fatal. */
  | { kind: 'diagnostic'; message: string };

// ---------------------------------------------------------------- the adapters

/** The wire protocol of one running connection, after its handshake. One instance per connection. */
export interface ExtensionProtocol {
  readonly name: ProtocolName;
  /** Events the extension may intercept in this protocol (`subscribe.intercept`). */
  readonly interceptable: ReadonlySet<string>;
  /** Decodes one line (without its newline). Never throws. */
  decode(line: string): ExtMessage;
  /** A fresh correlation key for the next host request (the adapter derives its wire id from it). */
  nextId(): string;
  /** Encodes a host request as one line (with its newline). */
  encodeRequest(id: string, request: HostRequest): string;
  /**
   * Checks and maps the reply body to a request of `kind`. Throws `RequestError` when the body is not such a reply
   * (a reply of another type, e's `{"error":…}`).
   */
  decodeReply<K extends HostRequest['kind']>(kind: K, body: unknown): ReplyMap[K];
  /** Encodes a one-way host message as one line; undefined when this protocol (or this extension) has none. */
  encodeNotice(notice: HostNotice): string | undefined;
  /** Encodes the host's answer to the extension's request `id` as one line. */
  encodeResponse(id: ExtRequestId, response: HostResponse): string;
  /** A short summary of one line for `zut.trace: messages` (e.g. `tool_call #7`). */
  summarize(line: string): string;
}

/** What a handshake needs from the host. */
export interface HandshakeContext {
  /** The manifest name; the extension must announce the same. */
  readonly name: string;
  /** Host facts for `hello_ack` / `initialize`, built when needed (the current model and session). */
  hostInfo(): HostInfo;
}

/** One step of a handshake, after a line from the extension. */
export type HandshakeStep =
  /** Not done yet; `messages` (if any) are handled as usual. */
  | { kind: 'wait'; messages?: ExtMessage[] }
  /**
   * The handshake failed: the child is killed. The error reads `<message> (<detail>; stderr log: …)`, e.g.
   * `first frame must be hello (got "notify"; stderr log: …)`.
   */
  | { kind: 'fail'; message: string; detail?: string }
  | {
      kind: 'done';
      protocol: ExtensionProtocol;
      hello: ExtensionHello;
      /** Lines to write now, in order (`hello_ack`). */
      send: string[];
      /** Messages to handle as usual (e: the manifest's registrations). */
      messages?: ExtMessage[];
      /** `open`: a registration window follows (ends at `ready`); `complete`: ready now. */
      registration: 'open' | 'complete';
    };

/** The handshake of one connection (stateful). */
export interface ProtocolHandshake {
  /** Lines the host writes right after spawn, when it speaks first (e's `initialize`); none for zut/zot. */
  readonly opening: readonly string[];
  /** What the host waits for, in messages: `no hello frame within 60s`, `extension exited before hello`. */
  readonly awaiting: { timeout: string; exit: string };
  /** The protocol's own handshake deadline, overriding the host's start timeout (e: `initialize` within 5 s). */
  readonly timeoutMs?: number;
  onLine(line: string): HandshakeStep;
}

/** How connections of one kind of extension begin: opens a handshake per connection. */
export interface ProtocolFamily {
  /** For messages (`zut`, `e`). */
  readonly name: string;
  handshake(ctx: HandshakeContext): ProtocolHandshake;
}
