/**
 * Messages to one MCP client (`zut-host mcp`'s stdout, a relay socket), written with backpressure. While the
 * stream accepts, each message is written at once; once it reports full, messages wait here in order until
 * `drain`. A `notifications/progress` waiting for the same token is replaced in place (latest wins), so an
 * extension that floods notes while a slow client is not reading costs one line per running call, not one per
 * note. Everything else (answers, list changes) is kept; past `MCP_OUTBOX_MAX_BYTES` waiting the client is
 * declared gone. A write error (EPIPE, ENOBUFS, a reset) is the client going away too, never a crash.
 */
import type { Writable } from 'node:stream';
import { MCP_OUTBOX_MAX_BYTES } from './limits';

interface Waiting {
  line: string;
  bytes: number;
  /** A progress notification's token (it may be replaced by a later one). */
  token?: string | number;
}

export class Outbox {
  private readonly waiting: Waiting[] = [];
  private waitingBytes = 0;
  private blocked = false;
  private broken = false;

  constructor(
    private readonly stream: Writable,
    /** The client cannot be written to any more (write error, or too much waiting): end the session. */
    private readonly onBroken: (reason: string) => void,
    private readonly maxBytes = MCP_OUTBOX_MAX_BYTES,
  ) {
    stream.on('error', (e) => this.fail(`write to the MCP client failed: ${e.message}`));
    stream.on('drain', () => this.flush());
  }

  /** Bytes waiting for the client (for tests and the bench). */
  get queuedBytes(): number {
    return this.waitingBytes;
  }

  /** Sends one JSON-RPC message. */
  send(message: object): void {
    if (this.broken) return;
    const line = JSON.stringify(message) + '\n';
    if (!this.blocked) return this.write(line);
    const bytes = Buffer.byteLength(line);
    const token = progressToken(message);
    if (token !== undefined) {
      const prev = this.waiting.find((w) => w.token === token);
      if (prev) {
        this.waitingBytes += bytes - prev.bytes;
        Object.assign(prev, { line, bytes });
        return;
      }
    }
    this.waiting.push({ line, bytes, ...(token !== undefined && { token }) });
    this.waitingBytes += bytes;
    if (this.waitingBytes > this.maxBytes) this.fail(`the MCP client is not reading: over ${this.maxBytes} bytes waiting`);
  }

  private write(line: string): void {
    try {
      if (!this.stream.write(line)) this.blocked = true;
    } catch (e) {
      this.fail(`write to the MCP client failed: ${(e as Error).message}`);
    }
  }

  private flush(): void {
    this.blocked = false;
    while (!this.blocked && !this.broken && this.waiting.length > 0) {
      const w = this.waiting.shift()!;
      this.waitingBytes -= w.bytes;
      this.write(w.line);
    }
  }

  private fail(reason: string): void {
    if (this.broken) return;
    this.broken = true;
    this.waiting.length = 0;
    this.waitingBytes = 0;
    this.onBroken(reason);
  }
}

function progressToken(m: object): string | number | undefined {
  const r = m as { method?: unknown; params?: { progressToken?: unknown } };
  if (r.method !== 'notifications/progress') return undefined;
  const t = r.params?.progressToken;
  return typeof t === 'string' || typeof t === 'number' ? t : undefined;
}
