// @ts-check
// Mocha runner executed INSIDE the VS Code extension host (VS Code calls `run()`; see test/vscode/run.mjs and
// test/vscode/electron.mjs). Runs every test/vscode/inhost/*.test.js (CommonJS, mocha `tdd`: suite/test).
// Environment (extensionEnvironment): ZUT_TEST_RESULT_FILE (JSON summary written here), ZUT_TEST_GREP (mocha grep),
// ZUT_TEST_WORKSPACE, ZUT_HOME, ZUT_TEST_LOGS_DIR (server logs dir, code-server only).
'use strict';
const fs = require('fs');
const path = require('path');

async function loadMocha() {
  // mocha 12 is ESM; Node >= 20.19 can require() it, older hosts need import().
  try { const m = /** @type {any} */ (require('mocha')); return m.default || m; } catch { const m = await import('mocha'); return m.default || m; }
}

exports.run = async function run() {
  const Mocha = await loadMocha();
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, slow: 10000, reporter: 'spec' });
  if (process.env.ZUT_TEST_GREP) mocha.grep(new RegExp(process.env.ZUT_TEST_GREP));
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  const summary = { passes: 0, failures: 0, pending: 0, tests: [], files, vscode: require('vscode').version, node: process.version };
  try {
    await new Promise((resolve) => {
      const runner = mocha.run(() => resolve());
      // When each test began (ms since epoch): the runner prints what the host logged while a failed one ran.
      const began = new Map();
      runner.on('test', (t) => began.set(t, Date.now()));
      runner.on('hook', (h) => began.set(h, Date.now()));
      runner.on('pass', (t) => { summary.passes++; summary.tests.push({ title: t.fullTitle(), file: t.file && path.basename(t.file), state: 'passed', ms: t.duration }); });
      runner.on('fail', (t, err) => {
        summary.failures++;
        summary.tests.push({ title: t.fullTitle(), file: t.file && path.basename(t.file), state: 'failed', error: String((err && err.stack) || err), began: began.get(t), ended: Date.now() });
      });
      runner.on('pending', (t) => { summary.pending++; summary.tests.push({ title: t.fullTitle(), file: t.file && path.basename(t.file), state: 'pending' }); });
    });
  } catch (err) {
    // A test file that does not load (syntax error, throwing require) is a failure, not a crash of the runner.
    summary.failures++;
    summary.tests.push({ title: 'loading test files', state: 'failed', error: String((err && err.stack) || err) });
  }
  if (process.env.ZUT_TEST_RESULT_FILE) fs.writeFileSync(process.env.ZUT_TEST_RESULT_FILE, JSON.stringify(summary, null, 2));
  console.log(`ZUT-INHOST passes=${summary.passes} failures=${summary.failures} pending=${summary.pending}`);
  if (summary.failures > 0 || summary.pending > 0) throw new Error(`${summary.failures} test(s) failed, ${summary.pending} pending`);
};
