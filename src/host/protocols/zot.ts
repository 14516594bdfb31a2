/**
 * zot's extension protocol v1 (zot-extensions.md): zut's ancestor, with the same framing and most frames. What
 * it adds is mapped here: `call_tool` / `call_tool_cancel` (requests from the extension), `tool_prompt` in a
 * `command_response`, `before_agent_start` interception with `system_prompt`, and the lifecycle payload fields
 * (`session_id`, `cwd`, `sequence`). The rest is zut's (v2.ts).
 */
import { INTERCEPTABLE_EVENTS, encodeFrame } from '../../protocol';
import {
  CallToolCancelFromExt,
  ZOT_PROTOCOL_VERSION,
  ZotCommandResponseFromExt,
  ZotEventInterceptResponseFromExt,
} from '../../protocol/zot';
import type { ExtMessage, ExtensionHello, HostInfo, HostNotice } from './types';
import { FrameProtocol, decodeFrameValue, parseJsonLine } from './v2';
import { isObject } from '../../protocol/json';

/** What the host tells a zot extension it supports (`hello_ack.capabilities`). */
const ZOT_HOST_CAPABILITIES = ['call_tool'];

/**
 * zot lifecycle events that have no moment in this host (no compaction, no swarm, no session end): a subscription to
 * them is accepted and named in a diagnostic; they are never sent. (`tool_confirmation_requested` and
 * `permission_decision` are: from agents' permission hooks and the guards' refusals, src/hooks/permissions.ts.)
 */
export const ZOT_EVENTS_NEVER_SENT: ReadonlySet<string> = new Set(['session_end', 'pre_compact', 'post_compact', 'subagent_start', 'subagent_stop']);

/** Events a zot extension may intercept (zot-extensions.md: Interceptable events). */
const ZOT_INTERCEPTABLE: ReadonlySet<string> = new Set([...INTERCEPTABLE_EVENTS, 'before_agent_start']);

export class ZotV1Protocol extends FrameProtocol {
  override readonly interceptable = ZOT_INTERCEPTABLE;
  /** Lifecycle notifications' `sequence` (monotonic per connection; gaps are allowed by the spec). */
  private sequence = 0;

  constructor(
    hello: ExtensionHello,
    private readonly cwd: string,
  ) {
    super('zot', hello);
  }

  override decode(line: string): ExtMessage {
    const json = parseJsonLine(line);
    if (!json.ok) return json.message;
    const v = json.value as Record<string, unknown> | null;
    const type = isObject(v) ? v.type : undefined;
    switch (type) {
      case 'call_tool': {
        // Validated by the host's handler, which answers a malformed request with an error result (never a hang).
        if (typeof v!.id !== 'string' || v!.id === '') return { kind: 'diagnostic', message: 'malformed frame ignored: call_tool frame is missing required field "id"' };
        return { kind: 'request', id: v!.id, method: 'call_tool', params: { name: v!.name, args: v!.args, parent_id: v!.parent_id } };
      }
      case 'call_tool_cancel': {
        const r = CallToolCancelFromExt.safeParse(v);
        return r.success ? { kind: 'cancel', id: r.data.id } : { kind: 'diagnostic', message: 'malformed frame ignored: call_tool_cancel frame is missing required field "id"' };
      }
      case 'command_response': {
        const r = ZotCommandResponseFromExt.safeParse(v);
        return r.success ? { kind: 'reply', id: r.data.id, body: r.data } : decodeFrameValue(v);
      }
      case 'event_intercept_response': {
        const r = ZotEventInterceptResponseFromExt.safeParse(v);
        return r.success ? { kind: 'reply', id: r.data.id, body: r.data } : decodeFrameValue(v);
      }
      default:
        return decodeFrameValue(v);
    }
  }

  override encodeNotice(n: HostNotice): string | undefined {
    if (n.kind !== 'event') return super.encodeNotice(n);
    const { session, state: _state, ...payload } = n.event;
    return encodeFrame({
      type: 'event',
      ...payload,
      ...(session ? { session_id: session.id } : {}),
      cwd: session?.cwd ?? this.cwd,
      sequence: ++this.sequence,
    });
  }
}

/** zot's `hello_ack`: `zot_version`, and the host's capabilities (`call_tool`). */
export function helloAckZot(info: HostInfo): string {
  return encodeFrame({
    type: 'hello_ack',
    protocol_version: ZOT_PROTOCOL_VERSION,
    zot_version: info.hostVersion,
    provider: info.provider,
    model: info.model,
    cwd: info.cwd,
    extension_dir: info.extensionDir,
    data_dir: info.dataDir,
    capabilities: ZOT_HOST_CAPABILITIES,
  });
}
