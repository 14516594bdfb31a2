/**
 * The table of requests awaiting a reply on one connection: correlation id → the waiting promise, its deadline
 * and its abort listener. Every entry settles exactly once: reply, timeout, cancellation, or failure of all.
 */
import { abortError, RequestError } from '../types';

interface Pending {
  resolve(value: unknown): void;
  /** Maps the reply body to the caller's value (the protocol's `decodeReply`); may throw `RequestError`. */
  decode?: (body: unknown) => unknown;
  reject(err: RequestError): void;
  what: string;
  sendCancel?: boolean;
  /** `performance.now()` deadline, and the timeout it came from (for the message). */
  deadline?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  onAbort?: () => void;
  onProgress?: (text: string) => void;
}

export interface RequestOptions {
  /** Undefined = no deadline. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Names the request in errors, e.g. `extension weather: tool forecast`. */
  what: string;
  /** Send `tool_cancel` when abandoned (and the extension advertised it). */
  sendCancel?: boolean;
  /** Output the extension streams while the request runs (e's `tool.update`). */
  onProgress?: (text: string) => void;
}

/** What an abandoned request was, so the connection can withdraw it and send `tool_cancel`. */
export interface Abandoned {
  id: string;
  sendCancel: boolean;
}

export class PendingRequests {
  private readonly map = new Map<string, Pending>();
  /**
   * One timer per table, armed for the earliest deadline (not one per request): sequential calls with the same
   * timeout never touch a timer. Unref'd: the child's pipes keep the process alive while requests can settle.
   */
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  /**
   * @param onAbandon called when a request times out or is cancelled, after it was removed and rejected.
   * @param onSettled called once a request left the table (any way: reply, rejection, abandon — after `onAbandon`).
   */
  constructor(
    private readonly onAbandon: (a: Abandoned) => void,
    private readonly onSettled: (id: string) => void = () => undefined,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /**
   * Registers a request: one record, and the abort listener when there is a signal. `decode` maps the reply body
   * when it arrives (a throw rejects the request).
   */
  add<T = unknown>(id: string, opts: RequestOptions, decode?: (body: unknown) => T): Promise<T> {
    let p!: Pending;
    const promise = new Promise<T>((resolve, reject) => {
      p = { resolve: resolve as (v: unknown) => void, reject, what: opts.what, sendCancel: opts.sendCancel, decode, onProgress: opts.onProgress };
    });
    this.map.set(id, p);
    if (opts.signal) {
      p.signal = opts.signal;
      p.onAbort = () => this.abandon(id, abortError(opts.signal!, `${opts.what} cancelled`));
      opts.signal.addEventListener('abort', p.onAbort, { once: true });
    }
    if (opts.timeoutMs !== undefined) {
      p.timeoutMs = opts.timeoutMs;
      p.deadline = performance.now() + opts.timeoutMs;
      if (p.deadline < this.timerAt) this.arm(p.deadline);
    }
    return promise;
  }

  /** Output streamed by the running request `id` (e's `tool.update`); ignored when it is gone or nobody listens. */
  progress(id: string, text: string): void {
    const p = this.map.get(id);
    if (!p?.onProgress) return;
    try {
      p.onProgress(text);
    } catch {
      /* a listener's failure is not the extension's */
    }
  }

  /** Settles the request with this id with its reply. False for late or unknown ids (ignored). */
  resolve(id: string, body: unknown): boolean {
    const p = this.take(id);
    if (!p) return false;
    if (!p.decode) p.resolve(body);
    else {
      try {
        p.resolve(p.decode(body));
      } catch (e) {
        // A decoder that threw something else: the reply was not what the protocol says.
        p.reject(e instanceof RequestError ? e : new RequestError('protocol', `${p.what}: ${(e as Error).message}`));
      }
    }
    this.onSettled(id);
    return true;
  }

  /** Rejects one request (e.g. its frame could not be queued). */
  reject(id: string, err: RequestError): void {
    const p = this.take(id);
    if (!p) return;
    p.reject(err);
    this.onSettled(id);
  }

  /** Rejects every request (crash, disconnect, stop). */
  failAll(kind: 'crashed' | 'stopped', message: string): void {
    for (const id of [...this.map.keys()]) this.reject(id, new RequestError(kind, message));
  }

  private take(id: string): Pending | undefined {
    const p = this.map.get(id);
    if (!p) return undefined;
    this.map.delete(id);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    return p;
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.onTimer, Math.max(0, at - performance.now()));
    this.timer.unref();
  }

  /** Times out every request past its deadline, then re-arms for the earliest remaining one. */
  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [id, p] of [...this.map]) {
      if (p.deadline === undefined) continue;
      if (p.deadline <= now + 1) this.abandon(id, new RequestError('timeout', `${p.what} timed out after ${p.timeoutMs! / 1000}s`));
      else if (p.deadline < next) next = p.deadline;
    }
    if (next < Infinity && next < this.timerAt) this.arm(next);
  };

  private abandon(id: string, err: RequestError): void {
    const p = this.take(id);
    if (!p) return;
    p.reject(err);
    this.onAbandon({ id, sendCancel: p.sendCancel ?? false });
    this.onSettled(id);
  }
}
