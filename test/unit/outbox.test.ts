/** Messages to an MCP client with backpressure (src/mcp/outbox.ts): order, latest-wins progress, errors, a cap. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/mcp/outbox';

/** A stream that accepts `room` writes, then reports full until `drain()`. */
function slowStream(room: number) {
  const written: string[] = [];
  let left = room;
  const stream = new Writable({ highWaterMark: 1, write: (chunk: Buffer, _enc, cb) => (written.push(chunk.toString().trim()), cb()) });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string) => (write(chunk), --left > 0)) as typeof stream.write;
  return { stream, written, drain: () => ((left = room), stream.emit('drain')) };
}
const progress = (token: string, n: number) => ({ method: 'notifications/progress', params: { progressToken: token, progress: n } });

describe('Outbox', () => {
  it('holds messages while the stream is full; a waiting progress is replaced in place by the latest for its token', async () => {
    const s = slowStream(1);
    const gone: string[] = [];
    const o = new Outbox(s.stream, (r) => gone.push(r));
    o.send({ id: 1 });
    for (let n = 1; n <= 1000; n++) o.send(progress('a', n));
    o.send({ id: 2 });
    for (let n = 1; n <= 1000; n++) o.send(progress('b', n));
    o.send(progress('a', 1001));
    expect(o.queuedBytes).toBeLessThan(300);
    for (let i = 0; i < 4; i++) s.drain();
    await new Promise((r) => setImmediate(r));
    expect(s.written.map((l) => JSON.parse(l) as object)).toEqual([{ id: 1 }, progress('a', 1001), { id: 2 }, progress('b', 1000)]);
    expect(gone).toEqual([]);
  });

  it('a write error (EPIPE, ENOBUFS) ends the session once, without a throw; later messages are dropped', () => {
    const stream = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error('write ENOBUFS'), { code: 'ENOBUFS' })) });
    const gone: string[] = [];
    const o = new Outbox(stream, (r) => gone.push(r));
    o.send({ id: 1 });
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        o.send({ id: 2 });
        expect(gone).toEqual(['write to the MCP client failed: write ENOBUFS']);
        resolve();
      }),
    );
  });

  it('a client that never reads: past the cap of waiting answers it is declared gone', () => {
    const s = slowStream(1);
    const gone: string[] = [];
    const o = new Outbox(s.stream, (r) => gone.push(r), 1_000);
    for (let i = 0; i < 100; i++) o.send({ id: i, result: 'x'.repeat(50) });
    expect(gone).toEqual(['the MCP client is not reading: over 1000 bytes waiting']);
    expect(o.queuedBytes).toBe(0);
  });
});
