/**
 * The table of requests awaiting a reply on one connection: correlation id → the waiting promise, its deadline
 * and its abort listener. Every entry settles exactly once: reply, timeout, cancellation, or failure of all.
 */
import type { ExtFrame } from '../protocol';
import { RequestError } from './types';

interface Pending {
  resolve(frame: ExtFrame): void;
  reject(err: RequestError): void;
  what: string;
  sendCancel?: boolean;
  timer?: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface RequestOptions {
  /** Undefined = no deadline. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Names the request in errors, e.g. `extension weather: tool forecast`. */
  what: string;
  /** Send `tool_cancel` when abandoned (and the extension advertised it). */
  sendCancel?: boolean;
}

/** What an abandoned request was, so the connection can withdraw it and send `tool_cancel`. */
export interface Abandoned {
  id: string;
  sendCancel: boolean;
}

export class PendingRequests {
  private readonly map = new Map<string, Pending>();

  /** @param onAbandon called when a request times out or is cancelled, after it was removed and rejected. */
  constructor(private readonly onAbandon: (a: Abandoned) => void) {}

  get size(): number {
    return this.map.size;
  }

  /** Registers a request; one record per request, no per-request closures except the abort listener. */
  add(id: string, opts: RequestOptions): Promise<ExtFrame> {
    let p!: Pending;
    const promise = new Promise<ExtFrame>((resolve, reject) => (p = { resolve, reject, what: opts.what, sendCancel: opts.sendCancel }));
    this.map.set(id, p);
    if (opts.signal) {
      p.signal = opts.signal;
      p.onAbort = () => this.abandon(id, 'cancelled', `${opts.what} cancelled`);
      opts.signal.addEventListener('abort', p.onAbort, { once: true });
    }
    if (opts.timeoutMs !== undefined) p.timer = setTimeout(this.onTimeout, opts.timeoutMs, id, opts.timeoutMs);
    return promise;
  }

  /** Settles the request with this id with its reply. False for late or unknown ids (ignored). */
  resolve(id: string, frame: ExtFrame): boolean {
    const p = this.take(id);
    p?.resolve(frame);
    return !!p;
  }

  /** Rejects one request (e.g. its frame could not be queued). */
  reject(id: string, err: RequestError): void {
    this.take(id)?.reject(err);
  }

  /** Rejects every request (crash, disconnect, stop). */
  failAll(kind: 'crashed' | 'stopped', message: string): void {
    for (const id of [...this.map.keys()]) this.reject(id, new RequestError(kind, message));
  }

  private take(id: string): Pending | undefined {
    const p = this.map.get(id);
    if (!p) return undefined;
    this.map.delete(id);
    if (p.timer) clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    return p;
  }

  private readonly onTimeout = (id: string, ms: number): void => {
    const p = this.map.get(id);
    if (p) this.abandon(id, 'timeout', `${p.what} timed out after ${ms / 1000}s`);
  };

  private abandon(id: string, kind: 'timeout' | 'cancelled', message: string): void {
    const p = this.take(id);
    if (!p) return;
    p.reject(new RequestError(kind, message));
    this.onAbandon({ id, sendCancel: p.sendCancel ?? false });
  }
}
