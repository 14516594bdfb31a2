// @ts-check
// In-host: the stable launcher and its two commands. "Copy MCP Client Configuration…" puts a snippet on the
// clipboard whose command (the launcher under the extension's global storage), run with its args exactly as given
// (the project's extensions pinned to their content), serves the workspace's tools over MCP on stdio. "Guard Agent Tools…" writes .github/hooks/zut.json; its
// PreToolUse command, run the way VS Code's hook executor runs it (a shell, cwd = home, env without VSCODE_*/GITHUB_*/
// COPILOT_*, JSON on stdin), is denied by the example guard running in this window (no second copy: a headless host
// would not start the project's guard without --allow-project), and Remove takes the entries out again.
'use strict';
const assert = require('assert');
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { eventually } = require('./util');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;

/** The environment VS Code's hook executor gives a hook: the extension host's, less VSCODE_*, GITHUB_*, COPILOT_*. */
function hookEnv() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VSCODE_|GITHUB_|COPILOT_)/.test(k)));
  delete env.ZUT_ALLOW_PROJECT; // a headless fallback could not start the project's guard
  env.ZUT_HOOK_WARM = '0'; // nor leave a warm host behind after the test
  return env;
}

/** Runs a hook command line as VS Code does; resolves with its exit code, output and wall time. */
function runHook(command, input) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, [], { shell: true, cwd: os.homedir(), env: hookEnv(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
    child.stdin.end(JSON.stringify(input));
  });
}

/** A newline-delimited JSON-RPC client over a child's stdio. */
function mcpClient(child) {
  let buf = '';
  const waiting = new Map();
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let msg;
      try { msg = JSON.parse(line); } catch { continue; }
      if (msg.id !== undefined && waiting.has(msg.id)) { waiting.get(msg.id)(msg); waiting.delete(msg.id); }
    }
  });
  let next = 1;
  return {
    request(method, params) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      });
    },
    notify(method, params) { child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n'); },
  };
}

suite('agent setup (launcher, Copy MCP Client Configuration, Guard Agent Tools)', function () {
  this.timeout(120000);
  let host;
  const created = [];

  suiteSetup(async () => {
    host = (await vscode.extensions.getExtension(ID).activate()).host;
    await eventually(() => ['weather', 'guard'].every((n) => host.extensions().some((e) => e.name === n && e.state === 'running')), 'weather and guard running', 30000);
  });

  suiteTeardown(() => {
    for (const d of created.reverse()) try { fs.rmdirSync(d); } catch { /* not empty: not ours alone */ }
  });

  test('Copy MCP Client Configuration: the snippet on the clipboard, run as given, serves the workspace tools', async () => {
    /** @type {any} */ const r = await vscode.commands.executeCommand('zut.copyMcpConfig', { client: 'vscode', folder: WS, allowProject: true });
    assert.ok(r, 'the command returned its snippet');
    const text = await vscode.env.clipboard.readText();
    assert.strictEqual(text, r.text);
    const config = JSON.parse(text);
    const names = Object.keys(config.servers);
    assert.strictEqual(names.length, 1);
    const server = config.servers[names[0]];
    assert.strictEqual(server.type, 'stdio');
    // The project's extensions pinned to their content now: one --pin per extension, the weather one among them.
    assert.deepStrictEqual(server.args.slice(0, 4), ['mcp', '--cwd', WS, '--allow-project']);
    const pins = server.args.slice(4);
    assert.ok(pins.length >= 2 && pins.every((a, i) => (i % 2 === 0 ? a === '--pin' : /^[^=]+=[0-9a-f]{64}$/.test(a))), `pins: ${JSON.stringify(pins)}`);
    assert.ok(pins.some((a) => a.startsWith('.zut/extensions/weather=')), `weather is pinned: ${JSON.stringify(pins)}`);
    assert.ok(path.isAbsolute(server.command) && /[\\/]globalStorage[\\/]zut\.zut-vscode[\\/]bin[\\/]zut-host(\.cmd)?$/i.test(server.command), `the launcher under global storage: ${server.command}`);
    console.log(`agent setup: launcher ${server.command}`);

    const child = spawn(server.command, server.args, { stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on('close', resolve));
    try {
      const mcp = mcpClient(child);
      /** @type {any} */ const init = await mcp.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'inhost', version: '1' } });
      assert.ok(init.result && init.result.capabilities.tools, `initialize answered: ${JSON.stringify(init)} ${stderr}`);
      mcp.notify('notifications/initialized', {});
      const tools = await eventually(async () => {
        /** @type {any} */ const list = await mcp.request('tools/list', {});
        const names = (list.result?.tools ?? []).map((t) => t.name);
        return names.includes('weather') && names.includes('forecast') && names;
      }, `the weather tools over MCP (stderr: ${stderr})`, 30000, 500);
      assert.ok(tools.includes('weather'));
    } finally {
      child.stdin.end();
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10000))]);
      if (!done) child.kill('SIGKILL');
    }
  });

  test("Copy MCP Client Configuration → Copilot CLI: zut's server written into $COPILOT_HOME/mcp-config.json beside the user's, then removed", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'copilot-home-'));
    const file = path.join(home, 'mcp-config.json');
    // The user's own server, on one line as they wrote it: kept byte for byte.
    const other = '"other": { "type": "local", "command": "other-server", "tools": ["*"] }';
    const mine = `{\n  "mcpServers": {\n    ${other}\n  }\n}\n`;
    fs.writeFileSync(file, mine, { mode: 0o600 });
    const was = process.env.COPILOT_HOME;
    process.env.COPILOT_HOME = home;
    try {
      /** @type {any} */ const w = await vscode.commands.executeCommand('zut.copyMcpConfig', { client: 'copilot-cli', action: 'write', folder: WS });
      assert.ok(w && w.client === 'copilot-cli', `the command said what it wrote: ${JSON.stringify(w)}`);
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.includes(other), `the user's entry kept as written: ${text}`);
      const servers = JSON.parse(text).mcpServers;
      assert.deepStrictEqual(servers.other, { type: 'local', command: 'other-server', tools: ['*'] });
      assert.strictEqual(servers.zut.type, 'local');
      assert.deepStrictEqual(servers.zut.tools, ['*']);
      assert.strictEqual(servers.zut.args[0], 'mcp');
      assert.ok(path.isAbsolute(servers.zut.command) && /[\\/]zut-host(\.cmd)?$/i.test(servers.zut.command), `the stable launcher: ${servers.zut.command}`);
      assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600, 'the file keeps its mode');
      /** @type {any} */ const r = await vscode.commands.executeCommand('zut.copyMcpConfig', { client: 'copilot-cli', action: 'remove', folder: WS });
      assert.ok(r && r.client === 'copilot-cli', `the command said what it removed: ${JSON.stringify(r)}`);
      const after = JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers;
      assert.deepStrictEqual(Object.keys(after), ['other']);
    } finally {
      if (was === undefined) delete process.env.COPILOT_HOME;
      else process.env.COPILOT_HOME = was;
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('Guard Agent Tools: the written PreToolUse command is denied by the guard running here; Remove takes it out', async () => {
    const file = path.join(WS, '.github', 'hooks', 'zut.json');
    assert.ok(!fs.existsSync(file), 'no hook file before');
    for (const d of [path.join(WS, '.github'), path.join(WS, '.github', 'hooks')]) if (!fs.existsSync(d)) created.push(d);
    const args = { agent: 'vscode', scope: 'workspace', folder: WS };
    /** @type {any} */ const written = await vscode.commands.executeCommand('zut.guardAgentTools', { ...args, action: 'install' });
    try {
      assert.deepStrictEqual(written, { file, action: 'install', entries: 6 });
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      const entry = json.hooks.PreToolUse.find((e) => /zut-host/.test(e.command));
      assert.ok(entry, `our PreToolUse entry: ${JSON.stringify(json)}`);
      assert.match(entry.command, /[\\/]globalStorage[\\/]zut\.zut-vscode[\\/]bin[\\/]zut-host(\.cmd)?'? hook --agent vscode PreToolUse$/i);

      const guard = () => host.extensions().find((e) => e.name === 'guard');
      const before = { pid: guard().pid, restarts: guard().restarts };
      const times = [];
      const bare = []; // a bare `node -e 0` the same way, alternating: what any hook command costs here
      for (let i = 0; i < 10; i++) {
        bare.push((await runHook(`'${process.execPath.replaceAll("'", `'\\''`)}' -e 0`, {})).ms);
        const id = `inhost-hook-${Date.now()}-${i}`;
        const input = { hook_event_name: 'PreToolUse', session_id: 's1', cwd: WS, tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /tmp/x', explanation: 'x', isBackground: false }, tool_use_id: id, timestamp: new Date().toISOString() };
        const r = await runHook(entry.command, input);
        assert.strictEqual(r.code, 0, `exit 0 (stderr: ${r.stderr})`);
        const out = JSON.parse(r.stdout);
        assert.strictEqual(out.hookSpecificOutput.permissionDecision, 'deny', r.stdout);
        assert.match(out.hookSpecificOutput.permissionDecisionReason, /^blocked by guard: /);
        // The window's guard saw it (its log names the call) and is the same process as before.
        const log = await eventually(() => fs.readFileSync(guard().logPath, 'utf8').includes(`(${id})`), `the guard's log naming ${id}`, 5000);
        assert.ok(log);
        times.push(r.ms);
      }
      assert.deepStrictEqual({ pid: guard().pid, restarts: guard().restarts }, before, 'no restart, no second copy');
      const stats = (a) => { const x = [...a].sort((p, q) => p - q); return `p50 ${x[Math.floor(x.length / 2)].toFixed(0)} ms, min ${x[0].toFixed(0)}, max ${x[x.length - 1].toFixed(0)}`; };
      console.log(`agent setup: hook command through the launcher (deny from the window): ${stats(times)}; bare node -e 0 the same way: ${stats(bare)}`);
      const out = process.env.ZUT_TEST_RESULT_FILE && path.join(path.dirname(process.env.ZUT_TEST_RESULT_FILE), 'agent-hook-times.json');
      if (out) fs.writeFileSync(out, JSON.stringify({ command: entry.command, ms: times, bareNodeMs: bare }, null, 2));
    } finally {
      /** @type {any} */ const removed = await vscode.commands.executeCommand('zut.guardAgentTools', { ...args, action: 'remove' });
      assert.deepStrictEqual(removed, { file, action: 'remove', entries: 6 });
    }
    assert.ok(!fs.existsSync(file), 'the file we made is gone');
  });
});
