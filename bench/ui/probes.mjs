// In-page probes of `npm run bench:ui`, evaluated by Playwright inside the panel's webview frame or the workbench
// page. Every time is the page's own performance.now() (ms); `epoch` adds performance.timeOrigin, comparable with
// the extension host's and the child's `performance.timeOrigin + performance.now()` on the same machine.

/**
 * Panel keystroke probe (row 1), in the webview's content frame. On ↓ it stamps keydown; a MutationObserver on the
 * rows sees the expected row become the selected one (the DOM shows it), then the next animation frame is stamped.
 * A capture listener on `message` stamps the render's arrival and keeps its footer (the child's receive/send times).
 * Mode `echo` is the local echo baseline: the same page paints the same frame by itself — the keydown does not go
 * to the panel script; a render message with the locally computed frame is dispatched to the page's own handler.
 */
export function installPanelProbe({ n, linesSource }) {
  if (window.__zb) return;
  const arrival = (e) => (e.timeStamp > 0 ? Math.min(e.timeStamp, performance.now()) : performance.now());
  const panelLines = new Function(`return (${linesSource})`)();
  const lines = document.getElementById('lines');
  const zb = { mode: 'ext', results: [], cur: null, storm: null, inRaf: false };
  window.__zb = zb;
  // A change made inside an animation-frame callback (zut's panel paints there when two frames arrive within one) is
  // presented in that same frame, while a requestAnimationFrame asked for from there runs a frame later: the page's
  // rAF is wrapped to know that a change happened inside one (the observer's microtask runs before the wrapper's
  // clearing one).
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((t) => {
    zb.inRaf = true;
    try { cb(t); } finally { queueMicrotask(() => { zb.inRaf = false; }); }
  });
  const selected = () => [...lines.children].findIndex((r) => r.classList.contains('selected'));
  // The event's own timeStamp (its creation, when the message task starts): listeners on window run in the order
  // they were added, so the panel script's (added first) has already run, and painted, when this one runs.
  window.addEventListener('message', (e) => {
    const c = zb.cur;
    if (c && c.tMsg === undefined && e.data && e.data.type === 'render') { c.tMsg = arrival(e); c.footer = e.data.footer; }
  }, true);
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'Home') return;
    const from = selected();
    const want = e.key === 'Home' ? 0 : (from + 1) % n;
    zb.cur = { key: e.key, t0: performance.now(), e0: performance.timeOrigin + performance.now(), want, mode: zb.mode };
    if (zb.mode !== 'echo') return;
    e.stopImmediatePropagation();
    e.preventDefault();
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'render', seq: 0, title: 'uibench', lines: panelLines(want, n), footer: 'local echo' } }));
  }, true);
  const mo = new MutationObserver(() => {
    const c = zb.cur;
    if (!c || c.tDom !== undefined) return;
    const row = lines.children[c.want];
    if (!row || !row.classList.contains('selected')) return;
    c.tDom = performance.now();
    c.inRaf = zb.inRaf;
    // tPresent: the frame that shows the change — this one if it was made in an animation-frame callback, else the
    // next (tFrame: the next requestAnimationFrame after the change, whichever; the figure before this correction).
    raf(() => { c.tFrame = performance.now(); c.tPresent = c.inRaf ? c.tDom : c.tFrame; zb.results.push(c); zb.cur = null; });
  });
  mo.observe(lines, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'] });
  // Every paint sets body[data-seq]: a frame that changes no row (Home on row 0) is seen too.
  mo.observe(document.body, { attributes: true, attributeFilter: ['data-seq'] });
}

/**
 * Panel storm probe (row 6), in the webview's content frame: counts painted frames (body data-seq changes) and
 * animation frames, the longest gap between animation frames, and every long task (PerformanceObserver 'longtask')
 * until the footer says `storm done`. The profile of what our frame does: how long our panel script's render
 * message handler ran each time (from the message event's creation to a listener added after it; ZUT_BENCH_TRACE in
 * bench/ui/run.mjs records a chromium trace for more). Resolves with the figures.
 */
export function runStormProbe({ timeoutMs }) {
  return new Promise((resolve) => {
    const footer = document.getElementById('footer');
    const r = { longtasks: [], ours: [], theirs: [], paints: 0, frames: 0, maxFrameGap: 0, start: performance.now(), firstMsg: undefined, done: undefined, supported: PerformanceObserver.supportedEntryTypes.includes('longtask') };
    const po = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        r.longtasks.push(e.duration);
        // By the script that ran: 'self' = this frame's code (our panel script); any other name is another frame of
        // the same event loop (the workbench page, or VS Code's webview host frame around ours): not ours.
        (e.name === 'self' ? r.ours : r.theirs).push(e.duration);
        const c = e.attribution?.[0];
        const where = c ? [c.containerType, c.containerName || c.containerId, c.containerSrc ? c.containerSrc.replace(/^.*\/(?=[^/]+$)/, '') : ''].filter(Boolean).join(' ') : '';
        (r.attribution ??= []).push(`${Math.round(e.duration)} ms ${e.name === 'self' ? 'OURS (self)' : `VS Code's (${e.name})`}${where ? ` [${where}]` : ''}`);
      }
    });
    if (r.supported) po.observe({ type: 'longtask' });
    r.handler = [];
    let msgAt;
    // From the event's creation (the message task's start): the panel script's listener, added first, runs before
    // this probe's (window runs its listeners in the order they were added).
    const onMsg = (e) => { r.firstMsg ??= performance.now(); msgAt = e.timeStamp > 0 ? Math.min(e.timeStamp, performance.now()) : performance.now(); };
    const afterMsg = () => { if (msgAt !== undefined) r.handler.push(performance.now() - msgAt); msgAt = undefined; };
    window.addEventListener('message', onMsg, true);
    window.addEventListener('message', afterMsg);
    const mo = new MutationObserver(() => {
      r.paints++;
      if (footer.textContent === 'storm done') finish();
    });
    mo.observe(document.body, { attributes: true, attributeFilter: ['data-seq'] });
    let last = performance.now();
    let raf = requestAnimationFrame(function tick(t) {
      r.frames++;
      r.maxFrameGap = Math.max(r.maxFrameGap, t - last);
      last = t;
      raf = requestAnimationFrame(tick);
    });
    const timer = setTimeout(finish, timeoutMs);
    function finish() {
      if (r.done !== undefined) return;
      r.done = performance.now();
      clearTimeout(timer);
      // One more frame so a long task ending with the last paint is reported.
      requestAnimationFrame(() => setTimeout(() => {
        cancelAnimationFrame(raf);
        po.disconnect();
        mo.disconnect();
        window.removeEventListener('message', onMsg, true);
        window.removeEventListener('message', afterMsg);
        resolve({ ...r, timedOut: footer.textContent !== 'storm done' });
      }, 60));
    }
  });
}

/**
 * Terminal probe (row 1's baseline b), in the workbench page: keydown in a terminal (capture) → the DOM renderer's
 * rows show `▸ item <next>` → next animation frame.
 */
export function installTerminalProbe({ n }) {
  if (window.__zt) return;
  const zt = { results: [], cur: null };
  window.__zt = zt;
  const rows = () => document.querySelector('.terminal-wrapper.active .xterm-rows') ?? document.querySelector('.xterm-rows');
  const selected = () => {
    const r = rows();
    if (!r) return -1;
    for (const row of r.children) { const m = /▸ item (\d+)/.exec(row.textContent ?? ''); if (m) return Number(m[1]); }
    return -1;
  };
  const check = () => {
    const c = zt.cur;
    if (!c || c.tDom !== undefined) return;
    if (selected() !== c.want) return;
    c.tDom = performance.now();
    requestAnimationFrame(() => { c.tFrame = performance.now(); zt.results.push(c); zt.cur = null; });
  };
  document.addEventListener('keydown', (e) => {
    if (!(e.target instanceof Element) || !e.target.closest('.xterm')) return;
    if (e.key !== 'ArrowDown' && e.key !== 'Home') return;
    const from = selected();
    zt.cur = { key: e.key, t0: performance.now(), want: e.key === 'Home' ? 0 : (from + 1) % n };
  }, true);
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
}

/**
 * Window probe (row 3), an init script of the workbench page: the time (page clock) when the Zut Extensions view
 * first shows `count` rows whose description starts with "running".
 */
export function installWindowProbe({ count, prefix }) {
  const zw = { runningAt: undefined, max: 0 };
  window.__zw = zw;
  const scan = () => {
    if (zw.runningAt !== undefined) return;
    const view = document.querySelector('[id="workbench.view.extension.zut"]');
    if (!view) return;
    let k = 0;
    for (const row of view.querySelectorAll('.monaco-list-row')) {
      const label = row.querySelector('.label-name')?.textContent ?? '';
      const desc = row.querySelector('.label-description')?.textContent ?? '';
      if (label.startsWith(prefix) && desc.startsWith('running')) k++;
    }
    zw.max = Math.max(zw.max, k);
    if (k >= count) zw.runningAt = performance.now();
  };
  const start = () => new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
}
