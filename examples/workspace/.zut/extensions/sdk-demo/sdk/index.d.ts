import type { EventFromHost, EventInterceptFromHost, ExtFrame, HelloAckFromHost, InterceptableEvent, PanelKeyName } from './frames.js';
export * from './frames.js';
/** A content block of a tool result. */
export interface ContentBlock {
    type: string;
    text?: string;
    mime_type?: string;
    data?: string;
}
/** What a tool handler may return: text, content blocks, or a full result. */
export type ToolReturn = string | ContentBlock[] | {
    content?: ContentBlock[];
    text?: string;
    isError?: boolean;
    details?: unknown;
    activateTools?: string[];
};
/** A panel's content (`open_panel` / `panel_render`). */
export interface PanelContent {
    title?: string;
    lines?: string[];
    footer?: string;
}
/**
 * What a command handler may return. A string or `{ display }` shows text; `{ prompt }` submits a prompt;
 * `{ insert }` inserts text; `{ error }` (or a thrown error) reports a failure (`action: "noop"` + `error`, as
 * zut's Go SDK does); nothing = `noop` (e.g. after `ext.openPanel(…)`).
 */
export type CommandReturn = void | undefined | string | {
    display: string;
} | {
    prompt: string;
} | {
    insert: string;
} | {
    error: string;
} | {
    noop: true;
};
/** Tool options (`register_tool`). */
export interface ToolOptions {
    name: string;
    description?: string;
    /** JSON Schema of the arguments (an object schema). Default `{ "type": "object" }`. */
    inputSchema?: Record<string, unknown>;
    /**
     * Hints about the tool (MCP-style: `readOnlyHint`, `destructiveHint`, `title`…). Sent as an extra
     * `annotations` field, which protocol v2 hosts tolerate; zut itself does not use it today.
     */
    annotations?: Record<string, unknown>;
    /** Registered but offered to the model only once another tool's result names it in `activateTools`. */
    deferred?: boolean;
    /** Waits for a person (e.g. a panel): no host reply deadline. */
    interactive?: boolean;
}
/** Passed to every tool handler. */
export interface ToolContext {
    /** The request id. */
    id: string;
    /** Aborted on `tool_cancel`, on `shutdown` and when the host goes away; a result after that is discarded. */
    signal: AbortSignal;
}
/** Passed to every command handler. */
export interface CommandContext {
    id: string;
    name: string;
}
/** What an interception handler may answer (nothing = allow unchanged). */
export interface InterceptDecision {
    block?: boolean;
    reason?: string;
    /** `tool_call`: replacement arguments. */
    modifiedArgs?: Record<string, unknown>;
    /** `assistant_message`: replacement text. */
    replaceText?: string;
    /** `turn_start`: hidden context for this turn. */
    context?: string;
}
/** An open panel. */
export interface PanelHandle {
    readonly id: string;
    /** Pushes new content (omitted fields keep their value). */
    render(content: PanelContent): void;
    /** Called for every key while the panel is open (`rune` keys carry `text`). */
    onKey(handler: (key: PanelKeyName, text: string | undefined) => void | Promise<void>): void;
    /** Closes it (sends `panel_close`). */
    close(): void;
    /** Resolves once closed, by the extension or by the user. */
    readonly closed: Promise<void>;
}
/** Logger to stderr (the host's per-extension log). */
export interface Logger {
    info(...args: unknown[]): void;
    warn(...args: unknown[]): void;
    error(...args: unknown[]): void;
}
/** A readable byte/text stream (process.stdin); typed structurally so the SDK's types need no @types/node. */
export interface ReadableLike {
    on(event: string, listener: (...args: never[]) => void): unknown;
}
/** A writable stream (process.stdout). */
export interface WritableLike {
    write(chunk: string, callback?: (error?: Error | null) => void): boolean;
}
export interface ExtensionOptions {
    /** Must equal the manifest's `name`. */
    name: string;
    version?: string;
    /** Extra `hello.capabilities` (the SDK adds `commands`, `tools`, `tool_cancel`, `panels` as used). */
    capabilities?: string[];
    /** Streams (tests); default process.stdin / process.stdout / process.stderr. */
    input?: ReadableLike;
    output?: WritableLike;
    stderr?: WritableLike;
    /** Called to end the process after `shutdown` or stdin EOF; default `process.exit`. */
    exit?: (code: number) => void;
}
type CommandHandler = (args: string, ctx: CommandContext) => CommandReturn | Promise<CommandReturn>;
type ToolHandler<A> = (args: A, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
type EventHandler = (event: EventFromHost) => void | Promise<void>;
type InterceptHandler = (event: EventInterceptFromHost) => InterceptDecision | void | Promise<InterceptDecision | void>;
/** One zut extension. Register everything, then `await start()`. */
export declare class Extension {
    private readonly options;
    /** stderr logger. */
    readonly log: Logger;
    /** The host's `hello_ack` (after `start()`). */
    hostInfo: HelloAckFromHost | undefined;
    /** The latest state the host handed back for this session branch (`event.state`; set by tool `details`). */
    state: unknown;
    private readonly commands;
    private readonly tools;
    private readonly events;
    private readonly intercepts;
    private readonly panels;
    private readonly running;
    private readonly shutdownHandlers;
    private readonly out;
    private readonly errOut;
    private started;
    private stopping;
    constructor(options: ExtensionOptions);
    /** A slash command `/name`. */
    command(name: string, description: string, handler: CommandHandler): this;
    /** A tool the model can call. Arguments are whatever the host sends (validate them). */
    tool<A = Record<string, unknown>>(options: ToolOptions, handler: ToolHandler<A>): this;
    /** Subscribes to a lifecycle event (`session_start`, `turn_start`, `tool_call`, `agent_end`, …). */
    on(event: string, handler: EventHandler): this;
    /** Intercepts `tool_call`, `turn_start` or `assistant_message` (one handler per event; answered within 5 s). */
    intercept(event: InterceptableEvent, handler: InterceptHandler): this;
    /** Runs before the extension exits on `shutdown` or stdin EOF. */
    onShutdown(handler: () => void | Promise<void>): this;
    private beforeStart;
    notify(message: string, level?: 'info' | 'success' | 'warn' | 'error'): void;
    /** Sets (or, with empty text, removes) a status item. */
    status(key: string, text: string, level?: 'info' | 'success' | 'warn' | 'error'): void;
    widget(widget: {
        id: string;
        title?: string;
        lines?: string[];
        position?: string;
    }): void;
    clearWidget(id: string): void;
    clearNotes(): void;
    /** Queues a prompt as if the user typed it. */
    submit(text: string): void;
    /** Runs a slash command as if typed (`/name args`). */
    submitSlash(text: string): void;
    /** Rings the bell (a notification when the window is away). */
    alert(reason?: string): void;
    /** Opens a panel; keys arrive through the handle. `id` defaults to a unique one. */
    openPanel(content: PanelContent & {
        id?: string;
    }): PanelHandle;
    /**
     * Sends `hello`, waits for `hello_ack` (exits 1 on a protocol mismatch), registers everything, sends `ready`,
     * then serves requests until `shutdown` or stdin EOF. Resolves after the handshake.
     */
    start(): Promise<void>;
    private handshake;
    private dispatch;
    private guard;
    private panelKey;
    private runCommand;
    private runTool;
    private runIntercept;
    /** Cancels running tools, runs shutdown handlers, acknowledges (when asked) and exits 0. */
    private shutdown;
    private exit;
    /** Writes one frame (ignored after shutdown began, except the acknowledgement). */
    send(frame: ExtFrame): void;
}
/** Creates an extension; register commands, tools, events and interceptions, then `await ext.start()`. */
export declare function createExtension(options: ExtensionOptions): Extension;
