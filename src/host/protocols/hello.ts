/**
 * The zut family's handshake: the extension speaks first with `hello`, and its `protocol_version` picks the
 * protocol: 2 → zut v2; none, or 1 → zot v1 (zot-extensions.md, whose `hello` has no version). The host answers
 * with that protocol's `hello_ack`; a registration window follows (ends at `ready`).
 */
import { PROTOCOL_VERSION, validateExtFrame } from '../../protocol';
import { ZOT_PROTOCOL_VERSION, ZotHelloFromExt } from '../../protocol/zot';
import type { ExtensionHello, HandshakeContext, HandshakeStep, ProtocolFamily, ProtocolHandshake } from './types';
import { ZutV2Protocol, helloAckV2 } from './v2';
import { ZotV1Protocol, helloAckZot } from './zot';

class HelloHandshake implements ProtocolHandshake {
  readonly opening: readonly string[] = [];
  readonly awaiting = { timeout: 'no hello frame', exit: 'hello' };

  constructor(private readonly ctx: HandshakeContext) {}

  onLine(line: string): HandshakeStep {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return notHello('invalid JSON');
    }
    const v = value as { type?: unknown; protocol_version?: unknown } | null;
    if (v !== null && typeof v === 'object' && v.type === 'hello' && (v.protocol_version === undefined || v.protocol_version === ZOT_PROTOCOL_VERSION)) {
      return this.zot(value);
    }
    const parsed = validateExtFrame(value);
    if (!parsed.ok || parsed.frame.type !== 'hello') {
      const e = !parsed.ok ? parsed.error : undefined;
      return notHello(parsed.ok ? parsed.frame.type : e!.kind === 'unknown_type' || e!.kind === 'invalid' ? e!.type || 'invalid frame' : 'invalid JSON');
    }
    const h = parsed.frame;
    if (h.protocol_version !== PROTOCOL_VERSION) {
      return {
        kind: 'fail',
        message: `unsupported extension protocol version ${h.protocol_version}`,
        detail: `want ${PROTOCOL_VERSION}, or ${ZOT_PROTOCOL_VERSION} for a zot extension`,
      };
    }
    const hello: ExtensionHello = { protocol: 'zut', protocolVersion: h.protocol_version, name: h.name, version: h.version, capabilities: h.capabilities };
    return this.named(hello) ?? { kind: 'done', protocol: new ZutV2Protocol(hello), hello, send: [helloAckV2(this.ctx.hostInfo())], registration: 'open' };
  }

  /** A zot v1 `hello`. */
  private zot(value: unknown): HandshakeStep {
    const r = ZotHelloFromExt.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0];
      return { kind: 'fail', message: `invalid zot hello frame: field "${issue?.path.map(String).join('.') || '(frame)'}": ${issue?.message ?? 'invalid'}` };
    }
    const h = r.data;
    const hello: ExtensionHello = { protocol: 'zot', protocolVersion: ZOT_PROTOCOL_VERSION, name: h.name, version: h.version, capabilities: h.capabilities };
    const info = this.ctx.hostInfo();
    return this.named(hello) ?? { kind: 'done', protocol: new ZotV1Protocol(hello, info.cwd), hello, send: [helloAckZot(info)], registration: 'open' };
  }

  /** The name check: a `fail` step when the hello's name is not the manifest's. */
  private named(hello: ExtensionHello): HandshakeStep | undefined {
    if (hello.name === this.ctx.name) return undefined;
    return { kind: 'fail', message: `hello name "${hello.name}" does not match manifest name "${this.ctx.name}"` };
  }
}

function notHello(got: string): HandshakeStep {
  return { kind: 'fail', message: 'first frame must be hello', detail: `got "${got}"` };
}

/**
 * Extensions that speak first with `hello`: zut's (`.zut/extensions`, `$ZUT_HOME/extensions`, `--ext`) and zot's
 * (the same wire, version 1).
 */
export const zutFamily: ProtocolFamily = {
  name: 'zut',
  handshake: (ctx) => new HelloHandshake(ctx),
};
