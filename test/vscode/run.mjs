#!/usr/bin/env node
// @ts-check
// Runs the extension's tests inside a real VS Code: code-server 4.139.1 (VS Code 1.139.1) + Playwright + chromium.
//   node test/vscode/run.mjs [--suite inhost|ui|all|agents] [--grep REGEX] [--timeout SECONDS] [--keep] [--code-server VERSION]
// --code-server (or ZUT_CODE_SERVER_VERSION): another code-server from the npm registry, e.g. 4.104.0 = VS Code 1.104.0.
// in-host: test/vscode/inhost/*.test.js run by mocha INSIDE the extension host (repo = development extension).
// ui:      test/vscode/ui/*.test.mjs run by mocha here, driving the workbench through test/vscode/ui/harness.mjs.
// agents:  test/vscode/ui/*.agents.mjs the same way: the Agent Host's Claude and Codex harnesses, which run real agents
//          (their SDKs installed into the agents' cache, test/vscode/lib/agentSdks.mjs) — not in `all` (`npm test`), run
//          by `npm run test:agents` after the terminal agents, as the house keeps real agents out of `npm test`.
// Builds and packages first, kills every code-server tree it started (also on failure and Ctrl+C), prints
// `N passed, M failed` per suite and overall, exits non-zero on any failure. Artifacts: .test-runs/<stamp>/.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { descendants, installVsix, killAllServersSync, killProcessesMentioning, processesMentioning, startCodeServer, TEST_SETTINGS } from './lib/codeServer.mjs';
import { REPO, ensureRunDirs, fixtureExtensions, fixtureVsix, removeTemp, serverDir, tempDir, tools, vsix, workspaceCopy } from './lib/context.mjs';

const { values: opts } = parseArgs({ options: {
  suite: { type: 'string', default: 'all' }, grep: { type: 'string' }, timeout: { type: 'string', default: '900' },
  keep: { type: 'boolean', default: false }, 'code-server': { type: 'string' } } });
if (!['all', 'inhost', 'ui', 'agents'].includes(opts.suite)) { console.error(`unknown --suite ${opts.suite} (inhost|ui|all|agents)`); process.exit(2); }
if (opts.keep) process.env.ZUT_VSCODE_KEEP = '1';
// Through the environment: tools() (lib/context.mjs) provisions it, for this runner and the UI harness alike.
if (opts['code-server']) process.env.ZUT_CODE_SERVER_VERSION = opts['code-server'];

const t0 = Date.now();
const secs = (since = t0) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const { runDir } = ensureRunDirs();
const rel = (p) => { const r = path.relative(process.cwd(), p); return r.startsWith('..') ? p : r || '.'; };

/** Last-resort cleanup: SIGKILL every server tree and every process this runner started (chromium included). */
function killEverythingSync() {
  killAllServersSync();
  for (const pid of descendants(process.pid)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  killProcessesMentioning(runDir);
}
for (const [sig, code] of /** @type {[NodeJS.Signals, number][]} */ ([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]])) {
  process.on(sig, () => { console.error(`\n${sig}: stopping code-server and the browser`); killEverythingSync(); removeTemp(); process.exit(code); });
}

async function runInhost(harness) {
  const zutHome = tempDir('zut-home');
  const zotHome = tempDir('zot-home');   // zot extensions of the machine's user never join the suite
  const dir = serverDir('inhost');
  const env = {
    ZUT_TEST_WORKSPACE: workspaceCopy(), ZUT_HOME: zutHome, ZOT_HOME: zotHome, ZUT_TEST_RESULT_FILE: path.join(runDir, 'inhost-result.json'),
    ZUT_TEST_LOGS_DIR: path.join(dir, 'user-data', 'logs'), ZUT_TEST_EXTENSION_PATH: REPO, ...(opts.grep ? { ZUT_TEST_GREP: opts.grep } : {}),
  };
  // The test environment goes to the server too (its extension host inherits it): VS Code 1.104's web workbench
  // ignores the payload's extensionEnvironment (1.139 reads it, below).
  let result;
  const server = await startCodeServer({ tools: await tools(), dir, trust: true, env,
    // The suites assume the example project's extensions start at once; consent.test.js switches to "ask" itself.
    settings: TEST_SETTINGS });
  try {
    if (server.logsDir !== env.ZUT_TEST_LOGS_DIR) throw new Error(`server logs in ${server.logsDir}, not ${env.ZUT_TEST_LOGS_DIR}`);
    const remote = (p) => `vscode-remote://${new URL(server.url).host}${p}`;
    // One development path only (code-server keeps the last one): the test-only fixture extensions are installed.
    const devPaths = [REPO];
    for (const f of fixtureExtensions()) installVsix(await tools(), server, fixtureVsix(f));
    const payload = [['extensionTestsPath', remote(path.join(REPO, 'test', 'vscode', 'inhost', 'index.js'))],
      ['extensionEnvironment', JSON.stringify(env)]];
    const logFile = path.join(runDir, 'inhost-exthost.log');
    let exit;
    let echoDone = false;
    const exited = new Promise((r) => { exit = r; });
    const beforeGoto = async (page) => {
      // The workbench reports the extension host's console and the runner's exit code through these two hooks.
      await page.exposeFunction('codeAutomationLog', (type, args) => {
        const line = formatLog(args);
        fs.appendFileSync(logFile, `[${type}] ${line}\n`);
        // Echo mocha's spec output live up to its summary; failure details are printed from the result file.
        if (/^\s*\d+ passing/.test(line)) echoDone = true;
        if (!echoDone && (/^\s*(✔|✓|\d+\) )/.test(line) || /^ {2,}\S/.test(line) && !/^\s+at /.test(line)) || /^\s*\d+ (passing|failing|pending)/.test(line)) console.log(`  ${line}`);
      });
      await page.exposeFunction('codeAutomationExit', (code) => exit(code));
    };
    console.log(`in-host: dev extensions ${devPaths.map(rel).join(', ')}; workspace ${env.ZUT_TEST_WORKSPACE}`);
    let page;
    const opened = harness.openWorkbench(server, { folder: env.ZUT_TEST_WORKSPACE, devPaths, payload, beforeGoto })
      .then((p) => { page = p; }, (e) => console.log(`  (workbench: ${e.message.split('\n')[0]})`));
    let timer;
    const code = await Promise.race([exited, server.exited.then((e) => `code-server exited (${JSON.stringify(e)})`),
      new Promise((r) => { timer = setTimeout(() => r('timeout'), Number(opts.timeout) * 1000); })]);
    clearTimeout(timer);
    await opened;
    if (page) await harness.screenshot(page, 'inhost-end').catch(() => {});
    result = readInhostResult(env.ZUT_TEST_RESULT_FILE, code);
  } finally {
    await harness.closeAll();
    await server.stop();
  }
  // Read once the server stopped (its logs flushed): CI keeps this output, not the run directory.
  for (const t of result.failedTests) hostNotes.push(hostLogDuring(env.ZUT_TEST_LOGS_DIR, t));
  return result;
}

/** The lines of the Zut log (reloads, restarts, load reports, errors) from shortly before a failed test to its end. */
function hostLogDuring(logsDir, t) {
  const head = `what the Zut log says from ${HOST_LOG_LEAD_MS / 1000}s before "${t.title}" to its failure:`;
  if (!t.began) return `${head}\n      (no start time: the failure was outside a test)`;
  const files = fs.existsSync(logsDir) ? fs.readdirSync(logsDir, { recursive: true }).map(String).filter((f) => f.endsWith(path.join('zut.zut-vscode', 'Zut.log'))) : [];
  const lines = files.flatMap((f) => fs.readFileSync(path.join(logsDir, f), 'utf8').split('\n')).filter((l) => {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d+)/.exec(l);
    const at = m ? new Date(`${m[1]}T${m[2]}`).getTime() : NaN;
    // Not VS Code's routine MCP listing (many lines a second while servers start): what the host did.
    return at >= t.began - HOST_LOG_LEAD_MS && at <= (t.ended ?? Infinity) + 1000 && !/\] mcp: (tools|prompts|resources)\/list|\] mcp: initialize/.test(l);
  });
  const shown = lines.length > HOST_LOG_MAX_LINES ? [`(${lines.length - HOST_LOG_MAX_LINES} earlier lines left out)`, ...lines.slice(-HOST_LOG_MAX_LINES)] : lines;
  return `${head}\n${(shown.length ? shown : ['(nothing)']).map((l) => `      ${l.slice(0, 300)}`).join('\n')}`;
}

function formatLog(args) {
  const [f, ...rest] = (Array.isArray(args) ? args : [args]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  let i = 0;
  const s = String(f ?? '').replace(/%[sdoOjic]/g, () => (i < rest.length ? rest[i++] : ''));
  return [s, ...rest.slice(i)].join(' ');
}

function readInhostResult(file, code) {
  if (!fs.existsSync(file)) {
    const why = code === 'timeout' ? `timed out after ${opts.timeout}s` : typeof code === 'string' ? code : `exit code ${code}, no result file`;
    console.log(`  ✖ in-host suite did not complete (${why}); see ${rel(path.join(runDir, 'inhost-exthost.log'))} and the server logs`);
    return { passed: 0, failed: 1, failedTests: [] };
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const t of r.tests.filter((x) => x.state !== 'passed')) {
    console.log(`  ✖ ${t.state.toUpperCase()}: ${t.title}${t.file ? ` (${t.file})` : ''}`);
    if (t.error) console.log(t.error.split('\n').slice(0, 12).map((l) => `      ${l}`).join('\n'));
  }
  const failed = r.failures + r.pending + (code !== 0 && r.failures + r.pending === 0 ? 1 : 0);
  if (code !== 0 && r.failures + r.pending === 0) console.log(`  ✖ the in-host runner exited with ${code}`);
  return { passed: r.passes, failed, failedTests: r.tests.filter((x) => x.state === 'failed') };
}

/** The UI suite (`ending` .test.mjs) or the agents' (.agents.mjs), driven the same way. */
async function runUi(harness, ending = '.test.mjs') {
  const { default: Mocha } = await import('mocha');
  const dir = path.join(REPO, 'test', 'vscode', 'ui');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(ending)).sort().map((f) => path.join(dir, f));
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, slow: 30_000, reporter: 'spec', color: false, rootHooks: harness.mochaHooks,
    ...(opts.grep ? { grep: opts.grep } : {}) });
  for (const f of files) mocha.addFile(f);
  try {
    await mocha.loadFilesAsync();
    const counts = { passed: 0, failed: 0 };
    await new Promise((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', () => counts.passed++);
      runner.on('fail', () => counts.failed++);
      runner.on('pending', (t) => { counts.failed++; console.log(`  ✖ skipped tests are not allowed: ${t.fullTitle()}`); });
    });
    return counts;
  } finally {
    await harness.closeAll();
  }
}

const results = [];
/** For each failed in-host test, what the host logged meanwhile: printed last, where a CI log's tail keeps it. */
const hostNotes = [];
/** How far before a failed test its host log is shown (a late reload from the test before is the usual suspect). */
const HOST_LOG_LEAD_MS = 20_000;
/** At most this many log lines per failed test. */
const HOST_LOG_MAX_LINES = 40;
let exitCode = 0;
try {
  console.log(`run dir: ${rel(runDir)}`);
  let t = Date.now();
  vsix();
  console.log(`built and packaged ${rel(process.env.ZUT_VSCODE_VSIX)} in ${secs(t)}`);
  t = Date.now();
  const tl = await tools();
  console.log(`tools: code-server ${tl.codeServerVersion} (VS Code ${tl.vscodeVersion}) with Node ${tl.nodeMajor} from ${rel(tl.tools)} (${secs(t)})`);
  const harness = await import('./ui/harness.mjs');
  const suites = /** @type {[string, (h: any) => Promise<any>][]} */ ([['inhost', runInhost], ['ui', runUi], ['agents', (h) => runUi(h, '.agents.mjs')]]);
  for (const [name, fn] of suites) {
    if (opts.suite === 'all' ? name === 'agents' : opts.suite !== name) continue;
    t = Date.now();
    console.log(`\n=== ${name} suite ===`);
    let r;
    try { r = await fn(harness); } catch (e) { console.log(`  ✖ ${name} suite error: ${e.stack || e}`); r = { passed: 0, failed: 1 }; }
    results.push({ name, ...r, time: secs(t) });
    console.log(`${name}: ${r.passed} passed, ${r.failed} failed (${secs(t)})`);
  }
} catch (e) {
  console.log(`✖ ${e.stack || e}`);
  results.push({ name: 'setup', passed: 0, failed: 1 });
} finally {
  killAllServersSync();
  const left = [...processesMentioning(runDir), ...descendants(process.pid).map((p) => `${p} (child of the runner)`)];
  if (left.length) { console.log(`processes left after the run (killed now):\n  ${left.join('\n  ')}`); killEverythingSync(); exitCode = 1; }
  removeTemp();
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
for (const n of hostNotes) console.log(`\n${n}`);
console.log(`\n${results.map((r) => `${r.name}: ${r.passed} passed, ${r.failed} failed`).join('\n')}`);
console.log(`artifacts: ${rel(runDir)}; total ${secs()}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || exitCode ? 1 : 0);
