// @ts-check
// In-host: "Zut: Where zut Reaches" (zut.showReach, { show: false } returns the rows without the quick pick) in the
// real extension host — the route read from the real settings (zut.agentTools.via provider → the Local harness
// reached, the Agent Host harnesses unknown with the setting as their fix; plugin → every harness reached, but not from a web window's Agent Host), VS Code's
// agent hooks written by "Guard Agent Tools…" seen on the Local harness and gone after Remove — and "zut: Doctor"'s
// "Where zut reaches" section.
'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { chatPluginsSupported } = require('./util');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;

/** @returns {Promise<any[]>} the rows now. */
async function rows() {
  /** @type {any} */ const r = await vscode.commands.executeCommand('zut.showReach', { show: false, folder: WS });
  assert.ok(r && Array.isArray(r.rows), `zut.showReach returned its rows: ${JSON.stringify(r)}`);
  return r.rows;
}
const rowOf = (all, surface) => {
  const r = all.find((x) => x.surface === surface);
  assert.ok(r, `a row ${surface}: ${all.map((x) => x.surface).join(', ')}`);
  return r;
};
const setVia = (v) => vscode.workspace.getConfiguration('zut').update('agentTools.via', v, vscode.ConfigurationTarget.Global);

suite('where zut reaches (zut.showReach, the doctor section)', function () {
  this.timeout(120000);

  suiteSetup(async () => {
    await vscode.extensions.getExtension(ID).activate();
  });

  suiteTeardown(async () => {
    await setVia(undefined);
  });

  test('the route from the settings: provider reaches the Local harness only; plugin every harness, but a web window\'s Agent Host cannot read it', async () => {
    await setVia('provider');
    let all = await rows();
    assert.deepStrictEqual(all.slice(0, 4).map((r) => r.surface), ['VS Code: Local harness', 'VS Code: Copilot harness', 'VS Code: Claude harness', 'VS Code: Codex harness']);
    assert.strictEqual(rowOf(all, 'VS Code: Local harness').tools.state, 'reached');
    const plugins = chatPluginsSupported();
    for (const s of ['VS Code: Copilot harness', 'VS Code: Claude harness', 'VS Code: Codex harness']) {
      const tools = rowOf(all, s).tools;
      assert.strictEqual(tools.state, 'unknown', `${s}: ${JSON.stringify(tools)}`);
      // The plugin is the fix only where VS Code has agent plugins; before 1.139 there is none to offer.
      if (plugins) assert.deepStrictEqual(tools.fix, { label: 'Set zut.agentTools.via to plugin', command: 'workbench.action.openSettings', args: ['zut.agentTools.via'] });
      else assert.ok(!tools.fix && /this VS Code has no agent plugins/.test(tools.how), `${s}: ${JSON.stringify(tools)}`);
    }
    // Every terminal agent has a row: Claude Code, Copilot CLI and the set-up rows.
    for (const label of ['Claude Code', 'Copilot CLI', 'Codex CLI', 'Gemini CLI']) rowOf(all, `${label} (terminal)`);

    await setVia('plugin');
    all = await rows();
    const pluginsOn = vscode.workspace.getConfiguration().get('chat.plugins.enabled') !== false;
    for (const s of ['VS Code: Local harness', 'VS Code: Copilot harness', 'VS Code: Claude harness', 'VS Code: Codex harness']) {
      const { tools, skills } = rowOf(all, s);
      if (!pluginsOn) assert.match(tools.how, /chat\.plugins\.enabled is off/);
      else if (!plugins) {
        // No agent plugins in this VS Code: the provider serves, and says why.
        if (s === 'VS Code: Local harness') assert.strictEqual(tools.state, 'reached', `${s}: ${JSON.stringify(tools)}`);
        assert.match(tools.how, /this VS Code has no agent plugins/);
      } else if (s === 'VS Code: Local harness') {
        assert.strictEqual(tools.state, 'reached', `${s}: ${JSON.stringify(tools)}`);
        assert.match(tools.how, /agent plugin/);
        assert.strictEqual(skills.state, 'reached');
      } else if (/mcp-config\.json/.test(tools.how)) assert.strictEqual(tools.state, 'reached'); // this machine's Copilot CLI names zut
      else {
        // code-server's workbench is a web UI: its Agent Host cannot read the plugin's files (agentHost.test.mjs).
        assert.strictEqual(tools.state, 'unknown', `${s}: ${JSON.stringify(tools)}`);
        assert.match(tools.how, /may not read the plugin's files/);
      }
    }
    console.log(`reach: chat.plugins.enabled ${pluginsOn}; agent plugins ${plugins}; VS Code ${vscode.version}`);
    await setVia(undefined);
  });

  test('Guard Agent Tools… for VS Code\'s agent (workspace): the Local harness\'s guards reached through that file, not after Remove', async () => {
    const file = path.join(WS, '.github', 'hooks', 'zut.json');
    /** @type {any} */ const wrote = await vscode.commands.executeCommand('zut.guardAgentTools', { agent: 'vscode', scope: 'workspace', folder: WS, action: 'install' });
    assert.strictEqual(wrote?.file, file);
    try {
      const local = rowOf(await rows(), 'VS Code: Local harness');
      assert.strictEqual(local.guards.state, 'reached', JSON.stringify(local.guards));
      assert.ok(local.guards.how.includes(`${file} (workspace)`), local.guards.how);
      assert.strictEqual(local.events.state, 'reached');
    } finally {
      await vscode.commands.executeCommand('zut.guardAgentTools', { agent: 'vscode', scope: 'workspace', folder: WS, action: 'remove' });
    }
    const local = rowOf(await rows(), 'VS Code: Local harness');
    assert.ok(!local.guards.how.includes(file), local.guards.how);
    if (local.guards.state !== 'reached') assert.deepStrictEqual(local.guards.fix, { label: "Guard Agent Tools… (VS Code's agent)", command: 'zut.guardAgentTools', args: [{ agent: 'vscode' }] });
  });

  test('zut: Doctor has the "Where zut reaches" section, a line per harness and capability', async () => {
    /** @type {any} */ const content = await vscode.commands.executeCommand('zut.doctor');
    assert.match(content, /\n## Where zut reaches\n/);
    for (const s of ['Local', 'Copilot', 'Claude', 'Codex']) for (const c of ['tools', 'skills', 'guards', 'events']) assert.match(content, new RegExp(`VS Code: ${s} harness \\(.*\\) · ${c}: (reached|NOT REACHED|unknown) — `));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
