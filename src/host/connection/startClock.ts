/**
 * The timers of a connection's start: the handshake deadline (`hello` within `zut.startTimeoutSeconds`), then the
 * registration window, which ends at `ready`, after `autoReadyMs` without a frame (auto-ready), or after
 * `readyGraceMs` at the latest (ready-timeout). And the start's outcome: it settles once, and the timers stop.
 */
import type { ReadyMode } from '../types';

export interface StartTimeouts {
  helloMs: number;
  autoReadyMs: number;
  readyGraceMs: number;
}

export class StartClock {
  private handshakeTimer: NodeJS.Timeout | undefined;
  private quietTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private settle: ((error?: string) => void) | undefined;

  constructor(
    private readonly t: StartTimeouts,
    private readonly on: { handshakeTimeout(ms: number): void; windowClosed(mode: Exclude<ReadyMode, 'ready'>): void },
  ) {}

  /** The start's outcome (`Connection.start()`): resolves at `end()`, rejects at `end(error)`. */
  begin(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.settle = (error) => {
        this.settle = undefined;
        this.clear();
        if (error === undefined) resolve();
        else reject(new Error(error));
      };
    });
  }

  /** Ends the start: ready without `error`, failed with it. Only the first call after `begin()` counts. */
  end(error?: string): void {
    this.settle?.(error);
  }

  /** Arms the handshake deadline: `ms` when the protocol has its own (e: 5 s), else `helloMs`. */
  awaitHandshake(ms: number = this.t.helloMs): void {
    this.handshakeTimer = setTimeout(() => this.on.handshakeTimeout(ms), ms);
  }

  /** The handshake is done: the registration window opens. */
  openWindow(): void {
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.graceTimer = setTimeout(() => this.on.windowClosed('ready-timeout'), this.t.readyGraceMs);
    this.activity();
  }

  /** A frame arrived during the window: the quiet period starts again. */
  activity(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.on.windowClosed('auto-ready'), this.t.autoReadyMs);
  }

  clear(): void {
    for (const t of [this.handshakeTimer, this.quietTimer, this.graceTimer]) if (t) clearTimeout(t);
  }
}
