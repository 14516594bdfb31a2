// TEST ONLY (npm run bench:ui): runs measurement code inside the extension host for the benchmark driver
// (bench/ui/run.mjs). Listens on the Unix socket named by ZUT_BENCH_AGENT_SOCKET (set only by the driver) and does
// nothing without it. One request per line, {id, code, args}: `code` is the body of an async function of
// (vscode, args, require); the reply is {id, ok, value} or {id, ok: false, error}. Activates at startup ("*") so the
// driver can time the window from the extension host's start. With ZUT_BENCH_WATCH_PREFIX set it also records (in
// globalThis.__zutBenchWatch, epoch ms) when zut-vscode's API appeared, when every zut extension whose name starts
// with the prefix was running, and when ZUT_BENCH_WATCH_COMMAND first answered.
'use strict';
const fs = require('fs');
const net = require('net');
const vscode = require('vscode');

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
const startedAt = performance.timeOrigin + performance.now();

function activate(context) {
  const address = process.env.ZUT_BENCH_AGENT_SOCKET;
  if (!address) return;
  globalThis.__zutBenchAgent = { startedAt, hostOrigin: performance.timeOrigin };
  try { fs.rmSync(address, { force: true }); } catch { /* not there */ }
  const server = net.createServer((socket) => {
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        void handle(socket, line);
      }
    });
    socket.on('error', () => { /* the driver went away */ });
  });
  if (process.env.ZUT_BENCH_WATCH_PREFIX) watch(process.env.ZUT_BENCH_WATCH_PREFIX, process.env.ZUT_BENCH_WATCH_COMMAND);
  server.listen(address);
  context.subscriptions.push({ dispose: () => server.close() });
}

const epoch = () => performance.timeOrigin + performance.now();

/** Records when zut-vscode is up, when every `prefix*` extension runs and when `command` first answers. */
function watch(prefix, command) {
  const w = { agentAt: startedAt, apiAt: undefined, allRunningAt: undefined, firstCommandAt: undefined, running: 0, total: 0 };
  globalThis.__zutBenchWatch = w;
  let asked = false;
  const check = (host) => {
    const mine = host.extensions().filter((e) => e.name.startsWith(prefix));
    w.total = mine.length;
    w.running = mine.filter((e) => e.state === 'running').length;
    if (w.allRunningAt === undefined && mine.length > 0 && w.running === mine.length) w.allRunningAt = epoch();
    if (command && !asked && host.commands().some((c) => c.name === command)) {
      asked = true;
      host.invokeCommand(command, '').then(() => { w.firstCommandAt = epoch(); }, (e) => { w.commandError = String(e); });
    }
  };
  // Polled (5 ms) until zut-vscode is active: activating it here would change what is measured.
  const timer = setInterval(() => {
    const ext = vscode.extensions.getExtension('zut.zut-vscode');
    if (!ext || !ext.isActive || !ext.exports || !ext.exports.host) return;
    clearInterval(timer);
    w.apiAt = epoch();
    const host = ext.exports.host;
    host.onDidChangeExtensions(() => check(host));
    check(host);
  }, 5);
}

async function handle(socket, line) {
  let id;
  try {
    const req = JSON.parse(line);
    id = req.id;
    const value = await new AsyncFunction('vscode', 'args', 'require', req.code)(vscode, req.args, require);
    socket.write(JSON.stringify({ id, ok: true, value: value === undefined ? null : value }) + '\n');
  } catch (e) {
    socket.write(JSON.stringify({ id, ok: false, error: e && e.stack ? e.stack : String(e) }) + '\n');
  }
}

module.exports = { activate, deactivate() {} };
