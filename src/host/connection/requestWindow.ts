/**
 * The window of requests one connection has on the wire. The spec bounds the host → extension queue (256 frames,
 * 16 MiB) and disconnects an extension that overflows it; a burst of calls against an extension that reads one
 * line at a time (1,500 concurrent `tools/call`) would overflow it and kill the extension. So at most
 * `MAX_REQUESTS_IN_FLIGHT` requests (and `MAX_REQUEST_BYTES_IN_FLIGHT` of them) are written and unanswered at once;
 * the rest are held here in order, unwritten, and go out as replies free slots. A held request is already in the
 * pending table, so its caller's deadline and cancellation run while it waits (it then leaves without ever being
 * written, and without a `tool_cancel`). Past `MAX_REQUESTS_HELD` waiting, a request is refused at once as busy.
 */
import { MAX_REQUESTS_HELD, MAX_REQUESTS_IN_FLIGHT, MAX_REQUEST_BYTES_IN_FLIGHT } from '../../protocol/limits';

export interface WindowLimits {
  inFlight: number;
  bytesInFlight: number;
  held: number;
}

const DEFAULT_WINDOW: WindowLimits = {
  inFlight: MAX_REQUESTS_IN_FLIGHT,
  bytesInFlight: MAX_REQUEST_BYTES_IN_FLIGHT,
  held: MAX_REQUESTS_HELD,
};

export class RequestWindow {
  /** Written and unanswered: id → its frame's bytes. */
  private readonly wire = new Map<string, number>();
  private wireBytes = 0;
  /** Waiting to be written, in arrival order: id → its line. */
  private readonly held = new Map<string, string>();

  constructor(
    /** Writes one request line; false when it could not be queued (the caller's request then fails). */
    private readonly send: (id: string, line: string) => boolean,
    /** A held request whose write failed when its turn came. */
    private readonly failed: (id: string) => void,
    readonly limits: WindowLimits = DEFAULT_WINDOW,
  ) {}

  /** Requests held back now (for tests and the doctor). */
  get heldCount(): number {
    return this.held.size;
  }

  /** `sent` (or `failed` to write), `held` for later, or `busy`: too many already waiting. */
  submit(id: string, line: string): 'sent' | 'failed' | 'held' | 'busy' {
    const bytes = Buffer.byteLength(line);
    if (this.held.size === 0 && this.fits(bytes)) return this.put(id, line, bytes) ? 'sent' : 'failed';
    if (this.held.size >= this.limits.held) return 'busy';
    this.held.set(id, line);
    return 'held';
  }

  /** Whether `id` is held (never written). */
  isHeld(id: string): boolean {
    return this.held.has(id);
  }

  /** Request `id` left the pending table: a held one is dropped unwritten; a written one frees its slot. */
  settled(id: string, pump: boolean): void {
    if (this.held.delete(id)) return;
    const bytes = this.wire.get(id);
    if (bytes === undefined) return;
    this.wire.delete(id);
    this.wireBytes -= bytes;
    if (pump) this.pump();
  }

  /** One frame always fits an empty window (a lone 4 MiB request must pass). */
  private fits(bytes: number): boolean {
    return this.wire.size === 0 || (this.wire.size < this.limits.inFlight && this.wireBytes + bytes <= this.limits.bytesInFlight);
  }

  private put(id: string, line: string, bytes: number): boolean {
    this.wire.set(id, bytes);
    this.wireBytes += bytes;
    if (this.send(id, line)) return true;
    this.wire.delete(id);
    this.wireBytes -= bytes;
    return false;
  }

  private pump(): void {
    for (const [id, line] of this.held) {
      const bytes = Buffer.byteLength(line);
      if (!this.fits(bytes)) return;
      this.held.delete(id);
      if (!this.put(id, line, bytes)) this.failed(id);
    }
  }
}
