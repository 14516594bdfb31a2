import { describe, expect, it } from 'vitest';
import type { RenderMessage } from '../../src/ui-model/panelKeys';
import { frameFromSpec, mergeFrame, RenderCoalescer, WebviewMessage, type Scheduler } from '../../src/ui-model/panelModel';

/** A manual clock: timers run only when the test advances time. */
class FakeScheduler implements Scheduler {
  private t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }
  /** Runs every timer due within `ms`, in time order (timers may add timers). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
  }
}

/** A webview that shows what it is posted and acks after `ackDelay` ms of fake time. */
class FakeWebview {
  shown: RenderMessage | undefined;
  received: RenderMessage[] = [];
  constructor(
    private readonly clock: FakeScheduler,
    private readonly ackDelay: number,
  ) {}
  attach(c: RenderCoalescer): (m: RenderMessage) => void {
    return (m) => {
      this.received.push(m);
      this.clock.setTimeout(() => {
        this.shown = m;
        c.onAck(m.seq);
      }, this.ackDelay);
    };
  }
}

function setup(ackDelay = 5, options = {}) {
  const clock = new FakeScheduler();
  const webview = new FakeWebview(clock, ackDelay);
  let post: (m: RenderMessage) => void = () => {};
  const c = new RenderCoalescer(frameFromSpec({ title: 'T', lines: ['a'] }), (m) => post(m), clock, options);
  post = webview.attach(c);
  return { clock, webview, c };
}

describe('RenderCoalescer', () => {
  it('posts nothing until the webview is ready, then the current frame', () => {
    const { clock, webview, c } = setup();
    c.update({ lines: ['b'] });
    clock.advance(100);
    expect(webview.received).toHaveLength(0);
    c.onReady();
    clock.advance(100);
    expect(webview.received).toHaveLength(1);
    expect(webview.shown).toMatchObject({ title: 'T', lines: ['b'], footer: '' });
  });

  it('coalesces a burst of 10,000 renders into a few posts and shows the last frame', () => {
    const { clock, webview, c } = setup();
    c.onReady();
    clock.advance(50);
    for (let i = 0; i < 10_000; i++) {
      c.update({ lines: [`frame ${i}`] });
      if (i % 100 === 0) clock.advance(1); // the burst spans 100 ms of arrivals
    }
    clock.advance(1000);
    expect(webview.shown?.lines).toEqual(['frame 9999']);
    expect(webview.received.at(-1)?.lines).toEqual(['frame 9999']);
    // ≤ one post per 16 ms frame over ~100 ms, plus the initial and final frames.
    expect(c.posts).toBeLessThanOrEqual(10);
    expect(c.posts).toBe(webview.received.length);
  });

  it('never has more than one un-acked post, and keeps at least one frame interval between posts', () => {
    const { clock, webview, c } = setup(40);
    c.onReady();
    const times: number[] = [];
    const orig = webview.received.push.bind(webview.received);
    webview.received.push = (...m) => {
      times.push(clock.now());
      return orig(...m);
    };
    for (let i = 0; i < 200; i++) {
      c.update({ footer: String(i) });
      clock.advance(2);
    }
    clock.advance(500);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(40);
    expect(webview.shown?.footer).toBe('199');
  });

  it('recovers from a lost ack after the ack timeout', () => {
    const clock = new FakeScheduler();
    const posted: RenderMessage[] = [];
    const c = new RenderCoalescer(frameFromSpec({}), (m) => posted.push(m), clock, { ackTimeoutMs: 300 });
    c.onReady();
    c.update({ lines: ['late'] });
    clock.advance(299);
    expect(posted).toHaveLength(1);
    clock.advance(2);
    expect(posted.map((m) => m.lines)).toEqual([[], ['late']]);
  });

  it('re-posts the current frame when the webview reloads (ready again)', () => {
    const { clock, webview, c } = setup();
    c.onReady();
    c.update({ title: 'Kept' });
    clock.advance(100);
    const before = webview.received.length;
    c.onReady();
    clock.advance(100);
    expect(webview.received.length).toBe(before + 1);
    expect(webview.received.at(-1)?.title).toBe('Kept');
  });

  it('stops posting once disposed', () => {
    const { clock, webview, c } = setup();
    c.onReady();
    clock.advance(1);
    c.update({ lines: ['x'] });
    c.dispose();
    clock.advance(1000);
    expect(webview.received.map((m) => m.lines)).toEqual([['a']]);
  });
});

describe('frames', () => {
  it('panel_render keeps omitted fields', () => {
    const f = frameFromSpec({ title: 'T', lines: ['1'], footer: 'F' });
    expect(mergeFrame(f, { lines: ['2'] })).toEqual({ title: 'T', lines: ['2'], footer: 'F' });
    expect(mergeFrame(f, { title: '', footer: undefined })).toEqual({ title: '', lines: ['1'], footer: 'F' });
  });
});

describe('WebviewMessage', () => {
  it('accepts the messages media/panel.ts sends', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'ack', seq: 3 },
      { type: 'key', key: 'down' },
      { type: 'key', key: 'rune', text: 'x' },
      { type: 'resize', columns: 80, rows: 24 },
    ]) {
      expect(WebviewMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
    }
  });

  it('rejects anything else', () => {
    for (const m of [
      null,
      'ready',
      { type: 'eval', code: 'x' },
      { type: 'key', key: 'f5' },
      { type: 'key', key: 'rune' },
      { type: 'key', key: 'rune', text: 'xy' },
      { type: 'key', key: 'up', text: 'x' },
      { type: 'resize', columns: 0, rows: 24 },
      { type: 'resize', columns: 1.5, rows: 24 },
      { type: 'ack', seq: -1 },
    ]) {
      expect(WebviewMessage.safeParse(m).success, JSON.stringify(m)).toBe(false);
    }
  });
});
