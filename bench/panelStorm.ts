/**
 * 7. Panel storm: 10,000 `panel_render` frames in one burst from an extension, through the Manager into the panel
 * adapter's RenderCoalescer (src/ui-model/panelModel.ts, VS Code-free) and a fake webview that acks each post after
 * 4 ms. Counts the posts actually made and checks the final frame is the one shown. Baseline: one post per frame.
 */
import { NullHostUi, type HostUi, type PanelRender } from '../src/host/hostUi';
import type { PanelSpec } from '../src/protocol';
import { frameFromSpec, RenderCoalescer } from '../src/ui-model/panelModel';
import { applyRender, type HeldFrame } from '../src/ui-model/panelRender';
import { startHost } from './host';
import { sleep, summarize, type BenchRow } from './stats';

const FRAMES = 10_000;
const ACK_MS = 4;

/** NullHostUi's no-op methods declare no parameters; typed as HostUi so overrides may take them. */
const Base = NullHostUi as unknown as new () => HostUi;

class FakeWebviewUi extends Base {
  coalescer: RenderCoalescer | undefined;
  posts = 0;
  shown: HeldFrame | undefined;
  shownAt = 0;
  firstRenderAt = 0;
  lastRenderAt = 0;

  override openPanel(_ext: string, panel: PanelSpec): void {
    this.coalescer?.dispose();
    this.posts = 0;
    this.shown = undefined;
    this.firstRenderAt = 0;
    const c = new RenderCoalescer(frameFromSpec(panel), (m) => {
      this.posts++;
      // The webview applies the post once it arrives (a delta to the frame it holds), then acks (as media/panel.ts
      // does); a delta that does not apply makes it ask for the whole frame.
      setTimeout(() => {
        const next = applyRender(this.shown, m);
        if (!next) {
          c.onResync();
          return;
        }
        this.shown = next;
        this.shownAt = performance.now();
        c.onAck(m.seq);
      }, ACK_MS);
    });
    this.coalescer = c;
    c.onReady();
  }

  override panelRender(_ext: string, render: PanelRender): void {
    const now = performance.now();
    if (!this.firstRenderAt) this.firstRenderAt = now;
    this.lastRenderAt = now;
    const { panel_id: _id, ...rest } = render;
    this.coalescer?.update(rest);
  }
}

export async function benchPanelStorm(quick: boolean): Promise<BenchRow> {
  const ui = new FakeWebviewUi();
  const host = await startHost([{ kind: 'node', name: 'ps' }], ui);
  const posts: number[] = [];
  const bounds: number[] = [];
  const latency: number[] = [];
  let allFinal = true;
  try {
    const trials = quick ? 2 : 5;
    for (let t = -1; t < trials; t++) {
      await host.manager.callTool('storm_ps', { n: FRAMES, panel: `storm${t}` });
      const want = `frame ${FRAMES}`;
      for (let i = 0; i < 200 && ui.shown?.lines[0] !== want; i++) await sleep(10);
      await sleep(50); // nothing more may be posted once the final frame is shown
      if (t < 0) continue;
      const final = ui.shown?.lines[0] === want;
      allFinal &&= final;
      posts.push(ui.posts);
      bounds.push(Math.ceil((ui.lastRenderAt - ui.firstRenderAt) / 16) + 2);
      latency.push(ui.shownAt - ui.lastRenderAt);
    }
  } finally {
    ui.coalescer?.dispose();
    await host.close();
  }
  const p = summarize(posts);
  const within = posts.every((x, i) => x <= bounds[i]!);
  return {
    id: 'panel-storm',
    figure: `Panel storm (${FRAMES.toLocaleString('en-US')} panel_render in a burst)`,
    ours: p,
    baseline: summarize(posts.map(() => FRAMES)),
    baselineName: 'one post per frame',
    unit: 'posts',
    ratio: summarize(posts.map((x) => x / FRAMES)),
    goal: 'final frame shown; posts ≤ burst/16 ms + 2',
    pass: allFinal && within,
    notes: [
      `final frame shown in every trial: ${allFinal}; bound ${summarize(bounds).median} posts`,
      `final frame on screen ${summarize(latency).median.toFixed(1)} ms after the last render (ack ${ACK_MS} ms)`,
    ],
  };
}
