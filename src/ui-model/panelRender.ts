/**
 * The panel's render messages (extension → webview): a full frame, or only what changed since the frame the webview
 * holds (issue 28 item 3: a keystroke in a 200-line panel carries a few rows, not the whole frame). The extension
 * side's diff, and the webview's type guard and apply. The webview bundle uses it: at runtime it imports only
 * src/protocol/json, which imports nothing.
 */
import { isObject } from '../protocol/json';

/** The text of a frame. */
export interface FrameText {
  title: string;
  lines: readonly string[];
  footer: string;
}

/** A whole frame: the first post, after the webview (re)loads or asks for it, and whenever the sender is unsure. */
export interface FullRender {
  type: 'render';
  /** Echoed back in `ack`. */
  seq: number;
  /** Absent: a full frame. */
  base?: undefined;
  title: string;
  lines: string[];
  footer: string;
}

/** What changed since frame `base`: the new line count, the rows whose text differs, title and footer if changed. */
export interface DeltaRender {
  type: 'render';
  seq: number;
  /** The `seq` of the frame this applies to (the webview asks for a full frame when it does not hold that one). */
  base: number;
  /** The frame's line count (rows past it are removed). */
  length: number;
  /** `[index, text]` of each row (index < length) whose text is not the base frame's, in ascending order. */
  changed: [number, string][];
  title?: string;
  footer?: string;
}

export type RenderMessage = FullRender | DeltaRender;

/** What the webview holds: the newest frame it received, and its `seq`. */
export interface HeldFrame extends FrameText {
  seq: number;
  lines: string[];
}

/**
 * The message taking a webview that holds `held` (the last frame posted to it; undefined: unknown) to `next`, as
 * post `seq`. Unchanged rows are not sent; title and footer only when they changed.
 */
export function renderMessage(seq: number, held: { seq: number; frame: FrameText } | undefined, next: FrameText): RenderMessage {
  if (!held) return { type: 'render', seq, title: next.title, lines: [...next.lines], footer: next.footer };
  const before = held.frame.lines;
  const changed: [number, string][] = [];
  for (let i = 0; i < next.lines.length; i++) {
    const line = next.lines[i]!;
    if (i >= before.length || before[i] !== line) changed.push([i, line]);
  }
  const m: DeltaRender = { type: 'render', seq, base: held.seq, length: next.lines.length, changed };
  if (next.title !== held.frame.title) m.title = next.title;
  if (next.footer !== held.frame.footer) m.footer = next.footer;
  return m;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isOptionalString = (s: unknown): boolean => s === undefined || typeof s === 'string';

/** The webview's guard: a full or a delta render, nothing else (extension text is data, set with textContent). */
export function isRender(m: unknown): m is RenderMessage {
  if (!isObject(m)) return false;
  const r = m;
  if (r.type !== 'render' || !isCount(r.seq)) return false;
  if (r.base === undefined) {
    return typeof r.title === 'string' && typeof r.footer === 'string' && Array.isArray(r.lines) &&
      r.lines.every((l) => typeof l === 'string');
  }
  const { length } = r;
  return (
    isCount(r.base) && isCount(length) && r.lines === undefined && isOptionalString(r.title) &&
    isOptionalString(r.footer) && Array.isArray(r.changed) &&
    r.changed.every((c: unknown) => Array.isArray(c) && c.length === 2 && isCount(c[0]) && c[0] < length && typeof c[1] === 'string')
  );
}

/**
 * Applies a render to what the webview holds: the new frame, or undefined when a delta does not apply to it (a
 * different base, or rows it would leave unknown): then the webview asks for a full frame.
 */
export function applyRender(held: HeldFrame | undefined, m: RenderMessage): HeldFrame | undefined {
  if (m.base === undefined) return { seq: m.seq, title: m.title, lines: m.lines, footer: m.footer };
  if (!held || held.seq !== m.base || m.length > held.lines.length + m.changed.length) return undefined;
  const lines = held.lines.slice(0, m.length);
  for (const [i, text] of m.changed) lines[i] = text;
  for (let i = held.lines.length; i < m.length; i++) if (lines[i] === undefined) return undefined;
  return { seq: m.seq, title: m.title ?? held.title, lines, footer: m.footer ?? held.footer };
}
