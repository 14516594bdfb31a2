/** The SDK's public types (besides the generated frame types in ./frames.ts). */
import type { EventFromHost, EventInterceptFromHost, PanelKeyName, RegisterToolFromExt } from './frames.js';
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
    /** Hints about the tool (`title`, `readOnlyHint`, `destructiveHint`, …), passed on to MCP clients. */
    annotations?: RegisterToolFromExt['annotations'];
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
export type CommandHandler = (args: string, ctx: CommandContext) => CommandReturn | Promise<CommandReturn>;
export type ToolHandler<A> = (args: A, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
export type EventHandler = (event: EventFromHost) => void | Promise<void>;
export type InterceptHandler = (event: EventInterceptFromHost) => InterceptDecision | void | Promise<InterceptDecision | void>;
