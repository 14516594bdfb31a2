// Rows 3 and 5 of `npm run bench:ui`: a window with 20 zut extensions (sh / Python / Node) reloaded — page load →
// every row "running" in the Zut Extensions view and the first command answering — against a window without
// zut-vscode that spawns and handshakes the same 20 programs as it starts (the bench agent's floorAtStart); and the extension host's RSS against the same window without zut-vscode.
import fs from 'node:fs';
import { AgentClient } from './agent.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Reloads `page` (same browser context: the Zut view stays open) and reconnects to the new window's agent. */
export async function reloadWindow(page, socket) {
  fs.rmSync(socket, { force: true });
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => Boolean(window.driver), null, { timeout: 60_000 });
  return AgentClient.connect(socket);
}

/**
 * The extension host's memory (MiB), `settleMs` after the window is up: RSS, the median of 5 samples 200 ms apart,
 * and with it (from the same sample) the V8 heap in use and total, and the memory outside the heap (external).
 */
export async function hostRss(agent, settleMs) {
  await sleep(settleMs);
  const xs = [];
  for (let i = 0; i < 5; i++) {
    xs.push(await agent.call(`const m = process.memoryUsage();
const spaces = Object.fromEntries(require('v8').getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size / 1048576]));
return { rss: m.rss / 1048576, heapUsed: m.heapUsed / 1048576, heapTotal: m.heapTotal / 1048576, external: m.external / 1048576, spaces };`));
    await sleep(200);
  }
  const m = xs.sort((a, b) => a.rss - b.rss)[2];
  // Then (after the samples: it changes the process) the heap still live after a full collection, through V8's
  // runtime flag: what is held, as opposed to garbage not yet collected.
  m.heapLive = await agent.call(`require('v8').setFlagsFromString('--expose-gc'); const gc = require('vm').runInNewContext('gc'); gc(); gc();
return process.memoryUsage().heapUsed / 1048576;`);
  return m;
}

/**
 * One reload of the zut window: page load (timeOrigin) → every `mix-*` row running in the view (DOM probe), → the
 * extension host's API saw them all running, → the first command answered; activate()'s own time.
 */
export async function zutWindowTrial(page, socket, count) {
  const agent = await reloadWindow(page, socket);
  const w = await agent.call(`
await until(() => { const w = globalThis.__zutBenchWatch; return w && w.allRunningAt && w.firstCommandAt; }, 120000, 20);
const ext = vscode.extensions.getExtension('zut.zut-vscode');
const started = await ext.exports.timings.started;
const hello = await until(() => globalThis.__zutBenchHello, 60000, 20).catch(() => ({}));
// VS Code's own marks around the require() of each extension's entry (extHostExtensionService.ts _doLoadModule):
// its "code loading" is the wait before (the log's flush, the localized messages awaited) + that require.
const marks = globalThis.MonacoPerformanceMarks?.getMarks?.() ?? [];
const requireMs = (id) => {
  const at = (what) => marks.find((m) => m.name === 'code/extHost/' + what + 'LoadExtensionCode/' + id)?.startTime;
  return at('will') !== undefined && at('did') !== undefined ? at('did') - at('will') : null;
};
// The extension's timings (src/extension.ts ActivationTimings) but started, a promise.
const { started: _, ...timings } = ext.exports.timings;
return { ...globalThis.__zutBenchWatch, hostOrigin: globalThis.__zutBenchAgent.hostOrigin, ...timings, startedMs: started.ms, helloActivateMs: hello.activateMs,
  requireMs: requireMs('zut.zut-vscode'), helloRequireMs: requireMs('zut-bench.bench-hello') };`);
  await page.waitForFunction(() => window.__zw && window.__zw.runningAt !== undefined, count, { timeout: 60_000 }).catch(() => undefined);
  const p = await page.evaluate(() => ({ origin: performance.timeOrigin, runningAt: window.__zw?.runningAt, max: window.__zw?.max }));
  return {
    agent,
    viewMs: p.runningAt === undefined ? Number.NaN : p.runningAt, viewMax: p.max,
    apiMs: w.allRunningAt - p.origin, commandMs: w.firstCommandAt - p.origin, hostUpMs: w.agentAt - p.origin, hostStartMs: w.hostOrigin - p.origin,
    requireMs: w.requireMs, helloRequireMs: w.helloRequireMs,
    activateMs: w.activateMs, bundleLoadMs: w.bundleLoadMs, callMs: w.callMs, waitMs: w.waitMs, resolvedMs: w.resolvedMs, codeCache: w.codeCache, startedMs: w.startedMs, helloActivateMs: w.helloActivateMs,
    vscodeActivation: await runtimeActivation(page, agent),
  };
}

/**
 * VS Code's own activation figure (code loading + activate() call, as Developer: Show Running Extensions prints it)
 * of zut-vscode and of the hello-world extension (bench/ui/hello) in this window; ms by display name.
 */
export async function runtimeActivation(page, agent, names = ['Zut Extensions', 'Bench Hello World (test only)']) {
  await agent.call(`await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions');`);
  try {
    const h = await page.waitForFunction((want) => {
      const out = {};
      for (const row of document.querySelectorAll('.runtime-extensions-editor .extension')) {
        const name = row.querySelector('.name')?.textContent ?? '';
        const m = /Activation: (\d+(?:\.\d+)?)ms/.exec(row.querySelector('.activation-time')?.textContent ?? '');
        if (m && want.includes(name)) out[name] = Number(m[1]);
      }
      return want.every((n) => n in out) && out;
    }, names, { timeout: 20_000 });
    const v = await h.jsonValue();
    return { ours: v[names[0]], hello: v[names[1]] };
  } catch {
    return { ours: Number.NaN, hello: Number.NaN };
  } finally {
    await agent.call(`await vscode.commands.executeCommand('workbench.action.closeAllEditors');`).catch(() => undefined);
  }
}

/**
 * One reload of the window without zut-vscode: page load → the extension host's agent activated; and row 3's floor,
 * which the agent ran as the window started (ZUT_BENCH_FLOOR_AT_START): extension host up → the same 20 `ready`.
 */
export async function bareWindowTrial(page, socket) {
  const agent = await reloadWindow(page, socket);
  const origin = await page.evaluate(() => performance.timeOrigin);
  const at = await agent.call('return globalThis.__zutBenchAgent.startedAt;');
  const floor = await agent.call('return globalThis.__zutBenchFloor ? await globalThis.__zutBenchFloor : { error: "ZUT_BENCH_FLOOR_AT_START not set" };');
  return { agent, hostUpMs: at - origin, floorMs: floor.ms ?? Number.NaN, floorError: floor.error };
}
