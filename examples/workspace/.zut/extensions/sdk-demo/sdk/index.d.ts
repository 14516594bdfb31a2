import type { ExtFrame, HelloAckFromHost, InterceptableEvent } from './frames.js';
import type { CommandHandler, EventHandler, ExtensionOptions, InterceptHandler, Logger, PanelContent, PanelHandle, ToolHandler, ToolOptions } from './types.js';
export * from './frames.js';
export * from './types.js';
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
