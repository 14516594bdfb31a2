// zut extension SDK (protocol v2), built from zut-vscode packages/sdk. Types: index.d.ts.

// packages/sdk/src/index.ts
import * as readline from "node:readline";

// packages/sdk/src/frames.ts
var PROTOCOL_VERSION = 2;

// packages/sdk/src/index.ts
var panelSeq = 0;
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}
function toolResultFields(r) {
  if (typeof r === "string") return { content: [{ type: "text", text: r }] };
  if (Array.isArray(r)) return { content: r };
  const content = r.content ?? (r.text !== void 0 ? [{ type: "text", text: r.text }] : []);
  return {
    content,
    ...r.isError ? { is_error: true } : {},
    ...r.details !== void 0 ? { details: r.details } : {},
    ...r.activateTools?.length ? { activate_tools: r.activateTools } : {}
  };
}
var Extension = class {
  constructor(options) {
    this.options = options;
    this.out = options.output ?? process.stdout;
    this.errOut = options.stderr ?? process.stderr;
    const line = (level) => (...args) => void this.errOut.write(`[${options.name}] ${level}: ${args.map((a) => typeof a === "string" ? a : JSON.stringify(a)).join(" ")}
`);
    this.log = { info: line("info"), warn: line("warn"), error: line("error") };
  }
  options;
  /** stderr logger. */
  log;
  /** The host's `hello_ack` (after `start()`). */
  hostInfo;
  /** The latest state the host handed back for this session branch (`event.state`; set by tool `details`). */
  state;
  commands = /* @__PURE__ */ new Map();
  tools = /* @__PURE__ */ new Map();
  events = /* @__PURE__ */ new Map();
  intercepts = /* @__PURE__ */ new Map();
  panels = /* @__PURE__ */ new Map();
  running = /* @__PURE__ */ new Map();
  shutdownHandlers = [];
  out;
  errOut;
  started = false;
  stopping = false;
  // ------------------------------------------------------------------ registration (before start)
  /** A slash command `/name`. */
  command(name, description, handler) {
    this.beforeStart("command");
    this.commands.set(name, { description, handler });
    return this;
  }
  /** A tool the model can call. Arguments are whatever the host sends (validate them). */
  tool(options, handler) {
    this.beforeStart("tool");
    this.tools.set(options.name, { options, handler });
    return this;
  }
  /** Subscribes to a lifecycle event (`session_start`, `turn_start`, `tool_call`, `agent_end`, …). */
  on(event, handler) {
    this.beforeStart("on");
    this.events.set(event, [...this.events.get(event) ?? [], handler]);
    return this;
  }
  /** Intercepts `tool_call`, `turn_start` or `assistant_message` (one handler per event; answered within 5 s). */
  intercept(event, handler) {
    this.beforeStart("intercept");
    this.intercepts.set(event, handler);
    return this;
  }
  /** Runs before the extension exits on `shutdown` or stdin EOF. */
  onShutdown(handler) {
    this.shutdownHandlers.push(handler);
    return this;
  }
  beforeStart(what) {
    if (this.started) throw new Error(`${what}() must be called before start()`);
  }
  // ------------------------------------------------------------------ one-way frames (after start)
  notify(message, level = "info") {
    this.send({ type: "notify", level, message });
  }
  /** Sets (or, with empty text, removes) a status item. */
  status(key, text, level) {
    this.send({ type: "status", key, text, ...level ? { level } : {} });
  }
  widget(widget) {
    this.send({ type: "widget", ...widget });
  }
  clearWidget(id) {
    this.send({ type: "widget_clear", id });
  }
  clearNotes() {
    this.send({ type: "clear_notes" });
  }
  /** Queues a prompt as if the user typed it. */
  submit(text) {
    this.send({ type: "submit", text });
  }
  /** Runs a slash command as if typed (`/name args`). */
  submitSlash(text) {
    this.send({ type: "submit_slash", text });
  }
  /** Rings the bell (a notification when the window is away). */
  alert(reason) {
    this.send({ type: "alert", kind: "bell", ...reason !== void 0 ? { reason } : {} });
  }
  /** Opens a panel; keys arrive through the handle. `id` defaults to a unique one. */
  openPanel(content) {
    const id = content.id ?? `${this.options.name}-panel-${++panelSeq}`;
    let done;
    const closed = new Promise((r) => done = r);
    const entry = { keys: [], done };
    this.panels.set(id, entry);
    const { id: _omit, ...rest } = content;
    this.send({ type: "open_panel", panel: { id, ...rest } });
    return {
      id,
      render: (c) => {
        if (this.panels.has(id)) this.send({ type: "panel_render", panel_id: id, ...c });
      },
      onKey: (h) => void entry.keys.push(h),
      close: () => {
        if (!this.panels.delete(id)) return;
        this.send({ type: "panel_close", panel_id: id });
        done();
      },
      closed
    };
  }
  // ------------------------------------------------------------------ the loop
  /**
   * Sends `hello`, waits for `hello_ack` (exits 1 on a protocol mismatch), registers everything, sends `ready`,
   * then serves requests until `shutdown` or stdin EOF. Resolves after the handshake.
   */
  start() {
    this.started = true;
    const caps = new Set(this.options.capabilities ?? []);
    if (this.commands.size) caps.add("commands");
    if (this.tools.size) caps.add("tools").add("tool_cancel");
    caps.add("panels");
    this.send({
      type: "hello",
      protocol_version: PROTOCOL_VERSION,
      name: this.options.name,
      ...this.options.version ? { version: this.options.version } : {},
      capabilities: [...caps]
    });
    const rl = readline.createInterface({ input: this.options.input ?? process.stdin, crlfDelay: Infinity });
    return new Promise((resolve) => {
      rl.on("line", (line) => {
        if (line.trim() === "") return;
        let frame;
        try {
          frame = JSON.parse(line);
        } catch (e) {
          this.log.warn(`ignoring a line that is not JSON: ${errorText(e)}`);
          return;
        }
        if (frame.type === "hello_ack") {
          this.handshake(frame);
          resolve();
        } else this.dispatch(frame);
      });
      rl.on("close", () => void this.shutdown(false));
    });
  }
  handshake(ack) {
    if (ack.protocol_version !== PROTOCOL_VERSION) {
      this.log.error(`host speaks protocol ${ack.protocol_version}, this SDK ${PROTOCOL_VERSION}`);
      this.exit(1);
      return;
    }
    this.hostInfo = ack;
    if (ack.session !== void 0) this.state = void 0;
    for (const [name, c] of this.commands) this.send({ type: "register_command", name, description: c.description });
    for (const { options: o } of this.tools.values()) {
      this.send({
        type: "register_tool",
        name: o.name,
        ...o.description !== void 0 ? { description: o.description } : {},
        schema: o.inputSchema ?? { type: "object" },
        ...o.deferred ? { deferred: true } : {},
        ...o.interactive ? { interactive: true } : {},
        ...o.annotations ? { annotations: o.annotations } : {}
      });
    }
    if (this.events.size || this.intercepts.size) {
      this.send({ type: "subscribe", events: [...this.events.keys()], intercept: [...this.intercepts.keys()] });
    }
    this.send({ type: "ready" });
  }
  dispatch(f) {
    switch (f.type) {
      case "command_invoked":
        void this.runCommand(f);
        return;
      case "tool_call":
        void this.runTool(f);
        return;
      case "tool_cancel":
        this.running.get(f.id)?.abort(new Error("cancelled by the host"));
        return;
      case "event":
        if (f.state !== void 0 || f.session !== void 0) this.state = f.state;
        for (const h of this.events.get(f.event) ?? []) void this.guard(`event ${f.event}`, () => h(f));
        return;
      case "event_intercept":
        void this.runIntercept(f);
        return;
      case "panel_key":
        this.panelKey(f);
        return;
      case "panel_close": {
        const p = this.panels.get(f.panel_id);
        this.panels.delete(f.panel_id);
        p?.done();
        return;
      }
      case "panel_resize":
        return;
      case "shutdown":
        void this.shutdown(true);
        return;
      default:
        return;
    }
  }
  async guard(what, fn) {
    try {
      await fn();
    } catch (e) {
      this.log.error(`${what}: ${errorText(e)}`);
    }
  }
  panelKey(f) {
    for (const h of this.panels.get(f.panel_id)?.keys ?? []) void this.guard(`panel ${f.panel_id} key`, () => h(f.key, f.text));
  }
  async runCommand(f) {
    const c = this.commands.get(f.name) ?? [...this.commands].find(([n]) => n.toLowerCase() === f.name.toLowerCase())?.[1];
    const reply = (fields) => this.send({ type: "command_response", id: f.id, action: "noop", ...fields });
    if (!c) return reply({ error: `unknown command /${f.name}` });
    try {
      const r = await c.handler(f.args ?? "", { id: f.id, name: f.name });
      if (r === void 0 || r === null) reply({});
      else if (typeof r === "string") reply({ action: "display", display: r });
      else if ("display" in r) reply({ action: "display", display: r.display });
      else if ("prompt" in r) reply({ action: "prompt", prompt: r.prompt });
      else if ("insert" in r) reply({ action: "insert", insert: r.insert });
      else if ("error" in r) reply({ error: r.error });
      else reply({});
    } catch (e) {
      this.log.error(`/${f.name}: ${errorText(e)}`);
      reply({ error: errorText(e) });
    }
  }
  async runTool(f) {
    const t = this.tools.get(f.name);
    if (!t) {
      this.send({ type: "tool_result", id: f.id, content: [{ type: "text", text: `unknown tool ${f.name}` }], is_error: true });
      return;
    }
    const ac = new AbortController();
    this.running.set(f.id, ac);
    let fields;
    try {
      fields = toolResultFields(await t.handler(f.args ?? {}, { id: f.id, signal: ac.signal }));
    } catch (e) {
      if (!ac.signal.aborted) this.log.error(`tool ${f.name}: ${errorText(e)}`);
      fields = { content: [{ type: "text", text: errorText(e) }], is_error: true };
    }
    this.running.delete(f.id);
    if (ac.signal.aborted) return;
    if (fields.details !== void 0) this.state = fields.details;
    this.send({ type: "tool_result", id: f.id, ...fields });
  }
  async runIntercept(f) {
    const h = this.intercepts.get(f.event);
    let d = void 0;
    try {
      d = h ? await h(f) : void 0;
    } catch (e) {
      this.log.error(`intercept ${f.event}: ${errorText(e)}`);
    }
    this.send({
      type: "event_intercept_response",
      id: f.id,
      ...d?.block ? { block: true } : {},
      ...d?.reason !== void 0 ? { reason: d.reason } : {},
      ...d?.modifiedArgs !== void 0 ? { modified_args: d.modifiedArgs } : {},
      ...d?.replaceText !== void 0 ? { replace_text: d.replaceText } : {},
      ...d?.context !== void 0 ? { context: d.context } : {}
    });
  }
  /** Cancels running tools, runs shutdown handlers, acknowledges (when asked) and exits 0. */
  async shutdown(ack) {
    if (this.stopping) return;
    this.stopping = true;
    for (const ac of this.running.values()) ac.abort(new Error("the host is shutting down"));
    for (const h of this.shutdownHandlers) await this.guard("shutdown handler", h);
    if (ack) this.send({ type: "shutdown_ack" });
    this.out.write("", () => this.exit(0));
  }
  exit(code) {
    (this.options.exit ?? ((c) => process.exit(c)))(code);
  }
  /** Writes one frame (ignored after shutdown began, except the acknowledgement). */
  send(frame) {
    if (this.stopping && frame.type !== "shutdown_ack") return;
    this.out.write(JSON.stringify(frame) + "\n");
  }
};
function createExtension(options) {
  return new Extension(options);
}
export {
  Extension,
  PROTOCOL_VERSION,
  createExtension
};
