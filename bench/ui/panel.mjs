// Rows 1 and 6 of `npm run bench:ui`: panel keystroke → painted row (vs the floor of VS Code's own webview messaging,
// a local echo of the same page and VS Code's integrated terminal, interleaved in blocks), and a 10,000-render
// storm's long tasks in the webview, attributed to our frame or to the workbench.
import path from 'node:path';
import { panelLines, PANEL_LINES, TERM_LINES } from './fixtures.mjs';
import { installPanelProbe, installTerminalProbe, runStormProbe } from './probes.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The content frame of the panel webview showing the uibench panel (all its rows painted); `floor`: the floor's. */
async function panelFrame(page, timeoutMs = 60_000, floor = false) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      try {
        if (await f.evaluate(({ n, floor: fl }) => document.querySelectorAll('#lines > .line').length >= n && (document.body.dataset.floor === '1') === fl, { n: PANEL_LINES, floor })) return f;
      } catch { /* detached or not ours */ }
    }
    if (Date.now() > end) throw new Error('the uibench panel webview did not show its 200 rows');
    await sleep(100);
  }
}

/** Opens the uibench panel (through `zut.command.uibench-panel`) and returns its frame with the probe installed. */
export async function openPanel(page, agent) {
  await agent.call(`const h = await zut(); await until(() => running(h, 'uibench')); await vscode.commands.executeCommand('zut.command.uibench-panel');`);
  const frame = await panelFrame(page);
  await frame.evaluate(installPanelProbe, { n: PANEL_LINES, linesSource: panelLines.toString() });
  return frame;
}

/**
 * Opens row 1's floor (a) beside our panel (bench/ui/agent's zutBench.floorPanel: a minimal webview whose keys the
 * extension host answers with a 200-line frame, no child, no zut host) and installs the same probe in it.
 */
export async function openFloor(page, agent) {
  await agent.call(`await vscode.commands.executeCommand('zutBench.floorPanel');`);
  const frame = await panelFrame(page, 60_000, true);
  await frame.evaluate(installPanelProbe, { n: PANEL_LINES, linesSource: panelLines.toString() });
  return frame;
}

/** Opens the terminal baseline (termsel.js in a terminal) and installs its probe. */
async function openTerminal(page, agent, folder) {
  await agent.call(`const t = vscode.window.createTerminal({ name: 'termsel', shellPath: process.execPath, shellArgs: [args.file] }); t.show(false);`,
    { file: path.join(folder, 'termsel.js') });
  await page.locator('.xterm-rows', { hasText: '▸ item 000' }).first().waitFor({ timeout: 60_000 });
  await page.evaluate(installTerminalProbe, { n: TERM_LINES });
}

/** Presses `key` in the focused target and waits for the probe's result; returns it. */
async function pressTimed(page, target, key) {
  const count = () => target.evaluate(() => (window.__zb ?? window.__zt).results.length);
  const n0 = await count();
  await page.keyboard.press(key);
  await target.waitForFunction((n) => (window.__zb ?? window.__zt).results.length > n, n0, { timeout: 15_000 });
  return target.evaluate(() => (window.__zb ?? window.__zt).results.at(-1));
}

/**
 * Row 1: `blocks` rounds of four blocks (our panel, the floor webview, the local echo, the terminal; order
 * rotating), `perBlock` ↓ keys each, spaced 30–70 ms apart, every block starting from Home (untimed). Returns the
 * samples per side, each tagged with its block. Call again with `from` to add blocks (the noise repeat).
 */
export async function measureKeystrokes(page, agent, frame, floorFrame, folder, { blocks, perBlock, from = 0, out = { ext: [], floor: [], echo: [], term: [] } }) {
  if (from === 0) await openTerminal(page, agent, folder);
  const focusPanel = async (f) => { await f.locator('#lines').click({ position: { x: 5, y: 5 } }); };
  const focusTerm = async () => { await page.locator('.terminal-wrapper.active .xterm-screen, .xterm-screen').first().click(); };
  const sides = ['ext', 'floor', 'echo', 'term'];
  for (let b = from; b < from + blocks; b++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(b + k) % sides.length];
      const target = side === 'term' ? page : side === 'floor' ? floorFrame : frame;
      if (side === 'term') {
        await focusTerm();
        await pressTimed(page, page, 'Home');
      } else if (side === 'floor') {
        await focusPanel(floorFrame);
        await pressTimed(page, floorFrame, 'Home');
      } else {
        await focusPanel(frame);
        await frame.evaluate(() => { window.__zb.mode = 'ext'; });
        await pressTimed(page, frame, 'Home');   // the extension and the page agree on row 0
        await frame.evaluate((m) => { window.__zb.mode = m; }, side);
      }
      for (let i = 0; i < perBlock; i++) {
        await sleep(30 + Math.random() * 40);
        out[side].push({ ...(await pressTimed(page, target, 'ArrowDown')), block: b });
      }
    }
  }
  await frame.evaluate(() => { window.__zb.mode = 'ext'; });
  return out;
}

/** Where the time of one of our keystrokes went (ms), from the page's and the child's clocks (epoch). */
export function hops(r) {
  const [, recv, sent] = /^t ([\d.]+) ([\d.]+)$/.exec(r.footer ?? '') ?? [];
  const msgEpoch = r.e0 + (r.tMsg - r.t0);
  return {
    toChild: Number(recv) - r.e0,          // webview → extension host → child stdin
    inChild: Number(sent) - Number(recv),   // the extension's own work
    back: msgEpoch - Number(sent),          // child stdout → extension host → webview message
    toPaint: r.tDom - r.tMsg,               // message → rows updated (our paint, in the message task)
    toFrame: r.tFrame - r.tDom,             // → the next animation frame
    toPresent: r.tPresent - r.tDom,         // → the frame presenting it (0 when painted inside an animation frame)
  };
}

/** Row 6: one storm (10,000 renders in a burst) while the webview's probe watches. */
export async function measureStorm(frame, agent) {
  const probe = frame.evaluate(runStormProbe, { timeoutMs: 120_000 });
  await sleep(100);
  const t0 = Date.now();
  await agent.call(`await vscode.commands.executeCommand('zut.command.uibench-storm');`);
  const r = await probe;
  return { ...r, commandMs: Date.now() - t0 };
}
