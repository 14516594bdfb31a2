/**
 * zut's extension protocol v2 (zut-extensions.md, extproto.go): the host's fast path. Frames are validated by the
 * protocol layer (src/protocol); replies and notices are the frames themselves (the neutral vocabulary is v2's
 * shape), so a round trip costs no copying beyond the JSON parse.
 */
import { INTERCEPTABLE_EVENTS, PROTOCOL_VERSION, encodeFrame, plainToolResult, validateExtFrame } from '../../protocol';
import { RequestError } from '../types';
import type {
  ExtMessage,
  ExtRequestId,
  ExtensionHello,
  ExtensionProtocol,
  HostInfo,
  HostNotice,
  HostRequest,
  HostResponse,
  ProtocolName,
  ReplyMap,
} from './types';

let requestSeq = 0;
const requestPrefix = `${process.pid.toString(36)}-`;
/** A correlation id unique within this host process. */
export function nextRequestId(): string {
  return requestPrefix + ++requestSeq;
}

const READY: ExtMessage = { kind: 'ready' };
const NONE: ExtMessage = { kind: 'none' };
const typeAndId = /"type"\s*:\s*"([^"]*)"(?:.*?"id"\s*:\s*"([^"]*)")?/;

/** `type #id` of a frame line, for message-level tracing. */
export function summarizeFrameLine(line: string): string {
  const m = typeAndId.exec(line.slice(0, 512));
  return m ? (m[2] ? `${m[1]} #${m[2]}` : m[1]!) : '(frame)';
}

/** The reply frame type expected for each request kind. */
const REPLY_TYPE: { [K in HostRequest['kind']]: string } = {
  command: 'command_response',
  tool: 'tool_result',
  intercept: 'event_intercept_response',
};

/** Parses one line's JSON, or the diagnostic for a line that is not JSON. */
export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false; message: ExtMessage } {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (e) {
    return { ok: false, message: invalidJson(e) };
  }
}

/** The diagnostic for a line that is not JSON. */
function invalidJson(e: unknown): ExtMessage {
  return { kind: 'diagnostic', message: `malformed frame ignored: invalid JSON: ${(e as Error).message}` };
}

/**
 * Decodes one parsed line the zut way: the three reply frames carry the id of the request they answer, `ready`
 * ends registration, `hello`/`shutdown_ack` need nothing, everything else is a notice. Shared by zut v2 and zot v1.
 */
export function decodeFrameValue(value: unknown): ExtMessage {
  // The hot frame first (the reply to every tool call), checked without zod or a result wrapper.
  if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'tool_result' && !Array.isArray(value)) {
    const f = plainToolResult(value as Record<string, unknown>);
    if (f) return { kind: 'reply', id: f.id, body: f };
  }
  const parsed = validateExtFrame(value);
  if (!parsed.ok) {
    const e = parsed.error;
    return { kind: 'diagnostic', message: e.kind === 'unknown_type' ? `ignored ${e.message}` : `malformed frame ignored: ${e.message}` };
  }
  const f = parsed.frame;
  switch (f.type) {
    case 'tool_result':
    case 'command_response':
    case 'event_intercept_response':
      return { kind: 'reply', id: f.id, body: f };
    case 'ready':
      return READY;
    case 'hello':
    case 'shutdown_ack':
      return NONE;
    default:
      return { kind: 'notice', notice: f };
  }
}

/** The events a zut extension may intercept (frames.ts). */
const V2_INTERCEPTABLE: ReadonlySet<string> = new Set(INTERCEPTABLE_EVENTS);

/**
 * The zut-shaped wire (v2, and zot v1 which extends it): frames with a `type` and a string `id`. Subclasses set
 * the name and version and add what their protocol has on top.
 */
export class FrameProtocol implements ExtensionProtocol {
  readonly interceptable: ReadonlySet<string> = V2_INTERCEPTABLE;

  constructor(
    readonly name: ProtocolName,
    protected readonly hello: ExtensionHello,
  ) {}

  decode(line: string): ExtMessage {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      return invalidJson(e);
    }
    return decodeFrameValue(value);
  }

  nextId(): string {
    return nextRequestId();
  }

  encodeRequest(id: string, r: HostRequest): string {
    switch (r.kind) {
      case 'tool':
        return encodeFrame({ type: 'tool_call', id, name: r.name, args: r.args });
      case 'command':
        return encodeFrame({ type: 'command_invoked', id, name: r.name, args: r.args });
      case 'intercept': {
        // `prompt` is e's (`hook.before_turn`): zut's and zot's `event_intercept` for `turn_start` carries `step` alone.
        const { prompt: _prompt, ...payload } = r.payload;
        return encodeFrame({ type: 'event_intercept', id, ...payload });
      }
    }
  }

  decodeReply<K extends HostRequest['kind']>(kind: K, body: unknown): ReplyMap[K] {
    const type = (body as { type?: unknown }).type;
    if (type !== REPLY_TYPE[kind]) throw new RequestError('protocol', `unexpected reply ${String(type)} (want ${REPLY_TYPE[kind]})`);
    return body as ReplyMap[K];
  }

  encodeNotice(n: HostNotice): string | undefined {
    switch (n.kind) {
      case 'event':
        return encodeFrame({ type: 'event', ...n.event });
      case 'cancel':
        return this.hello.capabilities.includes('tool_cancel') ? encodeFrame({ type: 'tool_cancel', id: n.id }) : undefined;
      case 'panelKey':
        return encodeFrame({ type: 'panel_key', panel_id: n.panelId, key: n.key, ...(n.text !== undefined ? { text: n.text } : {}) });
      case 'panelResize':
        return encodeFrame({ type: 'panel_resize', panel_id: n.panelId, width: n.columns, height: n.rows });
      case 'panelClosed':
        return encodeFrame({ type: 'panel_close', panel_id: n.panelId });
      case 'shutdown':
        return encodeFrame({ type: 'shutdown' });
    }
  }

  encodeResponse(id: ExtRequestId, r: HostResponse): string {
    switch (r.kind) {
      case 'tool':
        return encodeFrame({ type: 'tool_result', id, name: r.name, content: r.content, is_error: r.isError, ...(r.truncated ? { truncated: true } : {}) });
      case 'error':
        return encodeFrame({ type: 'tool_result', id, content: [{ type: 'text', text: r.message }], is_error: true });
      case 'result':
        return encodeFrame({ type: 'tool_result', id, content: [{ type: 'text', text: JSON.stringify(r.value) }], is_error: false });
    }
  }

  summarize(line: string): string {
    return summarizeFrameLine(line);
  }
}

/** zut v2. */
export class ZutV2Protocol extends FrameProtocol {
  constructor(hello: ExtensionHello) {
    super('zut', hello);
  }
}

/** The v2 `hello_ack` (key order as zut sends it). */
export function helloAckV2(info: HostInfo): string {
  return encodeFrame({
    type: 'hello_ack',
    protocol_version: PROTOCOL_VERSION,
    zut_version: info.hostVersion,
    provider: info.provider,
    model: info.model,
    cwd: info.cwd,
    extension_dir: info.extensionDir,
    data_dir: info.dataDir,
    ...(info.session ? { session: info.session } : {}),
  });
}
