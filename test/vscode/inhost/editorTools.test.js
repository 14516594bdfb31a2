// @ts-check
// In-host: VS Code's own tools in @zut (issue 21). The scripted model calls `run_in_terminal` through @zut; the call
// takes zut's guarded path as `bash` (a guard written for zut, test/vscode/fixtures/zut/bash-guard, loaded through
// zut.extensionPaths) and then goes to `vscode.lm.invokeTool` with the chat request's token. VS Code's confirmation is
// skipped with its own auto-approve settings (`chat.tools.terminal.enableAutoApprove` and a
// `chat.tools.terminal.autoApprove` rule for the test's command).
// Seen here (code-server 4.139.1, no Copilot): VS Code accepts the call and shows "Ran <command>" in the chat, but
// its terminal tool never creates a terminal and never returns, so a command's output cannot be asserted in this
// environment; the unit tests (test/unit/chatEditorTools.test.ts) cover echo and rewrite with a fake editor port.
'use strict';
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { askZut, eventually, recentResponses, shownText } = require('./util');

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

suite('@zut with VS Code tools (run_in_terminal under zut guards)', function () {
  let host;
  const zut = () => vscode.workspace.getConfiguration('zut');
  const chatTools = () => vscode.workspace.getConfiguration('chat.tools.terminal');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-editor-tools-'));

  suiteSetup(async function () {
    this.timeout(90000);
    await vscode.extensions.getExtension('zut-test.scripted-model').activate();
    host = (await vscode.extensions.getExtension('zut.zut-vscode').activate()).host;
    await chatTools().update('enableAutoApprove', true, vscode.ConfigurationTarget.Global);
    await chatTools().update('autoApprove', { '/^echo zut-/': true }, vscode.ConfigurationTarget.Global);
    await zut().update('extensionPaths', [GUARD], vscode.ConfigurationTarget.Global);
    await eventually(() => host.extensions().some((e) => e.name === 'bash-guard' && e.state === 'running'), 'bash-guard running', 60000);
    // The setting reloads every extension: the examples' tools come back after bash-guard's, on their own time.
    await eventually(() => host.tools().some((t) => t.name === 'weather'), 'weather registered again', 60000);
  });

  suiteTeardown(async function () {
    this.timeout(90000);
    await zut().update('extensionPaths', undefined, vscode.ConfigurationTarget.Global);
    await chatTools().update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await chatTools().update('enableAutoApprove', undefined, vscode.ConfigurationTarget.Global);
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

  test("an allowed call goes on to VS Code's tool; Stop cancels it there and the response ends", async function () {
    this.timeout(90000);
    const id = crypto.randomUUID();
    const seenBefore = (await recentResponses()).length;
    // Not awaited: VS Code's terminal tool does not return here (see the header); Stop ends it.
    void vscode.commands.executeCommand('workbench.action.chat.open', { query: `@zut ${terminalCall(`echo ZUT_REWRITE-${id}`)}`, modelSelector: { vendor: 'zut-test', id: 'scripted' } });
    await eventually(async () => (await guardSaw(host)).some((s) => s.kind === 'intercept' && s.tool_args.command === `echo ZUT_REWRITE-${id}`), 'bash-guard asked', 30000);
    await new Promise((r) => setTimeout(r, 3000));
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const response = await eventually(async () => (await recentResponses()).slice(seenBefore).find((r) => r.prompt.includes(id)), 'the cancelled response', 30000);
    const text = shownText(response);
    assert.match(text, /run_in_terminal.*cancelled/s, text);
  });
});
