// Webview script for zut extension panels (browser bundle). Shows the frames the extension host posts — as text
// only (`textContent`, never `innerHTML`) — sends normalized keys and the panel size in monospace cells back, and
// acknowledges each frame so the extension side can coalesce render storms.
import { isSelectedLine, mapPanelKey, type RenderMessage } from '../src/vscode/panelKeys';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('panel') as HTMLElement;
const titleEl = document.getElementById('title') as HTMLElement;
const linesEl = document.getElementById('lines') as HTMLElement;
const footerEl = document.getElementById('footer') as HTMLElement;
const measureEl = document.getElementById('measure') as HTMLElement;

let pending: RenderMessage | undefined;
let frameRequested = false;

function isRender(m: unknown): m is RenderMessage {
  const r = m as Partial<RenderMessage> | null;
  return (
    typeof r === 'object' && r !== null && r.type === 'render' && typeof r.seq === 'number' &&
    typeof r.title === 'string' && typeof r.footer === 'string' && Array.isArray(r.lines) &&
    r.lines.every((l) => typeof l === 'string')
  );
}

function paint(m: RenderMessage): void {
  titleEl.textContent = m.title;
  titleEl.hidden = m.title === '';
  footerEl.textContent = m.footer;
  footerEl.hidden = m.footer === '';
  // Reuse row elements: a render storm then costs text updates, not DOM churn.
  while (linesEl.childElementCount > m.lines.length) linesEl.lastElementChild?.remove();
  while (linesEl.childElementCount < m.lines.length) {
    const row = document.createElement('div');
    row.className = 'line';
    row.setAttribute('role', 'listitem');
    linesEl.appendChild(row);
  }
  let selected: HTMLElement | undefined;
  m.lines.forEach((line, i) => {
    const row = linesEl.children[i] as HTMLElement;
    if (row.textContent !== line) row.textContent = line;
    const isSel = isSelectedLine(line);
    row.classList.toggle('selected', isSel);
    if (isSel) {
      row.setAttribute('aria-current', 'true');
      selected ??= row;
    } else row.removeAttribute('aria-current');
  });
  selected?.scrollIntoView({ block: 'nearest' });
  document.body.dataset.seq = String(m.seq);
  scheduleResize();
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (!isRender(e.data)) return;
  // Ack on receipt (not on paint): a hidden webview may not get animation frames, and the host must not stall.
  vscode.postMessage({ type: 'ack', seq: e.data.seq });
  pending = e.data;
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    if (pending) paint(pending);
    pending = undefined;
  });
});

// On window, not on #panel: after VS Code focuses the webview, the document body may hold focus.
window.addEventListener('keydown', (e) => {
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
root.focus();
vscode.postMessage({ type: 'ready' });
