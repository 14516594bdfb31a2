/**
 * The zut family's handshake: the extension speaks first with `hello`; its `protocol_version` picks the protocol
 * (zut v2). The host answers `hello_ack`; a registration window follows (ends at `ready`).
 */
import { PROTOCOL_VERSION, parseExtFrame } from '../../protocol';
import type { ExtensionHello, HandshakeContext, HandshakeStep, ProtocolFamily, ProtocolHandshake } from './types';
import { ZutV2Protocol, helloAckV2 } from './v2';

class HelloHandshake implements ProtocolHandshake {
  readonly opening: readonly string[] = [];
  readonly awaiting = { timeout: 'no hello frame', exit: 'hello' };

  constructor(private readonly ctx: HandshakeContext) {}

  onLine(line: string): HandshakeStep {
    const parsed = parseExtFrame(line);
    if (!parsed.ok || parsed.frame.type !== 'hello') {
      const e = !parsed.ok ? parsed.error : undefined;
      const got = parsed.ok ? parsed.frame.type : e!.kind === 'unknown_type' || e!.kind === 'invalid' ? e!.type || 'invalid frame' : 'invalid JSON';
      return { kind: 'fail', message: 'first frame must be hello', detail: `got "${got}"` };
    }
    const h = parsed.frame;
    if (h.protocol_version !== PROTOCOL_VERSION) {
      return { kind: 'fail', message: `unsupported extension protocol version ${h.protocol_version}`, detail: `want ${PROTOCOL_VERSION}` };
    }
    if (h.name !== this.ctx.name) {
      return { kind: 'fail', message: `hello name "${h.name}" does not match manifest name "${this.ctx.name}"` };
    }
    const hello: ExtensionHello = { protocol: 'zut', protocolVersion: h.protocol_version, name: h.name, version: h.version, capabilities: h.capabilities };
    return { kind: 'done', protocol: new ZutV2Protocol(hello), hello, send: [helloAckV2(this.ctx.hostInfo())], registration: 'open' };
  }
}

/** zut-style extensions (`.zut/extensions`, `$ZUT_HOME/extensions`, `--ext`): they speak first. */
export const zutFamily: ProtocolFamily = {
  name: 'zut',
  handshake: (ctx) => new HelloHandshake(ctx),
};
