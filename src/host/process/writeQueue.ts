/**
 * The ordered, bounded outbound queue of one connection. Frames wait here until the child's stdin accepts
 * them. Bounds (spec): 256 frames and 16 MiB queued; a write that does not drain within 5 s is a write timeout.
 * Overflow and write timeouts are reported through `onFail`, never silently dropped.
 *
 * While the stream is accepting, frames sent in the same tick are staged and leave together in one write at the
 * end of the tick (or at once past `WRITE_BATCH_BYTES`, or once the first staged frame is `WRITE_BATCH_MAX_WAIT_MS`
 * old): a burst of calls costs one syscall and one wake-up of the child, not one per frame, and a long burst does
 * not hold its first frames back. A staged frame has not been written yet, so it can still be withdrawn.
 */
import type { Writable } from 'node:stream';

import { QUEUE_MAX_BYTES, QUEUE_MAX_FRAMES, TORN_WRITE_GRACE_MS, WRITE_BATCH_BYTES, WRITE_BATCH_MAX_WAIT_MS, WRITE_TIMEOUT_MS } from '../../protocol/limits';

// The bounds live in limits.ts; re-exported for the queue's users.
export { QUEUE_MAX_BYTES, QUEUE_MAX_FRAMES, TORN_WRITE_GRACE_MS, WRITE_TIMEOUT_MS };

/** A frame of this tick, not yet written (its size is counted only against the batch size). */
interface Staged {
  data: string;
  id?: string;
}

/** A frame waiting for the child to read (counted against the queue bounds). */
interface Queued extends Staged {
  bytes: number;
}

export interface WriteQueueOptions {
  maxFrames?: number;
  maxBytes?: number;
  writeTimeoutMs?: number;
  /** How long a staged frame may wait for company (`WRITE_BATCH_MAX_WAIT_MS`). */
  batchWaitMs?: number;
  /** The queue can no longer deliver: overflow or write timeout. Called once. */
  onFail(reason: string): void;
}

export class WriteQueue {
  private readonly queue: Queued[] = [];
  private queuedBytes = 0;
  /** Frames of this tick, written together by `flushStaged` (only while the stream is accepting). */
  private staged: Staged[] = [];
  private stagedChars = 0;
  /** `performance.now()` when the first staged frame arrived. */
  private stagedAt = 0;
  private readonly batchWaitMs: number;
  private flushScheduled = false;
  private waitingDrain = false;
  private writeTimer: NodeJS.Timeout | undefined;
  /** Ids of frames handed to the stream since it last drained (their write has begun). */
  private readonly inFlight = new Set<string>();
  private failed = false;
  private closed = false;

  constructor(
    private readonly stream: Writable,
    private readonly options: WriteQueueOptions,
  ) {
    this.batchWaitMs = options.batchWaitMs ?? WRITE_BATCH_MAX_WAIT_MS;
    stream.on('drain', this.onDrain);
    stream.on('error', () => {
      /* EPIPE after the child exits: the exit handler reports it */
    });
  }

  /** Queues one encoded frame. Returns false when the queue is closed or has failed. */
  push(data: string, id?: string): boolean {
    if (this.failed || this.closed) return false;
    if (!this.waitingDrain && this.queue.length === 0) {
      // Fast path: nothing waiting for the child; stage the frame for this tick's single write.
      if (this.staged.length === 0) this.stagedAt = performance.now();
      this.staged.push({ data, id });
      this.stagedChars += data.length;
      if (this.stagedChars >= WRITE_BATCH_BYTES || performance.now() - this.stagedAt >= this.batchWaitMs) this.flushStaged();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(this.flushStaged);
      }
      return true;
    }
    const bytes = Buffer.byteLength(data);
    const maxFrames = this.options.maxFrames ?? QUEUE_MAX_FRAMES;
    const maxBytes = this.options.maxBytes ?? QUEUE_MAX_BYTES;
    if (this.queue.length + 1 > maxFrames || this.queuedBytes + bytes > maxBytes) {
      this.fail(
        `outbound queue overflow (${this.queue.length} frames, ${this.queuedBytes} bytes queued; limits ${maxFrames} frames / ${maxBytes} bytes): the extension is not reading its stdin`,
      );
      return false;
    }
    this.queue.push({ data, bytes, id });
    this.queuedBytes += bytes;
    this.flush();
    return true;
  }

  /**
   * Withdraws a frame by id. `queued`: it was still waiting and is gone; `writing`: its write has begun
   * (it cannot be withdrawn); `done`: it was already delivered or never existed.
   */
  withdraw(id: string): 'queued' | 'writing' | 'done' {
    const j = this.staged.findIndex((q) => q.id === id);
    if (j >= 0) {
      const [q] = this.staged.splice(j, 1);
      this.stagedChars -= q!.data.length;
      return 'queued';
    }
    const i = this.queue.findIndex((q) => q.id === id);
    if (i >= 0) {
      const [q] = this.queue.splice(i, 1);
      this.queuedBytes -= q!.bytes;
      return 'queued';
    }
    return this.inFlight.has(id) && this.waitingDrain ? 'writing' : 'done';
  }

  /** Whether the frame with this id is still being written (stream not drained). */
  isWriting(id: string): boolean {
    return this.waitingDrain && this.inFlight.has(id);
  }

  /** Stops writing (no failure): used when the connection ends. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.staged = [];
    this.stagedChars = 0;
    if (this.writeTimer) clearTimeout(this.writeTimer);
    this.stream.off('drain', this.onDrain);
  }

  /** Writes this tick's staged frames as one chunk. */
  private readonly flushStaged = (): void => {
    this.flushScheduled = false;
    const batch = this.staged;
    if (batch.length === 0 || this.closed || this.failed) return;
    this.staged = [];
    this.stagedChars = 0;
    if (batch.length === 1) return this.write(batch[0]!.data, batch[0]!.id);
    let data = '';
    for (const q of batch) data += q.data;
    this.write(data, undefined, batch);
  };

  private flush(): void {
    while (!this.waitingDrain && this.queue.length > 0 && !this.closed) {
      const q = this.queue.shift()!;
      this.queuedBytes -= q.bytes;
      this.write(q.data, q.id);
    }
  }

  private write(data: string, id: string | undefined, batch?: Staged[]): void {
    let ok: boolean;
    try {
      ok = this.stream.write(data);
    } catch {
      ok = true; // a destroyed stream: the exit handler reports it
    }
    if (ok) return;
    // The stream buffered it: this frame's write has begun and lasts until 'drain'.
    if (id) this.inFlight.add(id);
    if (batch) for (const q of batch) if (q.id) this.inFlight.add(q.id);
    this.waitingDrain = true;
    this.writeTimer = setTimeout(
      () => this.fail(`write timeout: a frame was not accepted within ${(this.options.writeTimeoutMs ?? WRITE_TIMEOUT_MS) / 1000}s`),
      this.options.writeTimeoutMs ?? WRITE_TIMEOUT_MS,
    );
  }

  private readonly onDrain = (): void => {
    if (this.writeTimer) clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    this.waitingDrain = false;
    this.inFlight.clear();
    this.flush();
  };

  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    this.close();
    this.options.onFail(reason);
  }
}
