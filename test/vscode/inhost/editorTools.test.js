// @ts-check
// In-host: VS Code's own tools in @zut (issue 21). The scripted model calls `run_in_terminal` through @zut; the call
// takes zut's guarded path as `bash` (a guard written for zut, test/vscode/fixtures/zut/bash-guard, loaded through
// zut.extensionPaths) and then goes to `vscode.lm.invokeTool` with the chat request's token, so VS Code asks for its
// own confirmation in that chat. The tests allow it with VS Code's Accept action (`workbench.action.chat.acceptTool`,
// Ctrl+Enter in the Chat view; the UI suite clicks the button). VS Code's auto-approve is not used: in 1.139 an
// auto-approved command still waits for a one-time opt-in (`chat.tools.terminal.autoApprove.warningAccepted`, kept in
// the browser's storage), which is why a call without an Accept never returned here.
'use strict';
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { askZut, eventually, modelRequests, recentResponses, shownText } = require('./util');

const GUARD = path.resolve(__dirname, '../fixtures/zut/bash-guard');

/** The text of the tool result in the model's last request. */
function toolResultText(requests) {
  const last = requests[requests.length - 1];
  const msg = last.messages[last.messages.length - 1];
  const r = msg.parts.find((p) => p.type === 'toolResult');
  assert.ok(r, `no tool result in ${JSON.stringify(msg)}`);
  return r.content.map((c) => c.value || '').join('');
}

const terminalCall = (command) => `call run_in_terminal ${JSON.stringify({ command, explanation: 'zut in-host test', goal: 'test', mode: 'sync' })}`;
/** What bash-guard was asked so far. */
const guardSaw = async (host) => JSON.parse((await host.callTool('bash_guard_seen', {})).content[0].text);

/**
 * Sends `@zut <terminalCall(command)>` and allows VS Code's confirmation once bash-guard has passed the call on:
 * first checks for `pendingMs` that the model got nothing back meanwhile (the call waits for the confirmation), then
 * presses Accept until the response ends. Resolves like askZut.
 */
async function askAllowing(host, command, pendingMs = 3000) {
  const requestsBefore = (await modelRequests()).length;
  const asked = askZut(terminalCall(command), 60000);
  await eventually(async () => (await guardSaw(host)).some((s) => s.kind === 'intercept' && s.tool_args.command === command), 'bash-guard asked', 30000);
  await new Promise((r) => setTimeout(r, pendingMs));
  const waited = (await modelRequests()).length - requestsBefore;
  let done = false;
  void asked.finally(() => { done = true; });
  while (!done) {
    await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    await new Promise((r) => setTimeout(r, 500));
  }
  return { ...(await asked), waited };
}

suite('@zut with VS Code tools (run_in_terminal under zut guards)', function () {
  let host;
  const zut = () => vscode.workspace.getConfiguration('zut');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-editor-tools-'));

  suiteSetup(async function () {
    this.timeout(90000);
    await vscode.extensions.getExtension('zut-test.scripted-model').activate();
    host = (await vscode.extensions.getExtension('zut.zut-vscode').activate()).host;
    await zut().update('extensionPaths', [GUARD], vscode.ConfigurationTarget.Global);
    await eventually(() => host.extensions().some((e) => e.name === 'bash-guard' && e.state === 'running'), 'bash-guard running', 60000);
    // The setting reloads every extension: the examples' tools come back after bash-guard's, on their own time.
    await eventually(() => host.tools().some((t) => t.name === 'weather'), 'weather registered again', 60000);
  });

  suiteTeardown(async function () {
    this.timeout(90000);
    await zut().update('extensionPaths', undefined, vscode.ConfigurationTarget.Global);
    await eventually(() => !host.extensions().some((e) => e.name === 'bash-guard'), 'bash-guard gone', 60000);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('run_in_terminal is offered beside the zut tools; our own agent-mode tools and *_internal are not', async function () {
    const { requests } = await askZut('say hello');
    const offered = requests[0].tools;
    assert.ok(offered.includes('run_in_terminal'), `offered: ${offered}`);
    assert.ok(offered.includes('weather'), 'zut tools are still there');
    assert.ok(!offered.some((n) => n.startsWith('mcp_zut_')), `own agent-mode tools: ${offered}`);
    assert.ok(!offered.some((n) => /_internal$/.test(n)), `internal tools: ${offered}`);
  });

  test('a guard blocking bash rm -rf blocks run_in_terminal: the model reads the reason, nothing runs', async function () {
    const marker = path.join(dir, `ran-${crypto.randomUUID()}`);
    const command = `printf x > ${marker}; rm -rf ${path.join(dir, 'nothing')}`;
    const { requests, text } = await askZut(terminalCall(command), 55000);
    assert.strictEqual(toolResultText(requests), '[tool error] blocked by bash-guard: no rm -rf here');
    assert.match(text, /⛔ `run_in_terminal` \(`vscode`\): blocked by bash-guard: no rm -rf here/);
    const seen = await guardSaw(host);
    assert.ok(seen.some((s) => s.kind === 'intercept' && s.tool_name === 'bash' && s.editor_tool === 'run_in_terminal' && s.tool_args.command === command), JSON.stringify(seen));
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(!fs.existsSync(marker), 'the command never ran');
  });

  test("an allowed run_in_terminal's output comes back to the model: VS Code ran the command", async function () {
    this.timeout(90000);
    const token = `zut-token-${crypto.randomUUID()}`;
    const { requests, text, waited } = await askAllowing(host, `echo ${token}`);
    // One model request (the user's) before the Accept: the tool waited for VS Code's confirmation.
    assert.strictEqual(waited, 1, 'the model got a result before the confirmation was accepted');
    const result = toolResultText(requests);
    assert.match(result, new RegExp(`(^|\\n)${token}(\\r?\\n|$)`), result);
    assert.ok(!result.startsWith('[tool error]'), result);
    assert.match(text, new RegExp(`model got: [\\s\\S]*${token}`), text);
  });

  test('a guard rewriting bash.command changes what the terminal runs', async function () {
    this.timeout(90000);
    const id = crypto.randomUUID();
    const { requests } = await askAllowing(host, `echo ZUT_REWRITE-${id}`, 0);
    const result = toolResultText(requests);
    assert.match(result, new RegExp(`rewritten-${id}`), result);
    assert.ok(!result.includes(`ZUT_REWRITE-${id}`), `the original command ran: ${result}`);
  });

  test("Stop while run_in_terminal runs cancels it in VS Code's tool: the response ends promptly, the tool call is cancelled", async function () {
    this.timeout(90000);
    const id = crypto.randomUUID();
    // The command says it started (a file): what the test waits on, whether or not the terminal's shell integration
    // reports the execution (onDidStartTerminalShellExecution did not fire under load, and the test waited for nothing).
    const started = path.join(os.tmpdir(), `zut-started-${id}`);
    const command = `touch '${started}'; sleep 30; echo zut-slept-${id}`;
    void vscode.commands.executeCommand('workbench.action.chat.open', { query: `@zut ${terminalCall(command)}`, modelSelector: { vendor: 'zut-test', id: 'scripted' } });
    // Accept VS Code's confirmation (it may show a moment after the guard passed the call) until the command runs,
    // then Stop.
    await eventually(async () => (await guardSaw(host)).some((s) => s.kind === 'intercept' && s.tool_args.command === command), 'bash-guard asked', 30000);
    await eventually(async () => {
      if (fs.existsSync(started)) return true;
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
      return fs.existsSync(started);
    }, 'the terminal running the command', 30000, 500);
    fs.rmSync(started, { force: true });
    await new Promise((r) => setTimeout(r, 1000));
    const stopped = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    // By its unique prompt: the participant keeps only its last responses, so an index taken before can point past
    // the end once the list is full (after the earlier suites' requests).
    const response = await eventually(async () => (await recentResponses()).find((r) => r.prompt.includes(id)), 'the cancelled response', 30000);
    assert.ok(Date.now() - stopped < 10000, `the response ended ${Date.now() - stopped} ms after Stop`);
    const text = shownText(response);
    assert.match(text, /run_in_terminal.*cancelled/s, text);
    assert.ok(!text.includes(`zut-slept-${id}`), text);
  });
});
