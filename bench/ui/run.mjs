#!/usr/bin/env node
// `npm run bench:ui [-- --quick] [-- --only panel,storm,save,chat,window] [-- --keep] [-- --json FILE]`: latency as a person feels
// it, measured in a real VS Code (code-server 4.139.1 + Playwright + Debian chromium, as test/vscode/run.mjs runs
// it), printed as `npm run bench`'s table (bench/stats.ts): median [p25–p75], the floor VS Code itself allows
// measured in the same run (interleaved in blocks), goal, PASS/MISS, and the machine's load while the row ran. A
// row whose ratio's p25–p75 spans more than ±0.15 (±0.1 for the chat round) is measured again, up to a budget, and
// says so. Not part of `npm test`. Artifacts (server logs, page logs, bench-ui.json) in .test-runs/<stamp>/.
// Rows: 1 panel keystroke → painted row (vs a minimal webview's round trip through the extension host; local echo
// and integrated terminal as info), 2 save → new behaviour (vs the same edit saved in a copy + a restart at its save
// event), 3 window → every extension ready (vs a window whose bench agent spawns the same programs as it starts),
// activate() (vs a hello-world extension's, by VS Code's own figure), 4 @zut tool round (vs @benchmin offering the
// same tools; with one tool as info), 5 extension-host memory, 6 panel storm (long tasks of our frame only).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { installVsix, killAllServersSync } from '../../test/vscode/lib/codeServer.mjs';
import { ensureRunDirs, FIXTURES, fixtureVsix, REPO, removeTemp, tempDir, tools, vsix } from '../../test/vscode/lib/context.mjs';
import { AgentClient } from './agent.mjs';
import { handshake, PANEL_LINES, STORM_FRAMES, writeFloorAtStart, writeWorkspace } from './fixtures.mjs';
import { installWindowProbe } from './probes.mjs';
import { measureKeystrokes, measureStorm, openFloor, openPanel, hops } from './panel.mjs';
import { MODEL_THINK_MS, measureChat, measureSave } from './inhost.mjs';
import { bareWindowTrial, hostRss, zutWindowTrial } from './window.mjs';

const { values: opts } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, keep: { type: 'boolean', default: false }, json: { type: 'string' } } });
if (opts.keep) process.env.ZUT_VSCODE_KEEP = '1';
const only = opts.only ? new Set(opts.only.split(',')) : undefined;
const want = (name) => !only || only.has(name);
const Q = opts.quick;
const log = (s) => process.stderr.write(`${s}\n`);
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.on(sig, () => { killAllServersSync(); removeTemp(); process.exit(code); });

/** bench/stats.ts (TypeScript) as an ES module Node can import. */
async function loadStats() {
  const out = path.join(tempDir('bench-ui-stats'), 'stats.mjs');
  await esbuild.build({ entryPoints: [path.join(REPO, 'bench', 'stats.ts')], outfile: out, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
  return import(pathToFileURL(out).href);
}

const { runDir } = ensureRunDirs();
const S = await loadStats();
const { summarize, table, fmt, tooWide } = S;
const q = (xs, p) => S.quantile([...xs].sort((a, b) => a - b), p);
/** Ratio of two independent samples, quantile by quantile: the medians' ratio, [the p25s' and the p75s' ratios]. */
const qRatio = (a, b) => {
  const lo = q(a, 0.25) / q(b, 0.25);
  const hi = q(a, 0.75) / q(b, 0.75);
  return { ...summarize([1]), median: q(a, 0.5) / q(b, 0.5), p25: Math.min(lo, hi), p75: Math.max(lo, hi), n: a.length };
};
const rows = [];
const load = () => os.loadavg()[0];
/** Adds a row with the load at its start (`l0`) and now. */
const push = (l0, row) => rows.push({ ...row, load: [l0, load()] });
const failures = [];
const raw = {};

const t0 = Date.now();
log(`bench:ui: run dir ${path.relative(process.cwd(), runDir)}; building and packaging…`);
vsix();
const tl = await tools();
const harness = await import('../../test/vscode/ui/harness.mjs');
const agentVsix = fixtureVsix(path.join(REPO, 'bench', 'ui', 'agent'));
const helloVsix = fixtureVsix(path.join(REPO, 'bench', 'ui', 'hello'));
const modelVsix = fixtureVsix(path.join(FIXTURES, 'scripted-model'));
const sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zb-'));
const sockA = path.join(sockDir, 'a.sock');
const sockB = path.join(sockDir, 'b.sock');
const MIX = 20;
const settings = { 'terminal.integrated.gpuAcceleration': 'off', 'chat.commandCenter.enabled': false };

async function open(server, folder, socket) {
  fs.rmSync(socket, { force: true });
  const page = await harness.openWorkbench(server, { folder, beforeGoto: (p) => p.addInitScript(installWindowProbe, { count: MIX, prefix: 'mix-' }) });
  return { page, agent: await AgentClient.connect(socket) };
}

try {
  const serverA = await harness.startServer({ name: 'bench-ui', settings,
    env: { ZUT_BENCH_AGENT_SOCKET: sockA, ZUT_BENCH_MARKS: '1', ZUT_BENCH_WATCH_PREFIX: 'mix-', ZUT_BENCH_WATCH_COMMAND: 'mix-node-02-hi', ...(process.env.ZUT_BENCH_PROFILE_DIR && { ZUT_BENCH_PROFILE_DIR: path.resolve(process.env.ZUT_BENCH_PROFILE_DIR) }) } });
  installVsix(tl, serverA, agentVsix);
  installVsix(tl, serverA, modelVsix);
  installVsix(tl, serverA, helloVsix);
  const w1 = tempDir('bench-ui-panel');
  writeWorkspace(w1, { uibench: true });
  let { page, agent } = await open(serverA, w1, sockA);
  log(`  window up (${((Date.now() - t0) / 1000).toFixed(0)} s)`);

  try {
    if (want('panel') || want('storm')) {
      const frame = await openPanel(page, agent);
      if (want('panel')) {
        log('  row 1: keystrokes…');
        const l0 = load();
        const floorFrame = await openFloor(page, agent);
        const perBlock = Q ? 5 : 12;
        let blocks = Q ? 2 : 4;
        const k = await measureKeystrokes(page, agent, frame, floorFrame, w1, { blocks, perBlock });
        const f = (xs, key) => xs.map((r) => r[key] - r.t0);
        // Per block: our median over the floor's median in the same round of blocks (the noise of that minute hits
        // both); the row's ratio is the spread of those.
        const blockRatios = () => {
          const out = [];
          for (let b = 0; b < blocks; b++) {
            const a = f(k.ext.filter((r) => r.block === b), 'tPresent');
            const c = f(k.floor.filter((r) => r.block === b), 'tPresent');
            if (a.length && c.length) out.push(q(a, 0.5) / q(c, 0.5));
          }
          return summarize(out);
        };
        let repeats = 0;
        while (!Q && tooWide(blockRatios()) && blocks < 10) {
          log(`    ratio p25–p75 ${fmt(blockRatios().p25)}–${fmt(blockRatios().p75)} is wider than ±0.15: two more blocks`);
          await measureKeystrokes(page, agent, frame, floorFrame, w1, { blocks: 2, perBlock, from: blocks, out: k });
          blocks += 2;
          repeats++;
        }
        raw.keystrokes = k;
        // keydown → the frame that presents the change (probes.mjs: tPresent); the terminal's probe (workbench page)
        // has only the next-frame mark.
        const ext = f(k.ext, 'tPresent');
        const floor = f(k.floor, 'tPresent');
        const echo = f(k.echo, 'tPresent');
        const term = f(k.term, 'tFrame');
        const p50 = q(ext, 0.5) / q(floor, 0.5);
        const p95 = q(ext, 0.95) / q(floor, 0.95);
        const br = blockRatios();
        const h = k.ext.map(hops);
        const hf = k.floor.map(hops);
        const hop = (hs, key) => `${fmt(q(hs.map((x) => x[key]), 0.5))}`;
        const noise = repeats ? `; measured again ${repeats}× (two blocks each) because the ratio's p25–p75 spanned more than ±0.15${tooWide(br) ? ', and it still does: the load decides this row' : ''}` : '';
        push(l0, { id: 'ui-keystroke', figure: `Panel keystroke → painted row (${PANEL_LINES}-line panel, keydown → the frame presenting it)`, ours: summarize(ext),
          baseline: summarize(floor), baselineName: 'floor: a minimal webview, key → extension host → 200-line frame back', unit: 'ms', ratio: br,
          goal: 'p50 ≤ 1.15×, p95 ≤ 1.3×', pass: p50 <= 1.15 && p95 <= 1.3,
          notes: [`p50 ${p50.toFixed(2)}×, p95 ${p95.toFixed(2)}× the floor (p95 ${fmt(q(ext, 0.95))} vs ${fmt(q(floor, 0.95))} ms); ratio column: per block of ${perBlock} keys, ours/floor medians, ${blocks} blocks interleaved${noise}`,
            `keydown → DOM: ours ${fmtS(f(k.ext, 'tDom'))}, floor ${fmtS(f(k.floor, 'tDom'))} ms; keydown → the next requestAnimationFrame after the DOM change (the figure before issue 28; a frame late for a change made inside an animation frame): ours ${fmtS(f(k.ext, 'tFrame'))}, floor ${fmtS(f(k.floor, 'tFrame'))} ms (${fmt(q(f(k.ext, 'tFrame'), 0.5) / q(f(k.floor, 'tFrame'), 0.5))}×)`,
            `where the time goes (median ms), ours | floor: webview → extension host (→ child) ${hop(h, 'toChild')} | ${hop(hf, 'toChild')}, in the child ${hop(h, 'inChild')} | in the extension host ${hop(hf, 'inChild')}, (child →) extension host → webview message ${hop(h, 'back')} | ${hop(hf, 'back')}, message → rows updated ${hop(h, 'toPaint')} | ${hop(hf, 'toPaint')}, → the frame presenting it ${hop(h, 'toPresent')} | ${hop(hf, 'toPresent')} (next requestAnimationFrame ${hop(h, 'toFrame')} | ${hop(hf, 'toFrame')})`] });
        push(l0, { id: 'ui-keystroke-echo', figure: 'Panel keystroke vs a local echo of the same page (the physical limit, no round trip)', ours: summarize(ext),
          baseline: summarize(echo), baselineName: 'local echo, same page', unit: 'ms', ratio: qRatio(ext, echo), goal: 'info', pass: true,
          notes: [`echo keydown → DOM ${fmtS(f(k.echo, 'tDom'))} ms; the floor is ${fmt(q(floor, 0.5) / q(echo, 0.5))}× the echo: what any round trip through the extension host costs here`] });
        push(l0, { id: 'ui-keystroke-term', figure: 'Panel keystroke vs VS Code\'s integrated terminal (a program redrawing a selection)', ours: summarize(ext),
          baseline: summarize(term), baselineName: 'terminal, DOM renderer', unit: 'ms', ratio: qRatio(ext, term), goal: 'info', pass: true,
          notes: [`terminal keydown → DOM ${fmtS(f(k.term, 'tDom'))} ms; ${k.ext.length}/${k.floor.length}/${k.echo.length}/${k.term.length} keys (ours/floor/echo/terminal), blocks interleaved`] });
        await agent.call(`for (const t of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) if (t.label === 'floor') await vscode.window.tabGroups.close(t);`).catch(() => undefined);
      }
      if (want('storm')) {
        log('  row 6: storm…');
        const l0 = load();
        const runs = [];
        // ZUT_BENCH_TRACE=<file.json>: a chromium trace of the storms (Perfetto / DevTools), to see what a long task is.
        const trace = process.env.ZUT_BENCH_TRACE;
        if (trace) await page.context().browser().startTracing(page, { path: trace, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'cc', 'gpu', 'scheduler'] });
        for (let i = 0; i < (Q ? 1 : 3); i++) runs.push(await measureStorm(frame, agent));
        if (trace) await page.context().browser().stopTracing();
        raw.storm = runs;
        const worstOurs = runs.map((r) => (r.ours.length ? Math.max(...r.ours) : 0));
        const worstTheirs = runs.map((r) => (r.theirs.length ? Math.max(...r.theirs) : 0));
        const supported = runs.every((r) => r.supported);
        push(l0, { id: 'ui-storm', figure: `Panel storm: ${STORM_FRAMES.toLocaleString('en-US')} renders in a burst → longest long task of our webview frame`, ours: summarize(worstOurs),
          unit: 'ms', goal: 'no task of ours > 50 ms', pass: supported && worstOurs.every((x) => x <= 50) && runs.every((r) => !r.timedOut),
          notes: [`long tasks attributed by script (PerformanceObserver 'longtask' in our frame: 'self' = our panel script; any other = the workbench or VS Code's webview host frame, same event loop): longest of VS Code's per storm ${worstTheirs.map((x) => fmt(x)).join(', ')} ms (not counted)`,
            `per storm: ${runs.map((r) => `${r.ours.length} of ours + ${r.theirs.length} of VS Code's, ${r.paints} frames painted in ${fmt(r.done - r.firstMsg)} ms (${r.frames} animation frames, longest gap ${fmt(r.maxFrameGap)} ms; long tasks: ${(r.attribution ?? []).join(', ') || 'none'})${r.timedOut ? ', TIMED OUT' : ''}`).join('; ')}${supported ? '' : '; longtask entries NOT supported here'}`,
            `our render message's task (the event's creation → after our listener: apply + paint, forced layout included) per storm, median / max ms: ${runs.map((r) => `${fmt(q(r.handler, 0.5))} / ${fmt(Math.max(0, ...r.handler))} (${r.handler.length})`).join('; ')}`] });
      }
    }
  } catch (e) {
    failures.push(`rows 1, 6: ${e.stack ?? String(e)}`);
    log(`  rows 1, 6 FAILED: ${String(e).split('\n')[0]}`);
  }
  if (want('save')) {
    for (const lang of ['ts', 'sh', 'python']) {
      try {
        log(`  row 2: save → new behaviour (${lang})…`);
        const l0 = load();
        const trials = Q ? 2 : 6;
        const r = await measureSave(agent, { lang, name: `save-${lang}`, trials });
        // The floor of each triple: the same edit saved in a copy of the main file (VS Code's save and whatever it
        // sets off: the language's extension, git, the file watcher) and a restart of the same extension at that
        // save's event: what a save that did nothing but restart would take. Before (issue 41's first runs) the floor
        // was the save trial's own save event + a separate restart in a quiet moment, which missed the work a save
        // sets off in VS Code while the restart runs; still printed below.
        const floorOf = (x) => x.siblingRestart;
        const summedFloorOf = (x) => x.saveHops.map((hh, i) => (typeof hh.saved === 'number' ? hh.saved + x.restart[i] : Number.NaN));
        let floor = floorOf(r);
        const ratioOf = () => summarize(r.save.map((x, i) => x / floor[i]).filter(Number.isFinite));
        let repeats = 0;
        while (!Q && tooWide(ratioOf()) && repeats < 2) {
          repeats++;
          log(`    ratio p25–p75 wider than ±0.15: ${trials} more triples`);
          const more = await measureSave(agent, { lang, name: `save-${lang}-${repeats}`, trials });
          for (const key of ['save', 'restart', 'saveHops', 'restartHops', 'siblingRestart', 'siblingRestartHops']) r[key].push(...more[key]);
          r.editAttempts += more.editAttempts;
          r.viaCommand = more.viaCommand;
          floor = floorOf(r);
        }
        raw[`save-${lang}`] = r;
        const ratio = ratioOf();
        const summed = summedFloorOf(r);
        const summedRatio = summarize(r.save.map((x, i) => x / summed[i]).filter(Number.isFinite));
        const restartRatio = summarize(r.save.map((x, i) => x / r.restart[i]));
        const noise = repeats ? `; measured again ${repeats}× because the ratio's p25–p75 spanned more than ±0.15${tooWide(ratio) ? ', and it still does' : ''}` : '';
        push(l0, { id: `ui-save-${lang}`, figure: `Save → new behaviour (${lang} template)`, ours: summarize(r.save), baseline: summarize(floor.filter(Number.isFinite)),
          baselineName: 'floor: the same edit saved in a copy of the file, and a restart of the same extension at its save event', unit: 'ms', ratio, goal: '≤ 1.1×', pass: ratio.median <= 1.1,
          notes: [`${r.save.length} interleaved save / restart / copy's save + restart triples after one warm-up triple (the first save took ${fmt(r.firstSave)} ms, its restart ${fmt(r.firstRestart)} ms, the copy's ${fmt(r.firstSiblingRestart)} ms)${noise}; zut.command.save-${lang} then answered "${r.viaCommand}"${r.editAttempts ? `; ${r.editAttempts} edits retried` : ''}`,
            `against the floor before (this save's event + a restart in a quiet moment, ${fmtS(summed.filter(Number.isFinite))} ms): ${S.fmtSummary(summedRatio)}×; against the restart alone: ${S.fmtSummary(restartRatio)}×`,
            `where the time goes (median ms): save → VS Code's save event ${hopS(r.saveHops, 'saved')}, → the old process stopping ${hopS(r.saveHops, 'down')}, → running again ${hopS(r.saveHops, 'up')}, → the command answering the new text ${hopS(r.saveHops, 'answered')}; the floor: → its save event ${hopS(r.siblingRestartHops, 'saved')}, → stopping ${hopS(r.siblingRestartHops, 'down')}, → running ${hopS(r.siblingRestartHops, 'up')}, → answering ${hopS(r.siblingRestartHops, 'answered')}; restart alone: → stopping ${hopS(r.restartHops, 'down')}, → running ${hopS(r.restartHops, 'up')}, → answering ${hopS(r.restartHops, 'answered')}`] });
      } catch (e) {
        failures.push(`row 2 (${lang}): ${e.stack ?? String(e)}`);
        log(`  row 2 (${lang}) FAILED: ${String(e).split('\n')[0]}`);
      }
    }
  }
  try {
    if (want('chat')) {
      log('  row 4: @zut round…');
      const l0 = load();
      const trials = Q ? 3 : 15;
      // ZUT_BENCH_PROFILE_DIR (by hand): the rounds one participant at a time under CPU profiles of the extension host
      // (bench/ui/inhost.mjs) and of the workbench page (renderer-chat-<epoch ms>.cpuprofile), then no more rounds.
      const cdp = process.env.ZUT_BENCH_PROFILE_DIR ? await page.context().newCDPSession(page) : undefined;
      if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 500 }); await cdp.send('Profiler.start'); }
      const profileStartAt = Date.now();
      const r = await measureChat(agent, { trials });
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        const file = path.join(path.resolve(process.env.ZUT_BENCH_PROFILE_DIR), `renderer-chat-${profileStartAt}`);
        fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
        fs.writeFileSync(`${file}.marks.json`, JSON.stringify({ profileStartAt }));
      }
      const minRatioOf = () => summarize(r.round.map((x, i) => x / r.minRound[i]));
      // Issue 41's goal is on the like-for-like floor: @benchmin offering the same tools as @zut.
      const likeRatioOf = () => summarize(r.round.map((x, i) => x / r.minAllRound[i]));
      let repeats = 0;
      // The issue's bar for this row: enough interleaved rounds that the ratio's p25–p75 stays inside ±0.1.
      while (!Q && !cdp && tooWide(likeRatioOf(), 0.1) && repeats < 2) {
        repeats++;
        log(`    @zut/@benchmin (same tools) p25–p75 ${fmt(likeRatioOf().p25)}–${fmt(likeRatioOf().p75)} is wider than ±0.1: ${trials} more rounds`);
        const more = await measureChat(agent, { trials });
        for (const key of Object.keys(more)) if (Array.isArray(more[key]) && Array.isArray(r[key])) r[key].push(...more[key]);
      }
      raw.chat = r;
      const ratio = summarize(r.round.map((x, i) => x / r.direct[i]));
      const minRatio = minRatioOf();
      const likeRatio = likeRatioOf();
      const noise = repeats ? `; measured again ${repeats}× (${trials} rounds each) because the ratio's p25–p75 spanned more than ±0.1${tooWide(likeRatio, 0.1) ? ', and it still does' : ''}` : '';
      const ofMedians = (floor) => `ratio of the medians ${fmt(q(r.round, 0.5) / q(floor, 0.5))}×`;
      // Where a round went (bench/ui/inhost.mjs splitOf): medians over the rounds with every mark, per participant.
      const part = (who, key) => r.split.filter((x) => x.who === who && Number.isFinite(x[key])).map((x) => x[key]);
      const split = (who) => `VS Code's hops ${fmtS(part(who, 'vscode'))} (tool-call part → the participant ${fmt(q(part(who, 'relayIn'), 0.5))}, → stream ended ${fmt(q(part(who, 'streamEnd'), 0.5))}, next request → the model ${fmt(q(part(who, 'relayOut'), 0.5))}), the guarded call ${fmtS(part(who, 'call'))}, the participant's own code ${fmtS(part(who, 'code'))}`;
      const ownShare = r.split.filter((x) => x.who === 'zut' && Number.isFinite(x.code)).map((x) => (100 * x.code) / x.round);
      push(l0, { id: 'ui-chat-like', figure: '@zut tool round (model tool-call part → next model request) vs the same round through a minimal participant offering the same tools', ours: summarize(r.round), baseline: summarize(r.minAllRound),
        baselineName: `@benchmin offering the same ${r.toolsOffered?.minAll ?? '?'} tools as @zut's ${r.zutToolsOffered ?? '?'} (VS Code's own too, as zut.chat.editorTools "all")`, unit: 'ms', ratio: likeRatio, goal: '≤ 1.1×', pass: likeRatio.median <= 1.1,
        notes: [`${r.round.length} rounds of each, interleaved, each round in a chat of its own${noise}; ${ofMedians(r.minAllRound)}`,
          `@zut: model part → tool_call frame ${fmtS(r.toFrame)} ms; tool_result → next model request ${fmtS(r.fromResult)} ms; @benchmin with the same tools: ${fmtS(r.minAllToFrame)} ms; ${fmtS(r.minAllFromResult)} ms`,
          `where a round went (ms; the model thinks ${MODEL_THINK_MS} ms before its tool call, each round starts once the previous response is complete): @zut: ${split('zut')}; @benchmin with the same tools: ${split('minAll')}; zut-vscode's own code is ${fmtS(ownShare)}% of its round (${part('zut', 'code').length}/${r.round.length} rounds with every mark)`] });
      push(l0, { id: 'ui-chat-min', figure: '@zut tool round vs the same round through a minimal participant offering only the called tool', ours: summarize(r.round), baseline: summarize(r.minRound),
        baselineName: '@benchmin: VS Code\'s chat plumbing + the guarded call', unit: 'ms', ratio: minRatio, goal: 'info', pass: true,
        notes: [`${ofMedians(r.minRound)}; what @zut adds = the difference of the rounds, median ${fmt(q(r.round, 0.5) - q(r.minRound, 0.5))} ms (offering VS Code's own tools, zut.chat.editorTools "all", is part of it: the row before)`,
          `@benchmin: model part → tool_call frame ${fmtS(r.minToFrame)} ms; tool_result → next model request ${fmtS(r.minFromResult)} ms`] });
      push(l0, { id: 'ui-chat', figure: '@zut tool round vs the guarded call alone', ours: summarize(r.round), baseline: summarize(r.direct),
        baselineName: 'invokeTool from the extension host', unit: 'ms', ratio, goal: 'info', pass: true,
        notes: [`VS Code's own lm hops for a bare sendRequest of the same model (no @zut): request → provider ${fmtS(r.lmRequest)} ms, reply part → stream ended ${fmtS(r.lmStreamEnd)} ms`] });
    }
  } catch (e) {
    failures.push(`row 4: ${e.stack ?? String(e)}`);
    log(`  row 4 FAILED: ${String(e).split('\n')[0]}`);
  }
  try {
    if (want('window')) {
      log('  rows 3, 5: windows…');
      const l0 = load();
      const w2 = tempDir('bench-ui-window');
      const names = writeWorkspace(w2, { uibench: false, mixed: MIX });
      agent.close();
      // Tall enough for the Zut view to show all 20 rows (the tree renders only the rows that fit).
      await page.setViewportSize({ width: 1400, height: 1600 });
      fs.rmSync(sockA, { force: true });
      await page.goto(harness.workbenchUrl(serverA, { folder: w2 }));
      ({ agent } = { agent: await AgentClient.connect(sockA) });
      await harness.showZutView(page);
      await page.waitForFunction(() => window.__zw?.runningAt !== undefined, null, { timeout: 120_000 }).catch(() => log('  (the view never showed all rows running on the first load)'));
      agent.close();
      // The window without zut-vscode spawns and handshakes the same 20 as it starts (the bench agent): the floor.
      const floorSpec = writeFloorAtStart(tempDir('bench-ui-floor'), w2, names);
      const serverB = await harness.startServer({ name: 'bench-ui-bare', settings, installVsix: false, env: { ZUT_BENCH_AGENT_SOCKET: sockB, ZUT_BENCH_FLOOR_AT_START: floorSpec } });
      installVsix(tl, serverB, agentVsix);
    installVsix(tl, serverB, helloVsix);   // as in the zut window: the RSS row's difference is zut-vscode's alone
      const b = await open(serverB, w2, sockB);
      await b.page.setViewportSize({ width: 1400, height: 1600 });
      b.agent.close();
      // The host spawns each executable with the extension host's own environment (src/host/process/child.ts), and
      // the floor runs in that same process with that same environment: both start the same python3 the same way.
      const pa = await AgentClient.connect(sockA);
      const python3 = await pa.call(`return require('child_process').execFileSync('/bin/sh', ['-c', 'command -v python3; command -v node'], { env: process.env, encoding: 'utf8' }).trim().split('\\n');`);
      pa.close();
      const A = [];
      const B = [];
      const settled = [];
      const trial = async () => {
        const a = await zutWindowTrial(page, sockA, MIX);
        a.mem = await hostRss(a.agent, 2000);
        a.rss = a.mem.rss;
        a.agent.close();
        A.push(a);
        // The same script while the zut window idles (settled), inside its extension host (its node, environment and
        // process, no zut code): the floor before issue 41, which did not share a window's start (a note now).
        const fa = await AgentClient.connect(sockA);
        settled.push(await fa.call(`const handshake = ${handshake.toString()};
  return handshake(args.folder, args.names, process.env, { spawn: require('child_process').spawn, fs: require('fs'), path: require('path') });`, { folder: w2, names }));
        fa.close();
        const bb = await bareWindowTrial(b.page, sockB);
        bb.mem = await hostRss(bb.agent, 2000);
        bb.rss = bb.mem.rss;
        bb.agent.close();
        B.push(bb);
        log(`    trial ${A.length}: view ${fmt(a.viewMs)} ms (max ${a.viewMax} rows), api ${fmt(a.apiMs)}, command ${fmt(a.commandMs)}, floor ${fmt(bb.floorMs)} (settled ${fmt(settled.at(-1))}), rss ${fmt(a.rss)} vs ${fmt(bb.rss)} MiB; activation (VS Code's figure) ${fmt(a.vscodeActivation.ours)} vs hello ${fmt(a.vscodeActivation.hello)} ms; load ${load().toFixed(1)}`);
      };
      const trials = Q ? 2 : 5;
      for (let i = 0; i < trials; i++) await trial();
      const floor = () => B.map((x) => x.floorMs);
      // Both from their extension host process's start: zut-vscode may activate before the bench agent does.
      const windowRatio = () => summarize(A.map((a, i) => (a.apiMs - a.hostStartMs) / floor()[i]).filter(Number.isFinite));
      let repeats = 0;
      while (!Q && tooWide(windowRatio()) && repeats < 3) {
        repeats++;
        log(`    ratio p25–p75 ${fmt(windowRatio().p25)}–${fmt(windowRatio().p75)} is wider than ±0.15: one more trial`);
        await trial();
      }
      raw.window = { A: A.map(({ agent: _a, ...x }) => x), B: B.map(({ agent: _a, ...x }) => x), settled };
      const view = A.map((a) => (Number.isFinite(a.viewMs) ? a.viewMs : a.apiMs));
      const ours = A.map((a) => a.apiMs - a.hostStartMs);
      const ratio = windowRatio();
      const noise = repeats ? `; measured again ${repeats}× (one trial each) because the ratio's p25–p75 spanned more than ±0.15${tooWide(ratio) ? ', and it still does' : ''}` : '';
      push(l0, { id: 'ui-window', figure: `Window: extension host start → all ${MIX} extensions running (sh/Python/Node)`, ours: summarize(ours), baseline: summarize(floor().filter(Number.isFinite)),
        baselineName: 'a window without zut-vscode spawning and handshaking the same 20 as it starts (bench agent)', unit: 'ms', ratio, goal: '≤ 1.2×', pass: ratio.median <= 1.2,
        notes: [`${A.length} trials, zut window / settled script / bare window interleaved${noise}${B.some((x) => !Number.isFinite(x.floorMs)) ? `; floor failed: ${B.map((x) => x.floorError).filter(Boolean).join('; ')}` : ''}`,
          `the same script in the settled zut window's extension host (the floor before issue 41): ${fmtS(settled)} ms, ours ${fmt(q(ours, 0.5) / q(settled, 0.5))}× it`, `page load → all rows "running" in the Zut view ${fmtS(view)} ms${A.some((a) => !Number.isFinite(a.viewMs)) ? ' (some trials from the API: the view did not show all rows)' : ''}; → first command answered ${fmtS(A.map((a) => a.commandMs))} ms; page load → extension host up ${fmtS(A.map((a) => a.hostUpMs))} ms (without zut-vscode ${fmtS(B.map((x) => x.hostUpMs))} ms)`,
          `host and floor spawn each executable with the extension host's environment: python3 = ${python3[0]}, node = ${python3[1]} (\`#!/usr/bin/env\` resolves them from its PATH)`] });
      // activate() against a hello-world extension (bench/ui/hello, same activation events) in the same window, by VS
      // Code's own figure (code loading + the activate() call, as Show Running Extensions prints it).
      const vs = A.filter((a) => Number.isFinite(a.vscodeActivation?.ours) && Number.isFinite(a.vscodeActivation?.hello));
      const ownClock = (a) => typeof a.activateMs === 'number' && typeof a.bundleLoadMs === 'number';
      const ownMs = (a) => a.bundleLoadMs + a.activateMs;
      const actRatio = summarize(vs.map((a) => a.vscodeActivation.ours / Math.max(1, a.vscodeActivation.hello)));
      push(l0, { id: 'ui-activate', figure: 'Activation in that window (VS Code\'s figure: code loading + activate() call)', ours: summarize(vs.map((a) => a.vscodeActivation.ours)),
        baseline: summarize(vs.map((a) => a.vscodeActivation.hello)), baselineName: 'a hello-world extension, same window and activation events', unit: 'ms', ratio: actRatio,
        goal: '≤ 1.5×', pass: vs.length > 0 && actRatio.median <= 1.5,   // issue 41's goal
        notes: [`${vs.length}/${A.length} trials read from Developer: Show Running Extensions (whole ms; the hello-world's 0 ms counted as 1 ms)`,
          `activate()'s body by each extension's own clock: ours ${fmtS(A.map((a) => a.activateMs))} ms, hello-world ${fmtS(A.map((a) => a.helloActivateMs).filter((x) => typeof x === 'number'))} ms; activation start → every extension ready (zut's own clock) ${fmtS(A.map((a) => a.startedMs))} ms`,
          `dist/main.js loading dist/extension.js inside activate() (its own clock): ${fmtS(A.map((a) => a.bundleLoadMs).filter((x) => typeof x === 'number'))} ms; its V8 code cache: ${A.map((a) => a.codeCache ?? '?').join(', ')}`,
          // dist/main.js's activate() returns before it loads the bundle (src/main.ts): VS Code's figure holds that call;
          // the work (the bundle's load, then its activate(), each a task of its own) comes after, and is shown here.
          // VS Code's code loading = the wait before the entry's require (the log's flush, the localized messages
          // awaited: other extensions' activations run in it) + the require (its marks, code/extHost/*LoadExtensionCode).
          `of VS Code's figure, what is the extension's own: the require of its entry (VS Code's marks, whole ms) ours ${fmtS(A.map((a) => a.requireMs).filter((x) => typeof x === 'number'))} ms, hello-world ${fmtS(A.map((a) => a.helloRequireMs).filter((x) => typeof x === 'number'))} ms; the activate() call (own clock) ours ${fmtS(A.map((a) => a.callMs).filter((x) => typeof x === 'number'))} ms, hello-world ${fmtS(A.map((a) => a.helloActivateMs).filter((x) => typeof x === 'number'))} ms; ours together ${fmt(q(vs.filter((a) => typeof a.requireMs === 'number' && typeof a.callMs === 'number').map((a) => (a.requireMs + a.callMs) / a.vscodeActivation.ours * 100), 0.5))}% of ours in the row (median); the rest is the wait before the require`,
          `after dist/main.js's activate() returned (outside VS Code's figure), each its own task: the wait ${fmtS(A.map((a) => a.waitMs).filter((x) => typeof x === 'number'))} ms, the bundle's load + its activate() ${fmtS(A.filter(ownClock).map(ownMs))} ms, the longest of the two ${fmtS(A.filter(ownClock).map((a) => Math.max(a.bundleLoadMs, a.activateMs)))} ms; the call → its promise resolved ${fmtS(A.map((a) => a.resolvedMs).filter((x) => typeof x === 'number'))} ms`,
          `VS Code's figure less activate()'s body (VS Code's code loading, which awaits the localized messages first: other extensions' work in that wait counts): hello-world ${fmtS(vs.filter((a) => typeof a.helloActivateMs === 'number').map((a) => a.vscodeActivation.hello - a.helloActivateMs))} ms`] });
      const diff = A.map((a, i) => a.rss - B[i].rss);
      push(l0, { id: 'ui-rss', figure: `Extension host RSS, ${MIX} extensions running, panels closed: zut-vscode's share`, ours: summarize(diff),
        baseline: summarize(B.map((x) => x.rss)), baselineName: 'RSS of the same window without zut-vscode', unit: 'MiB', goal: '≤ 30 MiB above', pass: q(diff, 0.5) <= 30,
        notes: [`RSS with zut-vscode ${fmtS(A.map((a) => a.rss))} MiB`,
          `of the difference (median MiB): V8 heap in use ${fmt(q(A.map((a, i) => a.mem.heapUsed - B[i].mem.heapUsed), 0.5))} (still live after a full collection ${fmt(q(A.map((a, i) => a.mem.heapLive - B[i].mem.heapLive), 0.5))}; heap reserved ${fmt(q(A.map((a, i) => a.mem.heapTotal - B[i].mem.heapTotal), 0.5))}), outside the heap ${fmt(q(A.map((a, i) => a.mem.external - B[i].mem.external), 0.5))}`,
          `V8 spaces reserved, difference (median MiB): ${Object.keys(A[0].mem.spaces).map((k) => `${k} ${fmt(q(A.map((a, i) => a.mem.spaces[k] - (B[i].mem.spaces[k] ?? 0)), 0.5))}`).join(', ')}`] });
      await serverB.stop();
    }
  } catch (e) {
    failures.push(`rows 3, 5: ${e.stack ?? String(e)}`);
    log(`  rows 3, 5 FAILED: ${String(e).split('\n')[0]}`);
  }
  await serverA.stop();
} catch (e) {
  failures.push(e.stack ?? String(e));
} finally {
  await harness.closeAll();
  killAllServersSync();
  fs.rmSync(sockDir, { recursive: true, force: true });
  removeTemp();
}

/** Median of one hop over trials (trials without that mark left out). */
function hopS(hs, key) {
  const xs = hs.map((h) => h[key]).filter((x) => typeof x === 'number');
  return xs.length ? fmt(q(xs, 0.5)) : '?';
}

function fmtS(xs) {
  return S.fmtSummary(summarize(xs));
}

const env = `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${os.platform()} ${os.release()}; code-server ${tl.codeServerVersion}, chromium headless`;
console.log(`\nzut-vscode bench:ui — ${env} — ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
console.log(table(rows));
for (const f of failures) console.log(`\nFAILED ${f}`);
fs.writeFileSync(path.join(runDir, 'bench-ui.json'), JSON.stringify({ date: new Date().toISOString(), env, rows, raw, failures }, null, 2));
console.log(`\nraw samples: ${path.relative(process.cwd(), path.join(runDir, 'bench-ui.json'))}`);
// `--json FILE`: the rows as data (bench/stats.ts jsonRow), for a script to judge or compare runs.
if (opts.json) {
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), opts.json); // npm run's caller's folder
  fs.writeFileSync(file, S.jsonReport('bench:ui', env, rows, failures));
  console.log(`wrote ${file}`);
}
process.exit(failures.length ? 1 : 0);
