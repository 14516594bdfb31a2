// @ts-check
// In-host: zut's tools reach VS Code's agent on each route (src/ui-model/agentRoute.ts), never twice: the MCP server
// definition provider (`dist/mcp-relay.js`), or zut's agent plugin (contributes.chatPlugins → agent-plugin/, its
// `.mcp.json` running `zut-host mcp --window` through the launcher, relayed to this window's host). Each route: the
// server VS Code started is the route's own (a child of this extension host), every zut tool is offered once, a call
// runs, a guard blocks, and the skill tool lists the skill. VS Code's Agent Host harnesses cannot run a session here
// (no sign-in): what they would get is the plugin, whose MCP server is the one this test starts.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { chatPluginsSupported, eventually } = require('./util');

const ID = 'zut.zut-vscode';
const mcpTools = () => vscode.lm.tools.filter((t) => (t.tags || []).includes('mcp') && t.name.startsWith('mcp_'));
const ending = (name) => mcpTools().filter((t) => t.name.endsWith(`_${name}`));

/** Command lines of this extension host's children (Linux /proc). */
function children() {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) out.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
const isPlugin = (cmd) => / mcp --window/.test(cmd);
const isProvider = (cmd) => /mcp-relay\.js/.test(cmd);

async function startServers() {
  await Promise.race([vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true }), new Promise((r) => setTimeout(r, 15000))]);
}

async function live(check, what) {
  return eventually(async () => {
    if (check()) return check();
    await startServers();
    return check();
  }, what, 60000, 1000).catch((e) => assert.fail(`${e.message} (mcp tools now: ${mcpTools().map((t) => t.name).join(', ')}; children: ${children().join(' | ')})`));
}

async function invoke(name, input) {
  try {
    const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    return r.content.map((p) => /** @type {{ value?: unknown }} */ (p)).map((p) => (typeof p.value === 'string' ? p.value : '')).join('');
  } catch (e) {
    return String(e && e.message);
  }
}

suite('agent harness routes: the MCP server provider or zut agent plugin, each tool once', function () {
  this.timeout(180000);
  let host;
  const config = () => vscode.workspace.getConfiguration('zut');

  suiteSetup(async () => {
    host = (await vscode.extensions.getExtension(ID).activate()).host;
    await eventually(() => ['weather', 'guard', 'briefing'].every((n) => host.extensions().some((e) => e.name === n && e.state === 'running')), 'weather, guard and briefing running', 30000);
  });
  suiteTeardown(async () => {
    await config().update('agentTools.via', undefined, vscode.ConfigurationTarget.Global);
  });

  /** The route's checks: only its server runs (started by VS Code), each zut tool once, a call, a guard's block, the skill. */
  async function checkRoute(route) {
    const own = route === 'plugin' ? isPlugin : isProvider;
    const other = route === 'plugin' ? isProvider : isPlugin;
    // The other route's server is stopped by VS Code (its definition went away); ours is started.
    await live(() => children().some(own) && !children().some(other) && ending('forecast').length === 1 && ending('skill').length === 1, `only the ${route}'s server, with forecast and skill`);
    const names = mcpTools().map((t) => t.name);
    assert.deepStrictEqual(names.filter((n, i) => names.indexOf(n) !== i), [], 'no tool offered twice');
    for (const n of ['weather', 'forecast', 'skill']) assert.strictEqual(ending(n).length, 1, `${n} once (have: ${names.join(', ')})`);
    assert.match(await invoke(ending('weather')[0].name, { city: 'Berlin' }), /Berlin: 16°C, fog/);
    assert.match(await invoke(ending('weather')[0].name, { city: 'rm -rf /' }), /blocked by guard: refused: matches danger pattern "rm -rf"/);
    assert.match(ending('skill')[0].description, /- weather-briefing \(from briefing\)/);
    // Served by this window's host: the call's state is in this host's books.
    assert.ok(Object.keys(host.exportState()).some((b) => host.getState(b, 'weather')), "the weather state is filed in this window's host");
  }

  for (const via of /** @type {const} */ (['plugin', 'provider'])) {
    // A VS Code without agent plugins (before 1.139) takes the provider for `plugin` too: that route is checked there.
    test(`zut.agentTools.via = ${via}: VS Code starts the ${via}'s server only (the provider's where VS Code has no agent plugins), every zut tool once; a call runs, a guard blocks, the skill is listed`, async () => {
      await config().update('agentTools.via', via, vscode.ConfigurationTarget.Global);
      await checkRoute(chatPluginsSupported() ? via : 'provider');
    });
  }
});
