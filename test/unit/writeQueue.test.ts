import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { WriteQueue } from '../../src/host/process/writeQueue';

/** A stream that accepts one chunk and then needs a drain that only `drain()` gives. */
function stuckStream() {
  const written: string[] = [];
  let cb: (() => void) | undefined;
  const s = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, callback) {
      written.push(String(chunk));
      cb = callback;
    },
  });
  return { s, written, drain: () => cb?.() };
}

/** A stream that accepts every chunk at once and records each write. */
function acceptingStream() {
  const written: string[] = [];
  const s = new Writable({
    write(chunk: Buffer, _enc, callback) {
      written.push(String(chunk));
      callback();
    },
  });
  return { s, written };
}

/** The end of the current tick: staged frames have been written. */
const endOfTick = () => new Promise<void>((r) => queueMicrotask(r));

describe('WriteQueue', () => {
  it('frames of one tick leave in one write, in order; a staged frame can still be withdrawn', async () => {
    const { s, written } = acceptingStream();
    // A wait no scheduler hiccup reaches, so the four frames are one batch on any machine.
    const q = new WriteQueue(s, { batchWaitMs: 60_000, onFail: () => undefined });
    for (const f of ['a', 'b', 'c', 'd']) q.push(`${f}\n`, f);
    expect(written).toEqual([]);
    expect(q.withdraw('c')).toBe('queued');
    await endOfTick();
    expect(written).toEqual(['a\nb\nd\n']);
    q.push('e\n', 'e');
    await endOfTick();
    expect(written).toEqual(['a\nb\nd\n', 'e\n']);
    q.close();
  });

  it('a burst past the batch size is written at once, not held to the end of the tick', () => {
    const { s, written } = acceptingStream();
    const q = new WriteQueue(s, { batchWaitMs: 60_000, onFail: () => undefined });
    const frame = 'x'.repeat(16 * 1024) + '\n';
    for (let i = 0; i < 4; i++) q.push(frame);
    expect(written).toHaveLength(1);
    expect(written[0]!.length).toBe(4 * frame.length);
    q.close();
  });

  it('a long synchronous burst does not hold its first frames back: the batch leaves once its first frame is old', async () => {
    const { s, written } = acceptingStream();
    // A stepped clock: the queue reads performance.now() at push time, so the burst's age is set, not timed.
    let now = 1000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const q = new WriteQueue(s, { batchWaitMs: 50, onFail: () => undefined });
      q.push('a\n', 'a');
      now += 10;
      q.push('b\n', 'b');
      expect(written).toEqual([]); // young: staged
      now += 50; // a burst still being issued (same tick), its first frame now 60 ms old
      q.push('c\n', 'c'); // the batch is older than batchWaitMs: it leaves now, with this frame
      expect(written).toEqual(['a\nb\nc\n']);
      q.push('d\n', 'd');
      expect(written).toEqual(['a\nb\nc\n']); // a new batch, young again
      await endOfTick();
      expect(written).toEqual(['a\nb\nc\n', 'd\n']);
    } finally {
      clock.mockRestore();
    }
  });

  it('keeps order; a queued frame can be withdrawn, one being written cannot', async () => {
    const { s, written, drain } = stuckStream();
    const q = new WriteQueue(s, { onFail: () => undefined });
    q.push('a\n', 'a');
    await endOfTick();
    q.push('b\n', 'b');
    q.push('c\n', 'c');
    expect(written).toEqual(['a\n']);
    expect(q.withdraw('b')).toBe('queued');
    expect(q.withdraw('a')).toBe('writing');
    drain();
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['a\n', 'c\n']);
    expect(q.withdraw('a')).toBe('done');
    q.close();
  });

  it('overflow of the frame bound fails once, never drops silently', async () => {
    const { s } = stuckStream();
    const fails: string[] = [];
    const q = new WriteQueue(s, { maxFrames: 3, onFail: (r) => fails.push(r) });
    q.push('first\n');
    await endOfTick(); // its write has begun and does not drain: what follows waits in the bounded queue
    for (let i = 0; i < 6; i++) q.push(`${i}\n`);
    expect(fails).toHaveLength(1);
    expect(fails[0]).toMatch(/outbound queue overflow \(3 frames, 6 bytes queued; limits 3 frames/);
    expect(q.push('x\n')).toBe(false);
  });

  it('the byte bound counts too', async () => {
    const { s } = stuckStream();
    const fails: string[] = [];
    const q = new WriteQueue(s, { maxBytes: 10, onFail: (r) => fails.push(r) });
    q.push('first\n');
    await endOfTick();
    q.push('0123456789\n');
    expect(fails[0]).toMatch(/overflow/);
  });

  it('a write that does not drain within the timeout fails the queue', async () => {
    const { s } = stuckStream();
    const fails: string[] = [];
    const q = new WriteQueue(s, { writeTimeoutMs: 50, onFail: (r) => fails.push(r) });
    q.push('a\n');
    await new Promise((r) => setTimeout(r, 120));
    expect(fails).toEqual(['write timeout: a frame was not accepted within 0.05s']);
  });
});
