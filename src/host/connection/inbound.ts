/**
 * Where a message an extension sent goes once its protocol adapter decoded it (protocols/types.ts `ExtMessage`):
 * a reply or progress to the request waiting for it (pending.ts; late or unknown ids are ignored), a notice, a
 * request or a cancel to the connection's owner (a request without a handler is answered with an error), a
 * diagnostic to its log, and a batch in order, followed by the lines it asks to send. No process here.
 */
import type { ConnectionOptions } from './types';
import type { PendingRequests } from './pending';
import type * as P from '../protocols/types';

/** What inbound messages reach on one connection (built once per connection). */
export interface InboundTargets {
  readonly pending: PendingRequests;
  readonly options: Pick<ConnectionOptions, 'onNotice' | 'onRequest' | 'onCancel' | 'onDiagnostic'>;
  /** Answers the extension's request `id`. */
  respond(id: P.ExtRequestId, response: P.HostResponse): boolean;
  /** Queues one line for the extension. */
  write(line: string): boolean;
}

/** Hands one decoded message to its target. */
export function routeMessage(to: InboundTargets, m: P.ExtMessage): void {
  const o = to.options;
  switch (m.kind) {
    case 'reply':
      to.pending.resolve(m.id, m.body); // late or unknown ids are ignored
      return;
    case 'notice':
      return o.onNotice(m.notice);
    case 'request':
      if (o.onRequest) return o.onRequest(m.id, m.method, m.params);
      to.respond(m.id, { kind: 'error', message: `${m.method} is not supported by this host` });
      return;
    case 'cancel':
      return o.onCancel?.(m.id);
    case 'diagnostic':
      return o.onDiagnostic(m.message);
    case 'batch':
      m.messages.forEach((x) => routeMessage(to, x));
      for (const l of m.send) to.write(l);
      return;
    case 'progress':
      return to.pending.progress(m.id, m.text);
    default:
      return; // ready after registration, stray hello, shutdown_ack
  }
}
