// @ts-check
// In-host: zut tools in VS Code's agent-mode plumbing (vscode.lm.tools / vscode.lm.invokeTool) through our MCP server
// definition, the relay script and the extension host's relay socket. The example `weather` tools are read-only
// (annotations.readOnlyHint), so invoking them without a chat token needs no confirmation dialog.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { eventually } = require('./util');

const ID = 'zut.zut-vscode';

/** Our MCP tools' common prefix (`mcp_…_`), found from the one tool whose name is unique: `forecast`. */
const prefix = () => {
  const f = vscode.lm.tools.find((t) => (t.tags || []).includes('mcp') && t.name.startsWith('mcp_') && t.name.endsWith('_forecast'));
  return f && f.name.slice(0, -'forecast'.length);
};
/** The agent-mode (MCP) tool for a zut tool name, tagged `mcp`. */
const mcpTool = (name) => prefix() && vscode.lm.tools.find((t) => t.name === prefix() + name && (t.tags || []).includes('mcp'));
/** The agent-mode (MCP) tool whose name ends in `_<name>`, whatever the prefix (for a tool that may be gone). */
const mcpEnding = (name) => vscode.lm.tools.find((t) => (t.tags || []).includes('mcp') && t.name.startsWith('mcp_') && t.name.endsWith(`_${name}`));
const mcpNames = () => vscode.lm.tools.filter((t) => (t.tags || []).includes('mcp')).map((t) => t.name).join(', ');

async function startServers() {
  await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
}

/**
 * Waits until `check()` holds, (re)starting the MCP servers on each poll, as a chat request's autostart does: a start
 * that overlaps a definition change (extensions still registering tools) is stopped by VS Code, and
 * `startServer … waitForLiveTools` then resolves without tools.
 */
async function eventuallyLive(check, what) {
  try {
    return await eventually(async () => {
      if (check()) return check();
      await startServers();
      return check();
    }, what, 60000, 1000);
  } catch (e) {
    return assert.fail(`${e.message} (mcp tools now: ${mcpNames()})`);
  }
}

/** Waits until `check()` holds WITHOUT starting any server (the running one must keep its list current). */
async function eventuallyListed(check, what) {
  try {
    return await eventually(check, what, 20000);
  } catch (e) {
    return assert.fail(`${e.message} (mcp tools now: ${mcpNames()})`);
  }
}

function partsText(result) {
  return result.content.filter((p) => p instanceof vscode.LanguageModelTextPart || typeof p.value === 'string').map((p) => p.value).join('');
}

/** Invokes an agent-mode tool without a chat token; an error result may arrive as a throw. */
async function invoke(name, input) {
  try {
    const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    return { result: r, text: partsText(r) };
  } catch (e) {
    return { error: e, text: String(e && e.message) };
  }
}

suite('agent mode (MCP bridge)', function () {
  this.timeout(120000);
  let host;

  suiteSetup(async () => {
    host = (await vscode.extensions.getExtension(ID).activate()).host;
    await eventually(() => host.extensions().some((e) => e.name === 'weather' && e.state === 'running') && host.extensions().some((e) => e.name === 'guard' && e.state === 'running'), 'weather and guard running', 30000);
    await startServers();
  });

  test('the zut tools appear in vscode.lm.tools; invokeTool returns a zut tool text and image', async () => {
    const weather = await eventuallyLive(() => mcpTool('weather'), 'mcp weather tool in vscode.lm.tools');
    assert.ok(mcpTool('forecast'), 'forecast too');
    assert.ok(!mcpTool('weather_alerts'), 'the deferred tool is not offered before activate_tools');
    const r = await vscode.lm.invokeTool(weather.name, { input: { city: 'Berlin' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    assert.match(partsText(r), /Berlin: 16°C, fog/);
    // LanguageModelDataPart is newer than the @types/vscode the checker reads: looked up untyped.
    const image = /** @type {any[]} */ (r.content).find((p) => p instanceof /** @type {any} */ (vscode).LanguageModelDataPart || (p && p.mimeType === 'image/png'));
    assert.ok(image, `an image part (got ${r.content.map((p) => p.constructor && p.constructor.name).join(', ')})`);
    assert.strictEqual(image.mimeType, 'image/png');
    assert.strictEqual(Buffer.from(image.data).subarray(1, 4).toString(), 'PNG');
    // details were filed under a session of their own, not the palette's nor a global one.
    const branches = Object.keys(host.exportState()).filter((b) => host.getState(b, 'weather'));
    assert.ok(branches.length >= 1 && !branches.includes('') && !branches.includes('zut-palette'), `state branches: ${branches}`);
  });

  test('a guard blocks a call made through agent-mode plumbing', async () => {
    const weather = await eventuallyLive(() => mcpTool('weather'), 'mcp weather tool');
    const { text } = await invoke(weather.name, { city: 'rm -rf /' });
    assert.match(text, /blocked by guard: refused: matches danger pattern "rm -rf"/);
  });

  test("a zut extension's skill in VS Code's agent: the skill tool lists its name and description, invokeTool loads its SKILL.md", async () => {
    await eventually(() => host.extensions().some((e) => e.name === 'briefing' && e.state === 'running'), 'briefing running', 30000);
    const skill = await eventuallyLive(() => mcpTool('skill'), 'the mcp skill tool in vscode.lm.tools');
    assert.match(skill.description, /- weather-briefing \(from briefing\): Write a short travel weather briefing for one or more cities/);
    assert.deepStrictEqual(skill.inputSchema.properties.name.enum, ['weather-briefing']);
    // readOnlyHint: VS Code runs it without a confirmation; the body arrives only now, on demand.
    const { text } = await invoke(skill.name, { name: 'weather-briefing' });
    const folder = fs.realpathSync(path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.zut', 'extensions', 'briefing', 'skills', 'weather-briefing'));
    assert.strictEqual(text.split('\n')[0], `Skill "weather-briefing" of the zut extension briefing. Paths in it are relative to ${folder}.`);
    assert.match(text, /# Weather briefing/);
    // Stopped, its skill goes: the running server hears list_changed (no restart) and the tool leaves the list.
    await host.stopExtension('briefing');
    try {
      await eventuallyListed(() => !mcpEnding('skill'), 'the skill tool gone with its extension');
    } finally {
      await host.startExtension('briefing');
    }
    await eventuallyListed(() => mcpTool('skill'), 'the skill tool back');
  });

  test('adding an extension updates the list (and zut.agentTools.exclude removes a tool)', async () => {
    await eventuallyLive(() => mcpTool('weather'), 'the server live');
    const dir = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, '.zut', 'extensions', 'agent-probe');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'probe.js'), [
      "const rl = require('readline').createInterface({ input: process.stdin });",
      "const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');",
      "out({ type: 'hello', protocol_version: 2, name: 'agent-probe', version: '1.0.0', capabilities: ['tools'] });",
      "rl.on('line', (l) => { const m = JSON.parse(l);",
      "  if (m.type === 'hello_ack') { out({ type: 'register_tool', name: 'probe_ping', description: 'ping', schema: { type: 'object' }, annotations: { readOnlyHint: true } }); out({ type: 'ready' }); }",
      "  if (m.type === 'tool_call') out({ type: 'tool_result', id: m.id, content: [{ type: 'text', text: 'pong' }] });",
      "  if (m.type === 'shutdown') { out({ type: 'shutdown_ack' }); process.exit(0); } });",
    ].join('\n'));
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'agent-probe', version: '1.0.0', exec: process.execPath, args: ['probe.js'] }));
    try {
      await host.reload();
      await eventually(() => host.tools().some((t) => t.name === 'probe_ping'), 'probe_ping registered', 30000);
      // Nobody starts the server again: the running one hears tools/list_changed (VS Code stops a running server whose
      // definition version changed and keeps listing its cached tools until something starts it).
      const probe = await eventuallyListed(() => mcpTool('probe_ping'), 'probe_ping in vscode.lm.tools (no restart)');
      assert.strictEqual((await invoke(probe.name, {})).text, 'pong');

      await vscode.workspace.getConfiguration('zut').update('agentTools.exclude', ['probe_ping'], vscode.ConfigurationTarget.Global);
      await eventuallyListed(() => !mcpEnding('probe_ping'), 'probe_ping gone after exclude (no restart)');
      assert.ok(mcpTool('weather'), 'the others stay');
    } finally {
      await vscode.workspace.getConfiguration('zut').update('agentTools.exclude', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
      await host.reload();
    }
  });
});
