import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../src/host/extensions/serialQueue';

/** A job whose end the test controls, recording start/end order. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return {
    open,
    job: async () => {
      log.push(`start ${name}`);
      await opened;
      log.push(`end ${name}`);
      return name;
    },
  };
}

describe('SerialQueue', () => {
  it('runs jobs one at a time, in order', async () => {
    const q = new SerialQueue<string>();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const pa = q.run(a.job);
    const pb = q.run(b.job);
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['start a']);
    b.open(); // b may not start before a ends, even if its own gate is open
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['start a']);
    a.open();
    expect(await pa).toBe('a');
    expect(await pb).toBe('b');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('a failing job does not block the next one', async () => {
    const q = new SerialQueue();
    const failed = q.run(async () => {
      throw new Error('boom');
    });
    const next = q.run(async () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ok');
  });

  it('coalesces requests made while one is waiting to start', async () => {
    const q = new SerialQueue<number>();
    const log: string[] = [];
    const running = gate(log, 'running');
    const first = q.run(running.job);
    let reloads = 0;
    const reload = async () => {
      reloads++;
      log.push(`reload ${reloads}`);
      return reloads;
    };
    const r1 = q.coalesce(reload);
    const r2 = q.coalesce(reload);
    const r3 = q.coalesce(reload);
    expect(r2).toBe(r1);
    expect(r3).toBe(r1);
    running.open();
    await first;
    expect(await r1).toBe(1);
    expect(reloads).toBe(1);
    // Once it has started, a new request queues a new reload (the state may have changed meanwhile).
    const started = q.coalesce(reload);
    expect(await started).toBe(2);
    expect(log).toEqual(['start running', 'end running', 'reload 1', 'reload 2']);
  });

  it('a request during a running coalesced job queues exactly one more', async () => {
    const q = new SerialQueue<string>();
    const log: string[] = [];
    const g = gate(log, 'first');
    const p1 = q.coalesce(g.job);
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['start first']);
    const p2 = q.coalesce(async () => 'second');
    const p3 = q.coalesce(async () => 'third');
    expect(p3).toBe(p2);
    g.open();
    expect(await p1).toBe('first');
    expect(await p2).toBe('second');
  });
});
