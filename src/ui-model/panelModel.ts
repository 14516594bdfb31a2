/**
 * VS Code-free panel logic: the webview → extension message schema and the render coalescer that keeps render
 * storms from flooding a webview (at most one `postMessage` in flight and one per frame interval; the newest frame
 * always wins and is always delivered last; each post carries only what changed since the previous one).
 */
import * as z from 'zod';
import { lazySchema } from '../protocol/lazySchema';
import type { PanelRender } from '../host/hostUi';
import { PANEL_KEYS, type PanelSpec } from '../protocol/frames';
import { renderMessage, type RenderMessage } from './panelRender';

/** A message posted by media/panel.ts. Anything else is dropped. */
export const WebviewMessage = /* @__PURE__ */ lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('ack'), seq: z.number().int().nonnegative() }),
  // A delta did not apply to what the webview holds: it asks for a full frame.
  z.object({ type: z.literal('resync') }),
  z
    .object({ type: z.literal('key'), key: z.enum(PANEL_KEYS), text: z.string().max(8).optional() })
    .refine((k) => (k.key === 'rune') === (k.text !== undefined && [...k.text].length === 1), {
      message: '`text` is one character, for `rune` only',
    }),
  z.object({
    type: z.literal('resize'),
    columns: z.number().int().min(1).max(100_000),
    rows: z.number().int().min(1).max(100_000),
  }),
]));
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** What a panel currently shows. */
export interface PanelFrame {
  title: string;
  lines: string[];
  footer: string;
}

/** The frame of a freshly opened panel (`open_panel`). */
export function frameFromSpec(spec: Pick<PanelSpec, 'title' | 'footer'> & { lines?: string[] }): PanelFrame {
  return { title: spec.title ?? '', lines: spec.lines ?? [], footer: spec.footer ?? '' };
}

/** Applies a `panel_render`: omitted fields keep their previous value. */
export function mergeFrame(prev: PanelFrame, render: Omit<PanelRender, 'panel_id'>): PanelFrame {
  return {
    title: render.title ?? prev.title,
    lines: render.lines ?? prev.lines,
    footer: render.footer ?? prev.footer,
  };
}

/** Timers, injectable so tests control time. */
export interface Scheduler {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realScheduler: Scheduler = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface CoalescerOptions {
  /** Minimum time between two posts (one animation frame). */
  minIntervalMs?: number;
  /** After this long without an `ack`, post anyway (a lost ack must not freeze the panel). */
  ackTimeoutMs?: number;
}

/**
 * Holds the latest frame of one panel and posts it to the webview when the webview is ready, has acknowledged the
 * previous post, and a frame interval has passed. Intermediate frames of a burst are dropped; the last one is
 * posted once the webview catches up. A post is a delta against the previous post (media/panel.ts applies each on
 * receipt, so it holds exactly that frame), or a full frame when what the webview holds is not known: the first
 * post, after `ready` or `resync`, after a lost ack or a failed post.
 */
export class RenderCoalescer {
  private frame: PanelFrame;
  private seq = 0;
  private ready = false;
  private dirty = true;
  /** The last frame posted and its seq: what the webview holds once it has received every post (undefined: unknown). */
  private sent: { seq: number; frame: PanelFrame } | undefined;
  private inFlight: { seq: number; at: number } | undefined;
  private lastPostAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private disposed = false;
  private readonly minIntervalMs: number;
  private readonly ackTimeoutMs: number;
  /** Number of posts so far (for tests and diagnostics). */
  posts = 0;

  constructor(
    initial: PanelFrame,
    private readonly post: (m: RenderMessage, frame: PanelFrame) => void,
    private readonly scheduler: Scheduler = realScheduler,
    options: CoalescerOptions = {},
  ) {
    this.frame = initial;
    this.minIntervalMs = options.minIntervalMs ?? 16;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 1000;
  }

  /** The newest frame (what the panel shows once the webview catches up). */
  get current(): PanelFrame {
    return this.frame;
  }

  /** Replaces the whole frame (`open_panel` on an existing panel). */
  replace(frame: PanelFrame): void {
    this.frame = frame;
    this.dirty = true;
    this.pump();
  }

  /** Merges a `panel_render`. */
  update(render: Omit<PanelRender, 'panel_id'>): void {
    this.frame = mergeFrame(this.frame, render);
    this.dirty = true;
    this.pump();
  }

  /** The webview (re)loaded its script: it has nothing, so the current frame is posted again, whole. */
  onReady(): void {
    this.ready = true;
    this.onResync();
  }

  /** A delta did not apply to what the webview holds (it acks nothing for it): the current frame goes whole. */
  onResync(): void {
    this.sent = undefined;
    this.inFlight = undefined;
    this.dirty = true;
    this.clearTimer();
    this.pump();
  }

  /** A post was not delivered (postMessage failed): the next post is a full frame. */
  onPostFailed(): void {
    this.sent = undefined;
  }

  /** The webview received post `seq`. */
  onAck(seq: number): void {
    if (this.inFlight && seq >= this.inFlight.seq) {
      this.inFlight = undefined;
      // A pending timer may be the ack timeout; the due time is earlier now.
      this.clearTimer();
      this.pump();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
  }

  private pump(): void {
    if (this.disposed || !this.ready || !this.dirty || this.timer !== undefined) return;
    const now = this.scheduler.now();
    let due = this.lastPostAt + this.minIntervalMs;
    if (this.inFlight) due = Math.max(due, this.inFlight.at + this.ackTimeoutMs);
    if (now >= due) {
      this.flush(now);
      return;
    }
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      if (this.inFlight && this.scheduler.now() >= this.inFlight.at + this.ackTimeoutMs) {
        // The post or its ack was lost: what the webview holds is not known.
        this.inFlight = undefined;
        this.sent = undefined;
      }
      this.pump();
    }, due - now);
  }

  private flush(now: number): void {
    this.seq += 1;
    this.dirty = false;
    this.inFlight = { seq: this.seq, at: now };
    this.lastPostAt = now;
    this.posts += 1;
    const message = renderMessage(this.seq, this.sent, this.frame);
    this.sent = { seq: this.seq, frame: this.frame };
    this.post(message, this.frame);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
