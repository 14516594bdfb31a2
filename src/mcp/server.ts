/**
 * The MCP server side of the bridge: one `McpConnection` per client (a relay from VS Code's agent mode, or the
 * stdio of `zut-host mcp`), speaking JSON-RPC 2.0 (MCP spec: lifecycle, tools, prompts, resources, ping,
 * cancellation, progress). Every `tools/call` goes through the host's guarded path (`invokeTool`), so guards see and
 * can block it, the `skill` tool included; running extensions' skills are also prompts and resources (skills.ts).
 * `zut-host mcp` adds the hook tool for Claude Code's mcp_tool hooks (hookTool.ts), listed to that client only.
 * VS Code-free; the transport hands in parsed messages and a `send`.
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../protocol';
import type { HostCalls, HostCatalog, HostSessions } from '../host/api';
import { Disposable, toDisposable, type Event, type IDisposable } from '../host/events';
import type { RequestError } from '../host/types';
import { activeSkills, loadSkill, SKILL_TOOL_NAME, type SkillEntry } from '../host/chat/skills';
import { MAX_MCP_SESSIONS, MCP_PROGRESS_MAX_CHARS, MCP_PROTOCOL_VERSIONS, RPC } from './limits';
import { Cancelled, RpcError } from './rpcError';
import { getSkillPrompt, listSkillPrompts, listSkillResources, listSkillResourceTemplates, readSkillResource, skillsSignature } from './skills';
import { buildCatalog, toMcpContent, type CatalogFilter, type McpCatalog, type McpContent, type McpTool } from './tools';
import { isObject } from '../protocol/json';
import { MCP_HOOK_CLIENT, MCP_HOOK_TOOL } from '../hooks/mcpHook';

type Id = string | number;
/** A line from an extension that may be shown as progress of its running call (`notify`, `status`). */
export interface ExtensionProgress {
  ext: string;
  message: string;
}

/** What the bridge shares across connections. */
export interface McpBridgeOptions extends CatalogFilter {
  host: HostCatalog & HostCalls & HostSessions;
  serverVersion: string;
  /** Extension lines to forward as `notifications/progress` while that extension's tool runs (when asked). */
  progress?: Event<ExtensionProgress>;
  /** The project directory, reported in new sessions' context. */
  cwd?: string;
  /** Reply timeout of calls (the host's default when omitted). */
  toolTimeoutMs?: () => number | undefined;
  /** One line per request and its outcome (the `Zut` log in VS Code). */
  log?: (line: string) => void;
  /** The hook tool for Claude Code's mcp_tool hooks (`zut-host mcp` only: hookTool.ts). */
  hookTool?: McpHookTool;
  /** Each new catalog's tool names (`zut-host mcp` publishes them for hooks in other processes: hooks/mcpServers.ts). */
  onCatalog?: (names: string[]) => void;
}

/** A tool the server answers itself, listed only to Claude Code (hookTool.ts). */
export interface McpHookTool {
  definition: McpTool & { _meta: Record<string, unknown> };
  call(args: unknown): Promise<{ content: McpContent[]; isError: boolean }>;
}

/**
 * The conversations already announced to extensions (`session_start`), shared by every connection: at most
 * `MAX_MCP_SESSIONS` (protocol/limits.ts), the least recently used forgotten first (a forgotten one is announced again
 * if it comes back).
 */
export class McpSessions {
  private readonly seen = new Map<string, SessionContext>();
  /** The id of the last `open`, already the most recent in `seen`: agent mode's calls repeat it (no reordering). */
  private newest: string | undefined;

  constructor(
    private readonly host: HostCatalog & HostCalls & HostSessions,
    private readonly cwd?: string,
  ) {}

  /** The session for `id`; the first call for an id announces it (`session_start`, `session_opened`). */
  open(id: string): SessionContext {
    const known = this.seen.get(id);
    if (known && id === this.newest) return known;
    this.newest = id;
    if (known) {
      this.seen.delete(id);
      this.seen.set(id, known);
      return known;
    }
    const ctx: SessionContext = this.cwd ? { id, cwd: this.cwd } : { id };
    this.seen.set(id, ctx);
    for (const old of [...this.seen.keys()].slice(0, Math.max(0, this.seen.size - MAX_MCP_SESSIONS))) this.seen.delete(old);
    this.host.emitSessionEvent('session_start', ctx);
    this.host.emitSessionEvent('session_opened', ctx);
    return ctx;
  }
}


/** One MCP client. `dispose()` (the client went away) cancels every call it has in flight. */
export class McpConnection extends Disposable {
  private readonly inFlight = new Map<Id, AbortController>();
  private initialized = false;
  /** The client's `clientInfo.name` from `initialize`. */
  private client: string | undefined;
  private lastSignature: string | undefined;
  /** The skills (prompts, resources) the client last listed or was told of. */
  private lastSkills: string | undefined;
  /** Calls without a conversation id share this connection's own session. */
  private readonly ownSession = `mcp-${randomUUID()}`;

  constructor(
    private readonly o: McpBridgeOptions,
    private readonly sessions: McpSessions,
    private readonly send: (message: object) => void,
  ) {
    super();
    this._register(o.host.onDidChangeExtensions(() => this.checkListChanged()));
    // The client is gone: every call it had in flight is cancelled (`tool_cancel` to extensions that want it).
    this._register(toDisposable(() => {
      for (const a of this.inFlight.values()) a.abort();
      this.inFlight.clear();
    }));
  }

  /** The catalog, rebuilt only after a change (registrations, settings, `activate_tools`): calls stay cheap. */
  private cached: McpCatalog | undefined;
  private published: string | undefined;
  private catalog(): McpCatalog {
    if (this.cached) return this.cached;
    const c = (this.cached = buildCatalog(this.o.host.tools(), this.o, this.skills()));
    if (this.o.onCatalog && c.signature !== this.published) {
      this.published = c.signature;
      this.o.onCatalog(c.tools.map((t) => t.name));
    }
    return c;
  }

  /** Whether this client is offered the hook tool. */
  private hookTool(): McpHookTool | undefined {
    return this.client === MCP_HOOK_CLIENT ? this.o.hookTool : undefined;
  }

  /** Skills of running extensions now (prompts, resources, the `skill` tool). */
  private skills(): SkillEntry[] {
    return activeSkills(this.o.host);
  }

  /**
   * Tells the client its tool list changed, and its prompt and resource lists when the skills did (once per change
   * since it last listed or was told).
   */
  checkListChanged(): void {
    this.cached = undefined;
    if (!this.initialized || this.disposed) return;
    const sig = this.catalog().signature;
    if (sig !== this.lastSignature) {
      this.lastSignature = sig;
      this.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    }
    const skills = skillsSignature(this.skills());
    if (skills === this.lastSkills) return;
    this.lastSkills = skills;
    this.send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
    this.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
  }

  /** Handles one incoming message (a request, a notification, or a response, which we never ask for). */
  handle(msg: unknown): void {
    if (this.disposed) return;
    if (!isObject(msg) || msg.jsonrpc !== '2.0' || (typeof msg.method !== 'string' && !('result' in msg || 'error' in msg))) {
      const id = isObject(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : null;
      this.send({ jsonrpc: '2.0', id, error: { code: RPC.invalidRequest, message: 'not a JSON-RPC 2.0 message' } });
      return;
    }
    if (typeof msg.method !== 'string') return; // a response: we send no requests
    const params = isObject(msg.params) ? msg.params : {};
    const id = msg.id;
    if (id === undefined) return this.notification(msg.method, params);
    if (typeof id !== 'string' && typeof id !== 'number') {
      this.send({ jsonrpc: '2.0', id: null, error: { code: RPC.invalidRequest, message: 'id must be a string or number' } });
      return;
    }
    const method = msg.method;
    const what = method === 'tools/call' && typeof params.name === 'string' ? `${method} ${params.name}` : method;
    this.o.log?.(`mcp: ${what} (#${id})`);
    // A `tools/call` (the hot path: one per agent-mode tool call) goes straight to callTool.
    (method === 'tools/call' ? this.callTool(id, params) : this.request(id, method, params)).then(
      (result) => {
        this.o.log?.(`mcp: ${what} (#${id}) answered`);
        this.reply(id, { result });
      },
      (e: unknown) => {
        this.o.log?.(`mcp: ${what} (#${id}) failed: ${e instanceof Error ? e.message : String(e)}`);
        if (e instanceof Cancelled) return;
        const err = e instanceof RpcError ? e : new RpcError(RPC.internal, e instanceof Error ? e.message : String(e));
        this.reply(id, { error: { code: err.code, message: err.message } });
      },
    );
  }

  private reply(id: Id, body: { result: unknown } | { error: { code: number; message: string } }): void {
    if (!this.disposed) this.send({ jsonrpc: '2.0', id, ...body });
  }

  private notification(method: string, params: Record<string, unknown>): void {
    if (method === 'notifications/initialized') {
      this.initialized = true;
      this.lastSignature ??= this.catalog().signature;
      this.lastSkills ??= skillsSignature(this.skills());
    } else if (method === 'notifications/cancelled') {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.inFlight.get(id)?.abort();
    }
    // Other notifications (roots/list_changed, …) need nothing from us.
  }

  private async request(id: Id, method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const version = (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
        this.client = isObject(params.clientInfo) && typeof params.clientInfo.name === 'string' ? params.clientInfo.name : undefined;
        return {
          protocolVersion: version,
          capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
          serverInfo: { name: 'zut', title: 'zut extensions', version: this.o.serverVersion },
          instructions:
            'Tools of zut extensions. Guards of zut extensions may block or rewrite calls. Skills bundled with zut ' +
            'extensions: the `skill` tool loads one by name (its description lists them); each is also a prompt and a ' +
            'skill:// resource.',
        };
      }
      case 'ping':
        return {};
      case 'tools/list': {
        const c = this.catalog();
        this.lastSignature = c.signature;
        const hook = this.hookTool();
        return { tools: hook ? [...c.tools, hook.definition] : c.tools };
      }
      case 'prompts/list':
      case 'resources/list': {
        const skills = this.skills();
        this.lastSkills = skillsSignature(skills);
        return method === 'prompts/list' ? listSkillPrompts(skills) : listSkillResources(skills);
      }
      case 'prompts/get':
        return getSkillPrompt(this.skills(), params);
      case 'resources/templates/list':
        return listSkillResourceTemplates();
      case 'resources/read':
        return readSkillResource(this.skills(), params);
      default:
        throw new RpcError(RPC.methodNotFound, `method not found: ${method}`);
    }
  }

  private async callTool(id: Id, params: Record<string, unknown>): Promise<unknown> {
    const hook = this.hookTool();
    if (hook && params.name === MCP_HOOK_TOOL) return hook.call(params.arguments);
    const c = this.catalog();
    const modelName = typeof params.name === 'string' ? params.name : '';
    const skills = modelName === SKILL_TOOL_NAME && c.skills.length ? c.skills : undefined;
    const tool = c.byModel.get(modelName);
    if (!tool && !skills) throw new RpcError(RPC.invalidParams, `unknown tool: ${modelName}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw new RpcError(RPC.invalidParams, 'arguments must be a JSON object');
    const meta = isObject(params._meta) ? params._meta : {};
    const conversation = meta['vscode.conversationId'];
    const session = this.sessions.open(typeof conversation === 'string' && conversation ? conversation : this.ownSession);

    const abort = new AbortController();
    this.inFlight.set(id, abort);
    const progress = tool ? this.progressFor(meta.progressToken, tool.ext) : undefined;
    try {
      // The `skill` tool is the host's own: the same event and guards, then the SKILL.md (src/host/chat/skills.ts).
      const r = await this.o.host.invokeTool(tool ? tool.name : SKILL_TOOL_NAME, args, {
        session,
        origin: this.o.origin,
        signal: abort.signal,
        timeoutMs: this.o.toolTimeoutMs?.(),
        ...(progress && { onProgress: progress.report }),
        ...(!tool && skills && { run: (a: unknown) => loadSkill(skills, a) }),
      });
      // A result that activated tools: the client hears of them before the result (VS Code shows them at once).
      if (r.activateTools?.length) this.checkListChanged();
      return { content: toMcpContent(r), isError: r.isError };
    } catch (e) {
      if (abort.signal.aborted) throw new Cancelled();
      // By its `kind`, not `instanceof`: in VS Code this module is its own bundle (dist/relay-server.js), and the
      // host's errors are the extension bundle's RequestError.
      const kind = e instanceof Error ? (e as Partial<RequestError>).kind : undefined;
      const message = typeof kind === 'string' ? `${kind}: ${(e as Error).message}` : e instanceof Error ? e.message : String(e);
      return { content: [{ type: 'text', text: message }], isError: true };
    } finally {
      this.inFlight.delete(id);
      progress?.dispose();
    }
  }

  /**
   * While a call runs (when a token was given): its extension's notes and status lines, and the output the tool
   * streams (e's `tool.update`, through `report`), as `notifications/progress`.
   */
  private progressFor(token: unknown, ext: string): (IDisposable & { report(message: string): void }) | undefined {
    if (typeof token !== 'string' && typeof token !== 'number') return undefined;
    let n = 0;
    // Clipped here; coalesced (latest wins) by the transport's outbox when the client reads slowly (outbox.ts).
    const report = (text: string): void => {
      const message = text.length > MCP_PROGRESS_MAX_CHARS ? `${text.slice(0, MCP_PROGRESS_MAX_CHARS)}…` : text;
      if (!this.disposed) this.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } });
    };
    const sub = this.o.progress?.((p) => {
      if (p.ext === ext) report(p.message);
    });
    return { report, dispose: () => sub?.dispose() };
  }
}
