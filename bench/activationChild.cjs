// `npm run bench`'s activation row (bench/activation.ts): loads one extension's entry file (argv[2]) in this fresh
// Node process with a stand-in `vscode` module (every API name of @types/vscode, each a recursive no-op Proxy whose
// calls return more of the same, configuration reads returning their defaults, no workspace folders), then calls
// its activate() with a stand-in context (its global storage: ZUT_BENCH_STORAGE, else a fresh folder). Prints
// {loadMs, activateMs, resolvedMs, split, err}: the time to require the file (VS Code's "code loading"), the
// activate() call, the call's start → its promise resolved, and (ours) where that went, by this process's clock.
// ZUT_HOME points at an empty temporary folder.
'use strict';
const { stub, vscodeStandIn } = require('../test/helpers/vscodeStandIn.cjs');
const Module = require('module');
const path = require('path');
const os = require('os');
const fs = require('fs');
const vscode = vscodeStandIn();
const orig = Module._load;
Module._load = function (req, ...rest) { return req === 'vscode' ? vscode : orig.call(this, req, ...rest); };
const file = process.argv[2];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-act-'));
// The extension's global storage (where dist/main.js keeps its code cache): ZUT_BENCH_STORAGE when the bench keeps
// one across runs, else a fresh one (a first activation).
const storage = process.env.ZUT_BENCH_STORAGE || dir;
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
process.env.ZUT_HOME = dir;
const t0 = performance.now();
const m = require(file);
const t1 = performance.now();
const ctx = new Proxy({ subscriptions: [], extension: { packageJSON: { version: 'bench' }, id: 'x' }, extensionPath: dir, extensionUri: { fsPath: dir }, globalStorageUri: { fsPath: storage }, storageUri: undefined, logUri: { fsPath: dir }, globalStoragePath: dir },
  { get(t, k) { return k in t ? t[k] : stub(); } });
let err;
let returned;
try { returned = m.activate(ctx); } catch (e) { err = String(e && e.stack || e); }
const t2 = performance.now();
// dist/main.js's activate() returns a promise at once and does its work in the tasks after (src/main.ts): the time
// until it resolves is that work, and its result's `timings` say where it went (the hello-world returns nothing).
Promise.resolve(returned).then((v) => v, (e) => { err = String(e && e.stack || e); }).then((v) => {
  const t3 = performance.now();
  const timings = v && typeof v === 'object' && v.timings && typeof v.timings === 'object' ? v.timings : undefined;
  const split = timings && { waitMs: timings.waitMs, bundleLoadMs: timings.bundleLoadMs, innerActivateMs: timings.activateMs, codeCache: timings.codeCache };
  console.log(JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, resolvedMs: t3 - t1, split, err }));
  // ZUT_BENCH_LINGER_MS: stay that long (what dist/main.js does after activation, e.g. writing its cache, happens).
  setTimeout(() => process.exit(0), Number(process.env.ZUT_BENCH_LINGER_MS) || 0);
});
