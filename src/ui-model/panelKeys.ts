/**
 * Panel keyboard and row conventions shared by the webview script (media/panel.ts, browser bundle) and the
 * extension side. Imports nothing at runtime so both bundles (and vitest) can use it.
 */
import type { PanelKeyName } from '../protocol/frames';

/** The parts of a DOM `KeyboardEvent` the mapping looks at. */
export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
  isComposing?: boolean;
}

/** A key in the spec's normalized form (`text` only for `rune`). */
export interface PanelKey {
  key: PanelKeyName;
  text?: string;
}

/** DOM `KeyboardEvent.key` names → the spec's `panel_key` names. */
const NAMED_KEYS: Readonly<Record<string, PanelKeyName>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  Enter: 'enter',
  Escape: 'esc',
  Tab: 'tab',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Home: 'home',
  End: 'end',
  Backspace: 'backspace',
  Delete: 'delete',
};

/**
 * Maps a DOM key event to a `panel_key`, or undefined when the panel should not see it (modifier shortcuts such as
 * Ctrl+C / Cmd+P stay with VS Code, IME composition and dead keys are ignored). A printable character becomes
 * `rune` with the character as `text`. AltGr (reported as Ctrl+Alt on Windows) still types characters.
 */
export function mapPanelKey(e: KeyLike): PanelKey | undefined {
  if (e.isComposing) return undefined;
  const altGr = e.ctrlKey === true && e.altKey === true;
  if (e.metaKey || (e.ctrlKey && !altGr)) return undefined;
  const named = NAMED_KEYS[e.key];
  if (named) return { key: named };
  // One code point (astral characters are two UTF-16 units) and not a control character.
  if ([...e.key].length === 1) {
    const cp = e.key.codePointAt(0) ?? 0;
    if (cp >= 0x20 && cp !== 0x7f) return { key: 'rune', text: e.key };
  }
  return undefined;
}

/** Row markers zut panels use for the selected line (`▸ `, `● `, or a leading zero-width space). */
const SELECTED_MARKERS = ['▸ ', '● ', '\u200b'] as const;

/** Whether a line is the selected row (it starts with one of zut's selection markers). */
export function isSelectedLine(line: string): boolean {
  return SELECTED_MARKERS.some((m) => line.startsWith(m));
}

/** What a screen reader says for a row: its text without the selection marker and surrounding blanks. */
export function rowSpeech(line: string): string {
  const marker = SELECTED_MARKERS.find((m) => line.startsWith(m));
  return (marker ? line.slice(marker.length) : line).trim();
}

/**
 * The key that switches Tab between "goes to the extension" (default, a `tab` panel key) and "moves focus out of
 * the panel": Ctrl+M, as VS Code's editor does (Cmd+M on macOS minimises the window, so Ctrl+M there too).
 */
export function isTabFocusToggle(e: KeyLike & { shiftKey?: boolean }): boolean {
  return e.ctrlKey === true && !e.altKey && !e.metaKey && !e.shiftKey && e.key.toLowerCase() === 'm';
}

/** What one paint changes in the webview: the rows whose text differs from what is shown, and the selected row. */
export interface PaintPlan {
  /** Indices (ascending) of rows of `next` whose text is not the one shown (new rows included). */
  changed: number[];
  /** The first marked row of `next` (the one selected row), or -1. */
  selected: number;
}

/**
 * Plans a paint of `next` over the rows `shown`: only the rows whose text changed are written, and only the rows
 * whose selection changed are touched (a move in a 200-line panel costs two row updates, not 200).
 */
export function planPaint(shown: readonly string[], next: readonly string[]): PaintPlan {
  const changed: number[] = [];
  let selected = -1;
  for (let i = 0; i < next.length; i++) {
    const line = next[i]!;
    if (shown[i] !== line) changed.push(i);
    if (selected < 0 && isSelectedLine(line)) selected = i;
  }
  return { changed, selected };
}
