// @ts-check
// In-host: zot extensions (protocol v1; test/fixtures/zot, loaded through zut.extensionPaths) in a real VS Code:
// `tool_prompt` from `@zut /command` runs its tool before the model turn and the model sees call and result;
// `before_agent_start` replaces the @zut system prompt; `call_tool` reaches one of VS Code's own tools
// (vscode.lm.invokeTool: `zutTest_echo`, contributed by the scripted-model test extension as Copilot Chat contributes
// its tools; agent mode's MCP tools are listed beside it, agentTools.test.js).
'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { askZut, eventually } = require('./util');

const ZOT = path.resolve(__dirname, '../../fixtures/zot');
const ask = (query) => askZut(query);

suite('zot extensions in VS Code', function () {
  let host;
  const config = () => vscode.workspace.getConfiguration('zut');

  suiteSetup(async function () {
    const scripted = vscode.extensions.getExtension('zut-test.scripted-model');
    await scripted.activate();
    host = (await vscode.extensions.getExtension('zut.zut-vscode').activate()).host;
    await config().update('extensionPaths', [path.join(ZOT, 'zot-node'), path.join(ZOT, 'zot-py')], vscode.ConfigurationTarget.Global);
    // Running with their registrations in (a registration window may close on silence before they come), and the
    // host settled: a load still under way (a change on disk from an earlier suite) would restart them under a test.
    const registered = { 'zot-node': 'zrelay', 'zot-py': 'py_upper' };
    await eventually(() => Object.entries(registered).every(([n, name]) => host.extensions().some((e) => e.name === n && e.state === 'running' && [...e.commands, ...e.tools].some((r) => r.name === name))), 'both zot fixtures running, registered', 60000);
    await host.whenSettled(Date.now() + 30000);
  });

  suiteTeardown(async function () {
    await config().update('extensionPaths', undefined, vscode.ConfigurationTarget.Global);
    await eventually(() => !host.extensions().some((e) => e.name === 'zot-node' || e.name === 'zot-py'), 'the zot fixtures gone', 60000);
  });

  test('they speak zot v1', () => {
    const node = host.extensions().find((e) => e.name === 'zot-node');
    assert.strictEqual(node.protocol, 'zot');
    assert.deepStrictEqual(node.interceptions, ['before_agent_start']);
  });

  test('@zut /zshortcut: tool_prompt runs py_upper first; the model sees prompt, call and result; the system prompt is zot-node\'s', async () => {
    const { requests } = await ask('/zshortcut quiet please');
    assert.strictEqual(requests.length, 1, JSON.stringify(requests, null, 1));
    const msgs = requests[0].messages;
    assert.match(msgs[0].parts[0].value, /\[zot-node\] Answer in English\./, 'before_agent_start replaced the preamble');
    const tail = msgs.slice(-3);
    // The workspace's guard adds its turn_start context to the last message of each request (after the result).
    assert.deepStrictEqual(tail.map((m) => [m.role, m.parts[0].type]), [['user', 'text'], ['assistant', 'toolCall'], ['user', 'toolResult']]);
    assert.ok(tail[2].parts.slice(1).every((p) => p.type === 'text' && p.value.includes('[guard]')), JSON.stringify(tail[2].parts));
    assert.strictEqual(tail[0].parts[0].value, 'and summarise it');
    assert.strictEqual(tail[1].parts[0].name, 'py_upper');
    assert.deepStrictEqual(tail[1].parts[0].input, { text: 'quiet please' });
    assert.strictEqual(tail[2].parts[0].content[0].value, 'QUIET PLEASE');
  });

  test('call_tool reaches a VS Code tool through vscode.lm.invokeTool (after the guards)', async () => {
    assert.ok(vscode.lm.tools.some((t) => t.name === 'zutTest_echo'), 'the test tool is registered');
    const r = await host.invokeCommand('zrelay', 'zutTest_echo {"a":1}');
    assert.deepStrictEqual(JSON.parse(r.display), { name: 'zutTest_echo', is_error: false, text: 'vscode echo: {"a":1}', truncated: false });
  });
});
