import { describe, expect, it } from 'vitest';
import { frameFromSpec, mergeFrame, RenderCoalescer, WebviewMessage, type Scheduler } from '../../src/ui-model/panelModel';
import { applyRender, type HeldFrame, type RenderMessage } from '../../src/ui-model/panelRender';

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

/**
 * A webview that receives each post `ackDelay` ms of fake time after it is made, applies it to the frame it holds
 * (as media/panel.ts does) and acks it, or asks for a full frame when a delta does not apply.
 */
class FakeWebview {
  shown: HeldFrame | undefined;
  received: RenderMessage[] = [];
  resyncs = 0;
  constructor(
    private readonly clock: FakeScheduler,
    private readonly ackDelay: number,
  ) {}
  attach(c: RenderCoalescer): (m: RenderMessage) => void {
    return (m) => {
      this.received.push(m);
      this.clock.setTimeout(() => {
        const next = applyRender(this.shown, m);
        if (!next) {
          this.resyncs++;
          c.onResync();
          return;
        }
        this.shown = next;
        c.onAck(m.seq);
      }, this.ackDelay);
    };
  }
}

/** The lines of a whole-frame post; a delta's are not its own. */
const wholeLines = (m: RenderMessage) => (m.base === undefined ? m.lines : 'a delta');

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
    expect(webview.received.at(-1)).toMatchObject({ base: webview.received.length - 1, changed: [[0, 'frame 9999']] });
    expect(webview.resyncs).toBe(0);
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
    // Unsure whether the first post arrived, the coalescer posts the second whole.
    expect(posted.map(wholeLines)).toEqual([[], ['late']]);
    expect(posted[1]?.base).toBeUndefined();
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
    expect(webview.received.map(wholeLines)).toEqual([['a']]);
  });
});

describe('RenderCoalescer deltas', () => {
  const rows = (sel: number, n = 200) => Array.from({ length: n }, (_, i) => `${i === sel ? '▸ ' : '  '}item ${i}`);
  function ready(lines: string[], footer = '') {
    const clock = new FakeScheduler();
    const webview = new FakeWebview(clock, 5);
    let post: (m: RenderMessage) => void = () => {};
    const c = new RenderCoalescer(frameFromSpec({ title: 'T', lines, footer }), (m) => post(m), clock);
    post = webview.attach(c);
    c.onReady();
    clock.advance(100);
    return { clock, webview, c };
  }

  it('posts the first frame whole, then a keystroke as the two rows that changed', () => {
    const { clock, webview, c } = ready(rows(0));
    expect(webview.received[0]).toEqual({ type: 'render', seq: 1, title: 'T', lines: rows(0), footer: '' });
    c.update({ lines: rows(1) });
    clock.advance(100);
    expect(webview.received[1]).toEqual({ type: 'render', seq: 2, base: 1, length: 200, changed: [[0, rows(1)[0]], [1, rows(1)[1]]] });
    expect(webview.shown).toEqual({ seq: 2, title: 'T', lines: rows(1), footer: '' });
  });

  it('sends the title or the footer only when it changed, with no rows', () => {
    const { clock, webview, c } = ready(rows(0), 'f');
    c.update({ footer: 'g' });
    clock.advance(100);
    c.update({ title: 'U', lines: rows(0) });
    clock.advance(100);
    expect(webview.received.slice(1)).toEqual([
      { type: 'render', seq: 2, base: 1, length: 200, changed: [], footer: 'g' },
      { type: 'render', seq: 3, base: 2, length: 200, changed: [], title: 'U' },
    ]);
    expect(webview.shown).toEqual({ seq: 3, title: 'U', lines: rows(0), footer: 'g' });
  });

  it('removes and adds rows by the length', () => {
    const { clock, webview, c } = ready(['a', 'b', 'c', 'd', 'e']);
    c.update({ lines: ['a', 'x', 'c'] });
    clock.advance(100);
    c.update({ lines: ['a', 'x', 'c', 'd', 'e', 'f'] });
    clock.advance(100);
    c.update({ lines: [] });
    clock.advance(100);
    expect(webview.received.slice(1)).toEqual([
      { type: 'render', seq: 2, base: 1, length: 3, changed: [[1, 'x']] },
      { type: 'render', seq: 3, base: 2, length: 6, changed: [[3, 'd'], [4, 'e'], [5, 'f']] },
      { type: 'render', seq: 4, base: 3, length: 0, changed: [] },
    ]);
    expect(webview.shown?.lines).toEqual([]);
    expect(webview.resyncs).toBe(0);
  });

  it('a burst of deltas with rows removed and added ends with exactly the newest frame', () => {
    const { clock, webview, c } = ready(rows(0, 50));
    for (let i = 1; i <= 3000; i++) {
      c.update({ lines: rows(i % 40, 20 + (i * 7) % 40), footer: `f${i}` });
      if (i % 30 === 0) clock.advance(1);
    }
    clock.advance(1000);
    expect(webview.shown).toMatchObject({ title: 'T', lines: rows(3000 % 40, 20 + (3000 * 7) % 40), footer: 'f3000' });
    expect(webview.received.slice(1).every((m) => m.base !== undefined)).toBe(true);
    expect(c.posts).toBeLessThan(20);
    expect(webview.resyncs).toBe(0);
  });

  it('a delta the webview cannot apply (it holds another frame) makes it ask, and the whole frame follows', () => {
    const { clock, webview, c } = ready(rows(0));
    // The webview lost its frame (e.g. a stale page) without saying `ready`.
    webview.shown = { seq: 99, title: 'old', lines: ['stale'], footer: '' };
    c.update({ lines: rows(5) });
    clock.advance(100);
    expect(webview.resyncs).toBe(1);
    const last = webview.received.at(-1)!;
    expect(last).toEqual({ type: 'render', seq: 3, title: 'T', lines: rows(5), footer: '' });
    expect(webview.shown).toEqual({ seq: 3, title: 'T', lines: rows(5), footer: '' });
    c.update({ lines: rows(6) });
    clock.advance(100);
    expect(webview.received.at(-1)).toMatchObject({ base: 3 });
    expect(webview.shown?.lines).toEqual(rows(6));
  });

  it('ready (a reloaded webview) gets the whole current frame, then deltas against it', () => {
    const { clock, webview, c } = ready(rows(0));
    c.update({ lines: rows(1) });
    clock.advance(100);
    webview.shown = undefined as HeldFrame | undefined; // the page reloaded: it holds nothing
    c.onReady();
    clock.advance(100);
    expect(webview.received.at(-1)).toEqual({ type: 'render', seq: 3, title: 'T', lines: rows(1), footer: '' });
    c.update({ lines: rows(2) });
    clock.advance(100);
    expect(webview.received.at(-1)).toMatchObject({ seq: 4, base: 3, length: 200 });
    expect(webview.shown?.lines).toEqual(rows(2));
    expect(webview.resyncs).toBe(0);
  });

  it('after a failed post the next post is whole', () => {
    const { clock, webview, c } = ready(rows(0));
    c.onPostFailed();
    c.update({ lines: rows(1) });
    clock.advance(100);
    expect(webview.received.at(-1)).toEqual({ type: 'render', seq: 2, title: 'T', lines: rows(1), footer: '' });
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
      { type: 'resync' },
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
