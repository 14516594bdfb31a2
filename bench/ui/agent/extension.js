// TEST ONLY (npm run bench:ui): runs measurement code inside the extension host for the benchmark driver
// (bench/ui/run.mjs). Listens on the Unix socket named by ZUT_BENCH_AGENT_SOCKET (set only by the driver) and does
// nothing without it. One request per line, {id, code, args}: `code` is the body of an async function of
// (vscode, args, require); the reply is {id, ok, value} or {id, ok: false, error}. Activates at startup ("*") so the
// driver can time the window from the extension host's start. With ZUT_BENCH_WATCH_PREFIX set it also records (in
// globalThis.__zutBenchWatch, epoch ms) when zut-vscode's API appeared, when every zut extension whose name starts
// with the prefix was running, and when ZUT_BENCH_WATCH_COMMAND first answered. With ZUT_BENCH_FLOOR_AT_START set it
// runs row 3's floor as it activates (floorAtStart). `@benchmin` is row 4's baseline of
// VS Code's own chat plumbing: a minimal participant doing one tool round by hand (model → the host's guarded call
// → model), none of @zut's loop.
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
  context.subscriptions.push(vscode.chat.createChatParticipant('zut-bench.min', minimalParticipant));
  context.subscriptions.push(vscode.commands.registerCommand('zutBench.floorPanel', floorPanel));
  if (process.env.ZUT_BENCH_WATCH_PREFIX) watch(process.env.ZUT_BENCH_WATCH_PREFIX, process.env.ZUT_BENCH_WATCH_COMMAND);
  if (process.env.ZUT_BENCH_FLOOR_AT_START) floorAtStart(process.env.ZUT_BENCH_FLOOR_AT_START);
  server.listen(address);
  context.subscriptions.push({ dispose: () => server.close() });
}

const epoch = () => performance.timeOrigin + performance.now();
/** @benchmin's round marks, named as zut-vscode's (src/host/chat/roundMarks.ts), for row 4's split of a round. */
const mark = (name) => (globalThis.__zutBenchMinMarks ??= []).push([name, epoch()]);

/**
 * ZUT_BENCH_PROFILE_DIR (bench:ui's window row, by hand): a CPU profile of this extension host from this agent's
 * activation until every watched extension runs, written there as exthost-<epoch ms>.cpuprofile with the marks
 * (epoch ms) beside it in .marks.json; `node bench/ui/profileSplit.mjs <file>` splits it by whose code ran.
 */
function startProfile() {
  const dir = process.env.ZUT_BENCH_PROFILE_DIR;
  if (!dir) return undefined;
  const inspector = require('inspector');
  const session = new inspector.Session();
  session.connect();
  const at = epoch();
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')));
  return (marks) => session.post('Profiler.stop', (err, r) => {
    if (!err) {
      const file = require('path').join(dir, `exthost-${Math.round(at)}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(r.profile));
      fs.writeFileSync(`${file}.marks.json`, JSON.stringify({ profileStartAt: at, ...marks }));
    }
    session.disconnect();
  });
}

/** Records when zut-vscode is up, when every `prefix*` extension runs and when `command` first answers. */
/**
 * Row 3's fair floor, in a window without zut-vscode: the same 20 programs spawned and handshaken (bench/ui/fixtures.mjs
 * `handshake`, the module `spec` names) as this extension activates at the window's start. In
 * globalThis.__zutBenchFloor: a promise of { ms } from the extension host process's start (performance.timeOrigin, as
 * row 3's ours counts from its own) to every one `ready`, or { error }.
 */
function floorAtStart(specFile) {
  globalThis.__zutBenchFloor = (async () => {
    const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
    const handshake = require(spec.module);
    await handshake(spec.folder, spec.names, process.env, { spawn: require('child_process').spawn, fs, path: require('path') });
    return { ms: epoch() - performance.timeOrigin };
  })().catch((e) => ({ error: String(e) }));
}

function watch(prefix, command) {
  const w = { agentAt: startedAt, apiAt: undefined, allRunningAt: undefined, firstCommandAt: undefined, running: 0, total: 0 };
  globalThis.__zutBenchWatch = w;
  const stopProfile = startProfile();
  let asked = false;
  const check = (host) => {
    const mine = host.extensions().filter((e) => e.name.startsWith(prefix));
    w.total = mine.length;
    w.running = mine.filter((e) => e.state === 'running').length;
    if (w.allRunningAt === undefined && mine.length > 0 && w.running === mine.length) {
      w.allRunningAt = epoch();
      stopProfile?.({ apiAt: w.apiAt, allRunningAt: w.allRunningAt });
    }
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
    // Stops listening once it has both marks: its own reads of the host must not count as zut-vscode's memory.
    const sub = host.onDidChangeExtensions(() => {
      check(host);
      if (w.allRunningAt !== undefined && asked) sub.dispose();
    });
    check(host);
  }, 5);
}

/**
 * `@benchmin call <tool> {json}`: sends the prompt to the request's model offering that one zut tool; each tool call
 * part goes straight to zut-vscode's `invokeTool` (the guarded path, as @zut's loop uses it); the result goes back
 * to the model in a second request, whose reply is streamed. One progress line per call, as @zut shows one.
 */
async function minimalParticipant(request, _context, stream, token) {
  const host = (await vscode.extensions.getExtension('zut.zut-vscode').activate()).host;
  const name = (/^call\s+([\w-]+)/.exec(request.prompt) || [])[1];
  const info = host.tools().find((t) => t.name === name);
  const tools = info ? [{ name: info.name, description: info.description || '', inputSchema: info.schema }] : [];
  // Row 4's like-for-like variant: also offer what VS Code lists for models (as @zut's default zut.chat.editorTools
  // "all" does), minus zut's own agent-mode tools.
  if (globalThis.__zutBenchMinAllTools) {
    for (const t of vscode.lm.tools) if (!t.name.startsWith('mcp_zut_') && t.name !== name) tools.push({ name: t.name, description: t.description, inputSchema: t.inputSchema });
  }
  const messages = [vscode.LanguageModelChatMessage.User(request.prompt)];
  for (let round = 0; round < 2; round++) {
    mark('modelSend');
    const r = await request.model.sendRequest(messages, { tools }, token);
    const calls = [];
    for await (const part of r.stream) {
      mark('modelPart');
      if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      else if (part instanceof vscode.LanguageModelTextPart) stream.markdown(part.value);
    }
    mark('modelEnd');
    if (calls.length === 0) break;
    messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
    const results = [];
    for (const c of calls) {
      stream.progress('Running ' + c.name + '…');
      const out = await host.invokeTool(c.name, c.input, { session: { id: 'bench-min' }, origin: 'chat', onStart: () => mark('toolStart') });
      mark('toolResolved');
      results.push(new vscode.LanguageModelToolResultPart(c.callId, out.content.map((b) => new vscode.LanguageModelTextPart(b.text || ''))));
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  globalThis.__zutBenchMinDone = request.prompt;   // bench/ui/inhost.mjs waits for it before the next round
  return {};
}

/**
 * Row 1's floor (a): VS Code's own webview messaging with nothing of ours. A minimal webview (the same DOM as
 * zut's panel: #lines of .line rows, .selected, body[data-seq], #footer) posts each key to this extension host, which
 * posts a 200-line frame (the same lines zut's panel gets) straight back; the page paints the rows that changed in
 * its message handler. No child process, no zut host. The footer carries the extension host's receive/send times.
 */
function floorPanel(n = 200) {
  const lines = (sel) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(`${i === sel ? '▸ ' : '  '}item ${String(i).padStart(3, '0')} · some text so the row is as wide as a real one`);
    return out;
  };
  const panel = vscode.window.createWebviewPanel('zutBench.floor', 'floor', { viewColumn: vscode.ViewColumn.Two, preserveFocus: true }, { enableScripts: true });
  let sel = 0;
  let seq = 0;
  panel.webview.onDidReceiveMessage((m) => {
    const recv = epoch();
    if (!m || m.type !== 'key') return;
    if (m.key === 'down') sel = (sel + 1) % n;
    else if (m.key === 'home') sel = 0;
    else return;
    const f = { type: 'render', seq: ++seq, title: 'floor', lines: lines(sel), footer: '' };
    f.footer = 't ' + recv.toFixed(3) + ' ' + epoch().toFixed(3);
    void panel.webview.postMessage(f);
  });
  panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline';">
<style>body{font-family:monospace;margin:0} #lines{white-space:pre;outline:none} .line.selected{background:#0060c0;color:#fff}</style></head>
<body data-floor="1" data-seq="0"><div id="lines" tabindex="0">${lines(0).map((l, i) => `<div class="line${i === 0 ? ' selected' : ''}">${l}</div>`).join('')}</div><div id="footer">ready</div>
<script>
const vscode = acquireVsCodeApi();
const linesEl = document.getElementById('lines');
const footer = document.getElementById('footer');
window.addEventListener('message', (e) => {
  const m = e.data;
  if (!m || m.type !== 'render') return;
  const rows = linesEl.children;
  for (let i = 0; i < m.lines.length; i++) {
    const row = rows[i];
    if (row.textContent !== m.lines[i]) row.textContent = m.lines[i];
    row.classList.toggle('selected', m.lines[i].startsWith('▸'));
  }
  footer.textContent = m.footer;
  document.body.dataset.seq = String(m.seq);
});
window.addEventListener('keydown', (e) => {
  const key = e.key === 'ArrowDown' ? 'down' : e.key === 'Home' ? 'home' : undefined;
  if (!key) return;
  e.preventDefault();
  vscode.postMessage({ type: 'key', key });
});
linesEl.focus();
</script></body></html>`;
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
