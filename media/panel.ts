// Webview script for zut extension panels (browser bundle). Shows the frames the extension host posts — as text
// only (`textContent`, never `innerHTML`) — sends normalized keys and the panel size in monospace cells back, and
// acknowledges each frame so the extension side can coalesce render storms. A frame comes whole or as what changed
// since the previous one (src/ui-model/panelRender.ts): each is applied on receipt to the frame held here; one
// that does not apply makes the webview ask for the whole frame (`resync`).
//
// Accessibility: the title is the page's level-one heading and document title, everything sits in the <main>
// landmark (axe-core: 0 violations, test/vscode/ui/surfaces.test.mjs); the lines are a listbox (labelled by the
// title) whose selected row is its aria-activedescendant, so a screen reader reads the row the user moved to, not
// the whole panel on each render; a row that changes in place (same selection, new text) is said through a polite
// status region. Ctrl+M switches Tab between "a key for the extension" and "move focus out of the panel"
// (remembered while the panel lives, across hide/show).
import { isTabFocusToggle, mapPanelKey, planPaint, rowSpeech } from '../src/ui-model/panelKeys';
import { applyRender, isRender, type HeldFrame } from '../src/ui-model/panelRender';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const titleEl = document.getElementById('title') as HTMLElement;
const linesEl = document.getElementById('lines') as HTMLElement;
const footerEl = document.getElementById('footer') as HTMLElement;
const measureEl = document.getElementById('measure') as HTMLElement;
const announceEl = document.getElementById('announce') as HTMLElement;
const tabModeEl = document.getElementById('tabmode') as HTMLElement;

/** Tab moves focus out of the panel (Ctrl+M) instead of going to the extension. */
let tabMovesFocus = (vscode.getState() as { tabMovesFocus?: unknown } | undefined)?.tabMovesFocus === true;
/** The selected row last painted: its element id and text (to tell a move from an in-place change). */
let lastSelected: { id: string; text: string } | undefined;

function showTabMode(): void {
  tabModeEl.hidden = !tabMovesFocus;
  document.body.dataset.tabMovesFocus = String(tabMovesFocus);
}

/** The newest frame received (every render is applied to it on receipt), and the one last painted. */
let held: HeldFrame | undefined;
let painted: HeldFrame | undefined;
/** A paint happened since the last animation frame began: a newer frame waits for the next one. */
let paintedThisFrame = false;

/** What an untitled panel is called: its heading, document title and listbox label (as in the page's HTML). */
const UNTITLED = 'zut panel';
/** The title last painted (undefined: none yet, the page's HTML shows UNTITLED). */
let shownTitle: string | undefined;

/** The row texts as painted, and the selected row's index (-1: none). */
const shown: string[] = [];
let shownSelected = -1;

function paint(m: HeldFrame): void {
  painted = m;
  if (shownTitle !== m.title) {
    shownTitle = m.title;
    // An untitled panel still has its level-one heading (and the document its title): "zut panel", visually hidden.
    const name = m.title === '' ? UNTITLED : m.title;
    titleEl.textContent = name;
    titleEl.classList.toggle('visually-hidden', m.title === '');
    linesEl.setAttribute('aria-label', name);
    document.title = name;
  }
  if (footerEl.textContent !== m.footer) {
    footerEl.textContent = m.footer;
    footerEl.hidden = m.footer === '';
  }
  // Reuse row elements and touch only what changed: a keystroke in a long panel costs the rows that differ (and
  // the two rows whose selection changed), a render storm costs text updates, not DOM churn or a layout per row.
  const plan = planPaint(shown, m.lines);
  while (linesEl.childElementCount > m.lines.length) linesEl.lastElementChild?.remove();
  while (linesEl.childElementCount < m.lines.length) {
    const row = document.createElement('div');
    row.className = 'line';
    row.id = `row-${linesEl.childElementCount}`;
    row.setAttribute('role', 'option');
    row.setAttribute('aria-selected', 'false');
    linesEl.appendChild(row);
  }
  shown.length = Math.min(shown.length, m.lines.length);
  if (shownSelected >= m.lines.length) shownSelected = -1;
  for (const i of plan.changed) {
    const row = linesEl.children[i] as HTMLElement;
    const line = m.lines[i]!;
    row.textContent = line;
    row.setAttribute('aria-label', rowSpeech(line) || 'blank');
    shown[i] = line;
  }
  const moved = plan.selected !== shownSelected;
  if (moved) {
    const setSelected = (i: number, on: boolean): void => {
      const row = linesEl.children[i] as HTMLElement | undefined;
      row?.classList.toggle('selected', on);
      row?.setAttribute('aria-selected', String(on));
    };
    if (shownSelected >= 0) setSelected(shownSelected, false);
    if (plan.selected >= 0) setSelected(plan.selected, true);
    shownSelected = plan.selected;
  }
  const selected = plan.selected >= 0 ? (linesEl.children[plan.selected] as HTMLElement) : undefined;
  if (selected) {
    if (linesEl.getAttribute('aria-activedescendant') !== selected.id) linesEl.setAttribute('aria-activedescendant', selected.id);
    // Scrolling forces a layout: only when the selection moved (or the panel was just filled).
    if (moved || plan.changed.length === m.lines.length) selected.scrollIntoView({ block: 'nearest' });
    const now = { id: selected.id, text: rowSpeech(m.lines[plan.selected]!) };
    // A move is read through aria-activedescendant; the same row with new text (a toggle) through the status region.
    if (lastSelected && lastSelected.id === now.id && lastSelected.text !== now.text) announceEl.textContent = now.text;
    lastSelected = now;
  } else {
    linesEl.removeAttribute('aria-activedescendant');
    lastSelected = undefined;
  }
  document.body.dataset.seq = String(m.seq);
  scheduleResize();
}

/**
 * Paints the newest frame now, in the message's task, so it is on screen in the next frame (the extension side
 * posts at most one frame per frame interval and one un-acked). Should more arrive within one animation frame
 * (a local echo, a resync), the newest of them is painted at the next animation frame instead.
 */
function show(): void {
  if (paintedThisFrame || !held || held === painted) return;
  paint(held);
  paintedThisFrame = true;
  requestAnimationFrame(() => {
    paintedThisFrame = false;
    show();
  });
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (!isRender(e.data)) return;
  const next = applyRender(held, e.data);
  if (!next) {
    // A delta against a frame this page does not hold (it reloaded, or a post was lost): ask for the whole frame.
    vscode.postMessage({ type: 'resync' });
    return;
  }
  // Ack on receipt (not on paint): a hidden webview may not get animation frames, and the host must not stall.
  vscode.postMessage({ type: 'ack', seq: e.data.seq });
  held = next;
  show();
});

// On window, not on #panel: after VS Code focuses the webview, the document body may hold focus.
window.addEventListener('keydown', (e) => {
  if (isTabFocusToggle(e)) {
    e.preventDefault();
    tabMovesFocus = !tabMovesFocus;
    vscode.setState({ tabMovesFocus });
    showTabMode();
    announceEl.textContent = tabMovesFocus ? 'Tab moves focus' : 'Tab goes to the panel';
    return;
  }
  // Tab (and Shift+Tab) left to the browser: focus moves out of the panel.
  if (tabMovesFocus && e.key === 'Tab') return;
  const k = mapPanelKey(e);
  if (!k) return;
  e.preventDefault();
  e.stopPropagation();
  vscode.postMessage({ type: 'key', ...k });
});

// ---------------------------------------------------------------- size in monospace cells

let lastSize = '';
let resizeTimer: ReturnType<typeof setTimeout> | undefined;

function measure(): void {
  const cell = measureEl.getBoundingClientRect();
  const cellWidth = cell.width / 10;
  const cellHeight = cell.height;
  if (!(cellWidth > 0 && cellHeight > 0)) return;
  const columns = Math.max(1, Math.floor(linesEl.clientWidth / cellWidth));
  const rows = Math.max(1, Math.floor(linesEl.clientHeight / cellHeight));
  const size = `${columns}x${rows}`;
  if (size === lastSize) return;
  lastSize = size;
  vscode.postMessage({ type: 'resize', columns, rows });
}

function scheduleResize(): void {
  if (resizeTimer !== undefined) clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    resizeTimer = undefined;
    measure();
  }, 100);
}

new ResizeObserver(scheduleResize).observe(document.body);
showTabMode();
linesEl.focus();
vscode.postMessage({ type: 'ready' });
