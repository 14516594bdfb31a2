/**
 * A relay client's reading of the window's answer to its token (relayServer.ts writes `{"zut_relay":"ok"}` or
 * `"refused"`, one line): used by the provider's relay (relay.ts, bundled on its own: Node built-ins and this file
 * only) and by `zut-host mcp --window` (windowRelay.ts).
 */

export type RelayReply = { state: 'more' } | { state: 'too-long' } | { state: 'ok' | 'refused'; rest: Buffer };

/** What `head` (the bytes received so far) says: wait for more, too long, or the answer and the bytes after it. */
export function readRelayReply(head: Buffer, maxBytes: number): RelayReply {
  const nl = head.indexOf(10);
  if (nl < 0) return head.length > maxBytes ? { state: 'too-long' } : { state: 'more' };
  let reply: unknown;
  try {
    reply = JSON.parse(head.subarray(0, nl).toString('utf8'));
  } catch {
    reply = undefined;
  }
  const ok = (reply as { zut_relay?: unknown } | undefined)?.zut_relay === 'ok';
  return { state: ok ? 'ok' : 'refused', rest: head.subarray(nl + 1) };
}
