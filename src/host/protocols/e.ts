/**
 * e's extension protocol (e-extensions.md): JSON-RPC style, the host speaks first. The handshake sends
 * `initialize`; the manifest in its answer is the whole registration (eManifest.ts). Then host requests become
 * `tool_call`, `command`, `hook.tool_call` (the interception chain) and `hook.before_turn` (turn context); lifecycle
 * events become `event` notifications; the extension's requests and notifications are mapped by eUi.ts. Wire
 * framing and correlation are in eWire.ts. What cannot map is answered with a clear error, never left hanging.
 */
import { RequestError } from '../types';
import { E_INITIALIZE_TIMEOUT_MS, E_MAX_PENDING_EXT_REQUESTS } from '../../protocol/limits';
import type { Question } from '../hostUi';
import { E_INTERCEPTABLE, eventFromZut, foreignFields, registerManifest, type ERegistration } from './eManifest';
import { answerResult, E_PANEL_ID, mapNotification, mapRequest, refused, type EPanelState } from './eUi';
import { answerLine, classifyLine, notificationLine, requestLine, summarizeLine, type EWireId } from './eWire';
import type {
  CommandReply,
  ExtMessage,
  ExtRequestId,
  ExtensionHello,
  ExtensionProtocol,
  HandshakeContext,
  HandshakeStep,
  HostInfo,
  HostNotice,
  HostRequest,
  HostResponse,
  InterceptReply,
  ProtocolFamily,
  ProtocolHandshake,
  ReplyMap,
  ToolReply,
} from './types';
import { isObject } from '../../protocol/json';

/** The e protocol version this host speaks (`initialize.params.protocol`). */
const E_PROTOCOL_VERSION = 1;
/** The capability families this host speaks (`initialize.params.capabilities`): no shortcuts, panes or renders. */
export const E_HOST_CAPABILITIES = ['tool.update', 'events', 'hooks', 'display', 'ui', 'session', 'widget'] as const;
/** The wire id of `initialize`; the host's later requests count up from it. */
const INITIALIZE_KEY = '1';

/**
 * `initialize` params (spec): the host's facts and capabilities; `ui` says whether someone can answer questions
 * (false headless, as under `e -p`); `extensions_config` is from e's settings.json (the Manager reads it).
 */
function initializeParams(info: HostInfo): Record<string, unknown> {
  return { protocol: E_PROTOCOL_VERSION, capabilities: [...E_HOST_CAPABILITIES], ui: info.canAsk !== false, e_version: info.hostVersion, cwd: info.cwd, extensions_config: info.extensionsConfig ?? {} };
}

const asRecord = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The wire protocol of one running e extension. */
export class EProtocol implements ExtensionProtocol {
  readonly name = 'e' as const;
  readonly interceptable = E_INTERCEPTABLE;
  private seq = Number(INITIALIZE_KEY);
  private readonly panel: EPanelState = { open: false, interactive: false };
  /** The extension's open `ask` requests (by wire id as JSON), to shape the answer and bound their number. */
  private readonly asks = new Map<string, Question>();
  private events: ReadonlySet<string> = new Set(['turn_end']);

  /** Takes the manifest's events (the hooks ride on the `subscribe` notice it produced). */
  registered(reg: ERegistration): void {
    this.events = reg.events;
  }

  decode(line: string): ExtMessage {
    const m = classifyLine(line);
    switch (m.kind) {
      case 'answer':
        return { kind: 'reply', id: m.key, body: m };
      case 'notification':
        return mapNotification(m.method, m.params);
      case 'invalid':
        return { kind: 'diagnostic', message: m.message };
      case 'request': {
        if (this.asks.size >= E_MAX_PENDING_EXT_REQUESTS) {
          return refused(m.id, `too many unanswered requests (at most ${E_MAX_PENDING_EXT_REQUESTS})`, `refused ${m.method}: ${E_MAX_PENDING_EXT_REQUESTS} requests already open`);
        }
        const msg = mapRequest(m.id, m.method, m.params, this.panel);
        if (msg.kind === 'request') this.asks.set(JSON.stringify(m.id), msg.params as Question);
        return msg;
      }
    }
  }

  nextId(): string {
    return String(++this.seq);
  }

  encodeRequest(id: string, request: HostRequest): string {
    switch (request.kind) {
      case 'command':
        return requestLine(id, 'command', { name: request.name, args: request.args });
      case 'tool':
        return requestLine(id, 'tool_call', { name: request.name, arguments: request.args ?? {} });
      case 'intercept': {
        const p = request.payload;
        if (p.event === 'tool_call') return requestLine(id, 'hook.tool_call', { name: p.tool_name, arguments: p.tool_args ?? {}, ...foreignFields(p) });
        if (p.event === 'turn_start') return requestLine(id, 'hook.before_turn', { prompt: typeof p.prompt === 'string' ? p.prompt : '' });
        return requestLine(id, `hook.${p.event}`, p);
      }
    }
  }

  decodeReply<K extends HostRequest['kind']>(kind: K, body: unknown): ReplyMap[K] {
    const b = asRecord(body) as { result?: unknown; error?: string };
    if (b.result === undefined && b.error === undefined) throw new RequestError('protocol', 'malformed reply: neither result nor error');
    const map: { [T in HostRequest['kind']]: () => ReplyMap[T] } = {
      tool: () => toolReply(b),
      command: () => commandReply(b),
      intercept: () => interceptReply(b),
    };
    return map[kind]() as ReplyMap[K];
  }

  encodeNotice(notice: HostNotice): string | undefined {
    switch (notice.kind) {
      case 'event': {
        const e = eventFromZut(notice.event, this.events);
        return e && notificationLine('event', e);
      }
      case 'panelKey':
        if (notice.panelId !== E_PANEL_ID || !this.panel.open || !this.panel.interactive) return undefined;
        return notificationLine('ui.key', { key: notice.key === 'rune' ? (notice.text ?? '') : notice.key });
      case 'panelClosed':
        if (notice.panelId !== E_PANEL_ID || !this.panel.open) return undefined;
        this.panel.open = false;
        return notificationLine('ui.panel_closed', {});
      case 'shutdown':
        return notificationLine('shutdown');
      case 'cancel':
      case 'panelResize':
        return undefined; // e has neither
    }
  }

  encodeResponse(id: ExtRequestId, response: HostResponse): string {
    const key = JSON.stringify(id);
    const q = this.asks.get(key);
    this.asks.delete(key);
    if (response.kind === 'error') return answerLine(id as EWireId, { error: response.message });
    if (response.kind === 'tool') return answerLine(id as EWireId, { result: { content: response.content.map((c) => c.text ?? '').join('\n'), is_error: response.isError } });
    return answerLine(id as EWireId, { result: q ? answerResult(q, response.value) : (response.value ?? {}) });
  }

  summarize(line: string): string {
    return summarizeLine(line);
  }
}

function toolReply(b: { result?: unknown; error?: string }): ToolReply {
  if (b.error !== undefined) return { content: [{ type: 'text', text: b.error }], is_error: true };
  const r = typeof b.result === 'string' ? { content: b.result } : asRecord(b.result);
  const text = typeof r.content === 'string' ? r.content : r.content === undefined ? '' : JSON.stringify(r.content);
  return { content: [{ type: 'text', text }], ...(r.is_error === true && { is_error: true }) };
}

/** `{notice, show, prompt}` → one action: a prompt is submitted; else notice and show are displayed together. */
function commandReply(b: { result?: unknown; error?: string }): CommandReply {
  if (b.error !== undefined) return { action: 'noop', error: b.error };
  const r = asRecord(b.result);
  const show = asRecord(r.show);
  const body = [str(show.title), str(show.body)].filter(Boolean).join('\n');
  const display = [str(r.notice), body].filter(Boolean).join('\n\n');
  const prompt = str(r.prompt);
  if (prompt !== undefined) return { action: 'prompt', prompt, ...(display && { display }) };
  return display ? { action: 'display', display } : { action: 'noop' };
}

/** Hooks fail open (spec): an error allows. `block` stops a tool call; `system_suffix` and `message` are context. */
function interceptReply(b: { result?: unknown; error?: string }): InterceptReply {
  if (b.error !== undefined) return {};
  const r = asRecord(b.result);
  const context = [str(r.system_suffix), str(r.message)].filter(Boolean).join('\n\n');
  return { ...(r.block === true && { block: true, ...(str(r.reason) && { reason: str(r.reason) }) }), ...(context && { context }) };
}

/**
 * The handshake: `initialize` out first; its answer is the manifest. Lines before it are handled as usual, except
 * questions (`ui.select`, …), which are refused until the manifest arrived.
 */
class InitializeHandshake implements ProtocolHandshake {
  readonly opening: readonly string[];
  readonly awaiting = { timeout: 'no answer to initialize', exit: 'answering initialize' };
  readonly timeoutMs = E_INITIALIZE_TIMEOUT_MS;
  private readonly protocol = new EProtocol();

  constructor(private readonly ctx: HandshakeContext) {
    this.opening = [requestLine(INITIALIZE_KEY, 'initialize', initializeParams(ctx.hostInfo()))];
  }

  onLine(line: string): HandshakeStep {
    const msg = this.protocol.decode(line);
    // A question before the manifest has no connection to be answered on yet: refused at once, never left waiting.
    if (msg.kind === 'request') {
      const answer = this.protocol.encodeResponse(msg.id, { kind: 'error', message: 'answer initialize first: questions need the manifest' });
      return { kind: 'wait', messages: [{ kind: 'batch', messages: [], send: [answer] }] };
    }
    if (msg.kind !== 'reply' || msg.id !== INITIALIZE_KEY) return { kind: 'wait', messages: [msg] };
    const body = msg.body as { result?: unknown; error?: string };
    if (body.error !== undefined) return { kind: 'fail', message: 'initialize failed', detail: body.error };
    const r = registerManifest(body.result);
    if (!r.ok) return { kind: 'fail', message: r.error };
    const { reg } = r;
    this.protocol.registered(reg);
    const diagnostics = reg.diagnostics.map((message): ExtMessage => ({ kind: 'diagnostic', message }));
    if (reg.name !== this.ctx.name) diagnostics.unshift({ kind: 'diagnostic', message: `initialize names the extension "${reg.name}"; it is known here as "${this.ctx.name}" (its file name)` });
    const hello: ExtensionHello = {
      protocol: 'e',
      protocolVersion: E_PROTOCOL_VERSION,
      name: this.ctx.name,
      ...(reg.version !== undefined && { version: reg.version }),
      capabilities: [...(reg.hooks.size ? ['hooks'] : []), ...(reg.events.size ? ['events'] : [])],
    };
    return { kind: 'done', protocol: this.protocol, hello, send: [], messages: [...reg.messages, ...diagnostics], registration: 'complete' };
  }
}

/** e extensions (`.e/extensions`, `~/.e/extensions`): the host speaks first. */
export const eFamily: ProtocolFamily = {
  name: 'e',
  handshake: (ctx) => new InitializeHandshake(ctx),
};

