/**
 * The zut extension SDK for TypeScript and typed JavaScript: a small runtime over stdio (newline-delimited JSON,
 * protocol v2) with typed frames generated from the host's own schemas (./frames.ts). No dependencies.
 *
 *   import { createExtension } from './sdk/index.js';
 *   const ext = createExtension({ name: 'hello', version: '0.1.0' });
 *   ext.command('hello', 'Say hello', (args) => ({ display: `Hello, ${args || 'world'}!` }));
 *   ext.tool({ name: 'hello_add', description: 'Add two numbers', inputSchema: { type: 'object' } },
 *     (args: { a: number; b: number }) => String(args.a + args.b));
 *   await ext.start();
 *
 * stdout carries frames only: log with `ext.log` (stderr, the host's per-extension log).
 */
import * as readline from 'node:readline';
import type {
  CommandInvokedFromHost,
  EventInterceptFromHost,
  ExtFrame,
  HelloAckFromHost,
  HostFrame,
  InterceptableEvent,
  PanelKeyFromHost,
  PanelKeyName,
  ToolCallFromHost,
} from './frames.js';
import { PROTOCOL_VERSION } from './frames.js';
import type {
  CommandHandler,
  ContentBlock,
  EventHandler,
  ExtensionOptions,
  InterceptDecision,
  InterceptHandler,
  Logger,
  PanelContent,
  PanelHandle,
  ToolHandler,
  ToolOptions,
  ToolReturn,
  WritableLike,
} from './types.js';

export * from './frames.js';
export * from './types.js';

let panelSeq = 0;

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function toolResultFields(r: ToolReturn): { content: ContentBlock[]; is_error?: boolean; details?: unknown; activate_tools?: string[] } {
  if (typeof r === 'string') return { content: [{ type: 'text', text: r }] };
  if (Array.isArray(r)) return { content: r };
  const content = r.content ?? (r.text !== undefined ? [{ type: 'text', text: r.text }] : []);
  return {
    content,
    ...(r.isError ? { is_error: true } : {}),
    ...(r.details !== undefined ? { details: r.details } : {}),
    ...(r.activateTools?.length ? { activate_tools: r.activateTools } : {}),
  };
}

/** One zut extension. Register everything, then `await start()`. */
export class Extension {
  /** stderr logger. */
  readonly log: Logger;
  /** The host's `hello_ack` (after `start()`). */
  hostInfo: HelloAckFromHost | undefined;
  /** The latest state the host handed back for this session branch (`event.state`; set by tool `details`). */
  state: unknown;

  private readonly commands = new Map<string, { description?: string; handler: CommandHandler }>();
  private readonly tools = new Map<string, { options: ToolOptions; handler: ToolHandler<never> }>();
  private readonly events = new Map<string, EventHandler[]>();
  private readonly intercepts = new Map<string, InterceptHandler>();
  private readonly panels = new Map<string, { keys: ((k: PanelKeyName, t: string | undefined) => void | Promise<void>)[]; done: () => void }>();
  private readonly running = new Map<string, AbortController>();
  private readonly shutdownHandlers: (() => void | Promise<void>)[] = [];
  private readonly out: WritableLike;
  private readonly errOut: WritableLike;
  private started = false;
  private stopping = false;

  constructor(private readonly options: ExtensionOptions) {
    this.out = options.output ?? process.stdout;
    this.errOut = options.stderr ?? process.stderr;
    const line = (level: string) => (...args: unknown[]) =>
      void this.errOut.write(`[${options.name}] ${level}: ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
    this.log = { info: line('info'), warn: line('warn'), error: line('error') };
  }

  // ------------------------------------------------------------------ registration (before start)

  /** A slash command `/name`. */
  command(name: string, description: string, handler: CommandHandler): this {
    this.beforeStart('command');
    this.commands.set(name, { description, handler });
    return this;
  }

  /** A tool the model can call. Arguments are whatever the host sends (validate them). */
  tool<A = Record<string, unknown>>(options: ToolOptions, handler: ToolHandler<A>): this {
    this.beforeStart('tool');
    this.tools.set(options.name, { options, handler: handler as ToolHandler<never> });
    return this;
  }

  /** Subscribes to a lifecycle event (`session_start`, `turn_start`, `tool_call`, `agent_end`, …). */
  on(event: string, handler: EventHandler): this {
    this.beforeStart('on');
    this.events.set(event, [...(this.events.get(event) ?? []), handler]);
    return this;
  }

  /** Intercepts `tool_call`, `turn_start` or `assistant_message` (one handler per event; answered within 5 s). */
  intercept(event: InterceptableEvent, handler: InterceptHandler): this {
    this.beforeStart('intercept');
    this.intercepts.set(event, handler);
    return this;
  }

  /** Runs before the extension exits on `shutdown` or stdin EOF. */
  onShutdown(handler: () => void | Promise<void>): this {
    this.shutdownHandlers.push(handler);
    return this;
  }

  private beforeStart(what: string): void {
    if (this.started) throw new Error(`${what}() must be called before start()`);
  }

  // ------------------------------------------------------------------ one-way frames (after start)

  notify(message: string, level: 'info' | 'success' | 'warn' | 'error' = 'info'): void {
    this.send({ type: 'notify', level, message });
  }

  /** Sets (or, with empty text, removes) a status item. */
  status(key: string, text: string, level?: 'info' | 'success' | 'warn' | 'error'): void {
    this.send({ type: 'status', key, text, ...(level ? { level } : {}) });
  }

  widget(widget: { id: string; title?: string; lines?: string[]; position?: string }): void {
    this.send({ type: 'widget', ...widget });
  }

  clearWidget(id: string): void {
    this.send({ type: 'widget_clear', id });
  }

  clearNotes(): void {
    this.send({ type: 'clear_notes' });
  }

  /** Queues a prompt as if the user typed it. */
  submit(text: string): void {
    this.send({ type: 'submit', text });
  }

  /** Runs a slash command as if typed (`/name args`). */
  submitSlash(text: string): void {
    this.send({ type: 'submit_slash', text });
  }

  /** Rings the bell (a notification when the window is away). */
  alert(reason?: string): void {
    this.send({ type: 'alert', kind: 'bell', ...(reason !== undefined ? { reason } : {}) });
  }

  /** Opens a panel; keys arrive through the handle. `id` defaults to a unique one. */
  openPanel(content: PanelContent & { id?: string }): PanelHandle {
    const id = content.id ?? `${this.options.name}-panel-${++panelSeq}`;
    let done!: () => void;
    const closed = new Promise<void>((r) => (done = r));
    const entry = { keys: [] as ((k: PanelKeyName, t: string | undefined) => void | Promise<void>)[], done };
    this.panels.set(id, entry);
    const { id: _omit, ...rest } = content;
    this.send({ type: 'open_panel', panel: { id, ...rest } });
    return {
      id,
      render: (c) => {
        if (this.panels.has(id)) this.send({ type: 'panel_render', panel_id: id, ...c });
      },
      onKey: (h) => void entry.keys.push(h),
      close: () => {
        if (!this.panels.delete(id)) return;
        this.send({ type: 'panel_close', panel_id: id });
        done();
      },
      closed,
    };
  }

  // ------------------------------------------------------------------ the loop

  /**
   * Sends `hello`, waits for `hello_ack` (exits 1 on a protocol mismatch), registers everything, sends `ready`,
   * then serves requests until `shutdown` or stdin EOF. Resolves after the handshake.
   */
  start(): Promise<void> {
    this.started = true;
    const caps = new Set(this.options.capabilities ?? []);
    if (this.commands.size) caps.add('commands');
    if (this.tools.size) caps.add('tools').add('tool_cancel');
    caps.add('panels');
    this.send({
      type: 'hello',
      protocol_version: PROTOCOL_VERSION,
      name: this.options.name,
      ...(this.options.version ? { version: this.options.version } : {}),
      capabilities: [...caps],
    });
    const rl = readline.createInterface({ input: (this.options.input ?? process.stdin) as NodeJS.ReadableStream, crlfDelay: Infinity });
    return new Promise((resolve) => {
      rl.on('line', (line) => {
        if (line.trim() === '') return;
        let frame: HostFrame;
        try {
          frame = JSON.parse(line) as HostFrame;
        } catch (e) {
          this.log.warn(`ignoring a line that is not JSON: ${errorText(e)}`);
          return;
        }
        if (frame.type === 'hello_ack') {
          this.handshake(frame);
          resolve();
        } else this.dispatch(frame);
      });
      rl.on('close', () => void this.shutdown(false));
    });
  }

  private handshake(ack: HelloAckFromHost): void {
    if (ack.protocol_version !== PROTOCOL_VERSION) {
      this.log.error(`host speaks protocol ${ack.protocol_version}, this SDK ${PROTOCOL_VERSION}`);
      this.exit(1);
      return;
    }
    this.hostInfo = ack;
    if (ack.session !== undefined) this.state = undefined;
    for (const [name, c] of this.commands) this.send({ type: 'register_command', name, description: c.description });
    for (const { options: o } of this.tools.values()) {
      this.send({
        type: 'register_tool',
        name: o.name,
        ...(o.description !== undefined ? { description: o.description } : {}),
        schema: o.inputSchema ?? { type: 'object' },
        ...(o.deferred ? { deferred: true } : {}),
        ...(o.interactive ? { interactive: true } : {}),
        ...(o.annotations ? { annotations: o.annotations } : {}),
      });
    }
    if (this.events.size || this.intercepts.size) {
      this.send({ type: 'subscribe', events: [...this.events.keys()], intercept: [...this.intercepts.keys()] });
    }
    this.send({ type: 'ready' });
  }

  private dispatch(f: HostFrame): void {
    switch (f.type) {
      case 'command_invoked':
        void this.runCommand(f);
        return;
      case 'tool_call':
        void this.runTool(f);
        return;
      case 'tool_cancel':
        this.running.get(f.id)?.abort(new Error('cancelled by the host'));
        return;
      case 'event':
        if (f.state !== undefined || f.session !== undefined) this.state = f.state;
        for (const h of this.events.get(f.event) ?? []) void this.guard(`event ${f.event}`, () => h(f));
        return;
      case 'event_intercept':
        void this.runIntercept(f);
        return;
      case 'panel_key':
        this.panelKey(f);
        return;
      case 'panel_close': {
        const p = this.panels.get(f.panel_id);
        this.panels.delete(f.panel_id);
        p?.done();
        return;
      }
      case 'panel_resize':
        return;
      case 'shutdown':
        void this.shutdown(true);
        return;
      default:
        return; // unknown frame types are tolerated
    }
  }

  private async guard(what: string, fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.log.error(`${what}: ${errorText(e)}`);
    }
  }

  private panelKey(f: PanelKeyFromHost): void {
    for (const h of this.panels.get(f.panel_id)?.keys ?? []) void this.guard(`panel ${f.panel_id} key`, () => h(f.key as PanelKeyName, f.text));
  }

  private async runCommand(f: CommandInvokedFromHost): Promise<void> {
    const c = this.commands.get(f.name) ?? [...this.commands].find(([n]) => n.toLowerCase() === f.name.toLowerCase())?.[1];
    const reply = (fields: Record<string, unknown>) => this.send({ type: 'command_response', id: f.id, action: 'noop', ...fields } as ExtFrame);
    if (!c) return reply({ error: `unknown command /${f.name}` });
    try {
      const r = await c.handler(f.args ?? '', { id: f.id, name: f.name });
      if (r === undefined || r === null) reply({});
      else if (typeof r === 'string') reply({ action: 'display', display: r });
      else if ('display' in r) reply({ action: 'display', display: r.display });
      else if ('prompt' in r) reply({ action: 'prompt', prompt: r.prompt });
      else if ('insert' in r) reply({ action: 'insert', insert: r.insert });
      else if ('error' in r) reply({ error: r.error });
      else reply({});
    } catch (e) {
      this.log.error(`/${f.name}: ${errorText(e)}`);
      reply({ error: errorText(e) });
    }
  }

  private async runTool(f: ToolCallFromHost): Promise<void> {
    const t = this.tools.get(f.name);
    if (!t) {
      this.send({ type: 'tool_result', id: f.id, content: [{ type: 'text', text: `unknown tool ${f.name}` }], is_error: true });
      return;
    }
    const ac = new AbortController();
    this.running.set(f.id, ac);
    let fields: ReturnType<typeof toolResultFields>;
    try {
      fields = toolResultFields(await t.handler((f.args ?? {}) as never, { id: f.id, signal: ac.signal }));
    } catch (e) {
      if (!ac.signal.aborted) this.log.error(`tool ${f.name}: ${errorText(e)}`);
      fields = { content: [{ type: 'text', text: errorText(e) }], is_error: true };
    }
    this.running.delete(f.id);
    if (ac.signal.aborted) return; // the host gave up on it: a late result is discarded
    if (fields.details !== undefined) this.state = fields.details;
    this.send({ type: 'tool_result', id: f.id, ...fields });
  }

  private async runIntercept(f: EventInterceptFromHost): Promise<void> {
    const h = this.intercepts.get(f.event);
    let d: InterceptDecision | void = undefined;
    try {
      d = h ? await h(f) : undefined;
    } catch (e) {
      this.log.error(`intercept ${f.event}: ${errorText(e)}`);
    }
    this.send({
      type: 'event_intercept_response',
      id: f.id,
      ...(d?.block ? { block: true } : {}),
      ...(d?.reason !== undefined ? { reason: d.reason } : {}),
      ...(d?.modifiedArgs !== undefined ? { modified_args: d.modifiedArgs } : {}),
      ...(d?.replaceText !== undefined ? { replace_text: d.replaceText } : {}),
      ...(d?.context !== undefined ? { context: d.context } : {}),
    });
  }

  /** Cancels running tools, runs shutdown handlers, acknowledges (when asked) and exits 0. */
  private async shutdown(ack: boolean): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const ac of this.running.values()) ac.abort(new Error('the host is shutting down'));
    for (const h of this.shutdownHandlers) await this.guard('shutdown handler', h);
    if (ack) this.send({ type: 'shutdown_ack' });
    // Exit once stdout is flushed.
    this.out.write('', () => this.exit(0));
  }

  private exit(code: number): void {
    (this.options.exit ?? ((c: number) => process.exit(c)))(code);
  }

  /** Writes one frame (ignored after shutdown began, except the acknowledgement). */
  send(frame: ExtFrame): void {
    if (this.stopping && frame.type !== 'shutdown_ack') return;
    this.out.write(JSON.stringify(frame) + '\n');
  }
}

/** Creates an extension; register commands, tools, events and interceptions, then `await ext.start()`. */
export function createExtension(options: ExtensionOptions): Extension {
  return new Extension(options);
}
