// @ts-check
// In-host: zot and e extensions beside zut's in a real VS Code (issue 13). The suite adds to the workspace a zot
// extension (test/vscode/fixtures/zot/zpanel, protocol v1) in `.zot/extensions/`, a zot copy of the example
// `weather` (shadowed), the e fixture enode (test/fixtures/e/enode) and an e file `todo.sh` (shadowed by the example
// `todo`) in `.e/extensions/`, and a zot extension `zhome` (sh, v1) in $ZOT_HOME/extensions. It checks discovery
// (ecosystem, scope, entry point, shadowed copies), the zot and e commands and tools as zut.command.<name> and host
// tools, the e guard and before_turn hook in @zut with the scripted model, consent for the project zot and e
// extensions, and that zut.compat.zot / zut.compat.e turn discovery off. It restores the settings and removes what it added (other suites share this window).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { writeShExtension } = require('../../helpers/fakeExtension');
const vscode = require('vscode');
const { askZut, enabledExtensions, eventually } = require('./util');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;
const REPO = process.env.ZUT_TEST_EXTENSION_PATH;
const ZOT_HOME = process.env.ZOT_HOME;
const EXAMPLES = enabledExtensions(WS);

const ZOT_DIR = path.join(WS, '.zot');
const E_DIR = path.join(WS, '.e');
const ZHOME_DIR = path.join(ZOT_HOME, 'extensions', 'zhome');

async function api() {
  return (await vscode.extensions.getExtension(ID).activate()).host;
}
const all = (host, name) => host.extensions().filter((e) => e.name === name);
const info = (host, name, ecosystem) => all(host, name).find((e) => e.ecosystem === ecosystem);
const states = (host) => host.extensions().map((e) => `${e.name}${e.ecosystem ? `(${e.ecosystem})` : ''}=${e.state}`).join(', ');
const examplesRunning = (host) => EXAMPLES.every((n) => (info(host, n, undefined) || {}).state === 'running');

/** A zot extension in sh speaking protocol v1 (its hello has no protocol_version): one command `<name>-hi`. */
function writeZotSh(dir, name) {
  writeShExtension(path.dirname(dir), name, { protocol: 1, command: 'hi from zot v1', manifest: { version: '1.0.0', language: 'sh' } });
}

/** The rig runs with "trustedWorkspace" (TEST_SETTINGS); consent.test.js switches modes the same way. */
async function setConsentMode(mode) {
  await vscode.workspace.getConfiguration('zut').update('projectExtensions.consent', mode, vscode.ConfigurationTarget.Global);
}

async function setCompat(key, value) {
  await vscode.workspace.getConfiguration('zut').update(`compat.${key}`, value, vscode.ConfigurationTarget.Global);
}

const ask = (query) => askZut(query);
const toolResultText = (req) => {
  const parts = req.messages[req.messages.length - 1].parts;
  const r = parts.find((p) => p.type === 'toolResult');
  return r ? r.content.map((c) => c.value || '').join('') : undefined;
};

suite('compat: zot and e extensions', function () {
  this.timeout(120000);

  suiteSetup(async () => {
    const host = await api();
    await eventually(() => examplesRunning(host), `examples running (${states(host)})`);
    fs.cpSync(path.join(REPO, 'test', 'vscode', 'fixtures', 'zot', 'zpanel'), path.join(ZOT_DIR, 'extensions', 'zpanel'), { recursive: true });
    fs.mkdirSync(path.join(ZOT_DIR, 'extensions', 'weather'), { recursive: true });
    fs.writeFileSync(path.join(ZOT_DIR, 'extensions', 'weather', 'extension.json'), JSON.stringify({ name: 'weather', version: '9.9.9', exec: './never-run.sh' }));
    fs.cpSync(path.join(REPO, 'test', 'fixtures', 'e', 'enode'), path.join(E_DIR, 'extensions', 'enode'), { recursive: true });
    fs.writeFileSync(path.join(E_DIR, 'extensions', 'todo.sh'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    writeZotSh(ZHOME_DIR, 'zhome');
    // The watcher sees the project dirs; $ZOT_HOME was empty at startup: a reload reads everything.
    await host.reload();
  });

  suiteTeardown(async () => {
    const host = await api();
    await setCompat('zot', undefined);
    await setCompat('e', undefined);
    for (const d of [ZOT_DIR, E_DIR, ZHOME_DIR]) fs.rmSync(d, { recursive: true, force: true });
    await host.reload();
    await eventually(() => !host.extensions().some((e) => e.ecosystem), `the zot and e extensions are gone (${states(host)})`);
    await eventually(() => examplesRunning(host), `examples running (${states(host)})`);
  });

  test('zot and e extensions are discovered beside zut\'s: ecosystem, scope, directory, entry point', async () => {
    const host = await api();
    await eventually(() => info(host, 'zpanel', 'zot') && info(host, 'zhome', 'zot') && info(host, 'enode', 'e'), `zpanel, zhome, enode listed (${states(host)})`);
    const zpanel = info(host, 'zpanel', 'zot');
    assert.strictEqual(zpanel.scope, 'project');
    assert.strictEqual(zpanel.folder, WS);
    assert.strictEqual(zpanel.dir, path.join(ZOT_DIR, 'extensions', 'zpanel'));
    assert.strictEqual(zpanel.logPath, path.join(process.env.ZUT_HOME, 'logs', 'ext-zpanel.log'));
    const zhome = info(host, 'zhome', 'zot');
    assert.strictEqual(zhome.scope, 'global');
    assert.strictEqual(zhome.dir, ZHOME_DIR);
    const enode = info(host, 'enode', 'e');
    assert.strictEqual(enode.scope, 'project');
    assert.strictEqual(enode.dir, path.join(E_DIR, 'extensions', 'enode'));
    assert.strictEqual(enode.manifestPath, path.join(E_DIR, 'extensions', 'enode', 'index.mjs'), 'the entry point (index.*)');
    for (const n of EXAMPLES) assert.strictEqual(info(host, n, undefined).scope, 'project', `${n} is still zut's`);
  });

  test('a name a zut extension has shadows its zot and e copies: listed, never started', async () => {
    const host = await api();
    await eventually(() => all(host, 'weather').length === 2 && all(host, 'todo').length === 2, `two weather and two todo rows (${states(host)})`);
    const weather = info(host, 'weather', 'zot');
    assert.strictEqual(weather.state, 'shadowed');
    assert.strictEqual(weather.shadowedBy, path.join(WS, '.zut', 'extensions', 'weather'));
    assert.strictEqual(weather.pid, undefined);
    const todo = info(host, 'todo', 'e');
    assert.strictEqual(todo.state, 'shadowed');
    assert.strictEqual(todo.shadowedBy, path.join(WS, '.zut', 'extensions', 'todo'));
    assert.strictEqual(todo.pid, undefined);
    assert.strictEqual(todo.manifestPath, path.join(E_DIR, 'extensions', 'todo.sh'));
    await eventually(() => examplesRunning(host), `the zut weather and todo still run (${states(host)})`);
    // One tool named weather, zut's.
    assert.deepStrictEqual(host.tools().filter((t) => t.name === 'weather' && t.active !== false).map((t) => t.ext), ['weather']);
  });

  test('zot v1 and e extensions run: their commands are zut.command.<name>, their tools host tools', async () => {
    const host = await api();
    const running = (n, eco) => (info(host, n, eco) || {}).state === 'running';
    await eventually(() => running('zpanel', 'zot') && running('zhome', 'zot') && running('enode', 'e'), `zpanel, zhome, enode running (${states(host)})`, 60000);
    const names = host.commands().map((c) => c.name);
    for (const c of ['zpanel', 'zhome-hi', 'e_ping', 'e_ask']) assert.ok(names.includes(c), `command ${c} in ${names}`);
    const tools = host.tools().map((t) => t.name);
    for (const t of ['zpanel_count', 'e_greet']) assert.ok(tools.includes(t), `tool ${t} in ${tools}`);
    const ids = await vscode.commands.getCommands(true);
    for (const c of ['zpanel', 'zhome-hi', 'e_ping']) assert.ok(ids.includes(`zut.command.${c}`), `zut.command.${c} registered`);

    /** @type {any} */ const zot = await vscode.commands.executeCommand('zut.command.zhome-hi', '');
    assert.strictEqual(zot.ext, 'zhome');
    assert.strictEqual(zot.action, 'display');
    assert.strictEqual(zot.display, 'hi from zot v1');
    /** @type {any} */ const e = await vscode.commands.executeCommand('zut.command.e_ping', 'there');
    assert.strictEqual(e.ext, 'enode');
    const notes = async (ext) => (/** @type {any} */ (await vscode.commands.executeCommand('zut.test.snapshot')).widgets.find((w) => w.ext === ext) || { notes: [] }).notes;
    await eventually(async () => (await notes('enode')).some((n) => n.text === 'pong there'), 'the e notice "pong there" as a note of enode');
  });

  test('@zut: the e guard blocks a tool, its before_turn context reaches the model, a zot tool answers', async () => {
    const host = await api();
    await eventually(() => (info(host, 'enode', 'e') || {}).state === 'running' && (info(host, 'zpanel', 'zot') || {}).state === 'running', `enode and zpanel running (${states(host)})`, 60000);
    await vscode.extensions.getExtension('zut-test.scripted-model').activate();

    const blocked = await ask('call e_danger {}');
    assert.match(blocked.text, /⛔ `e_danger` \(`enode`\): blocked by enode: enode refuses e_danger/, blocked.text);
    assert.strictEqual(blocked.requests.length, 2);
    assert.match(toolResultText(blocked.requests[1]), /enode refuses e_danger/);
    assert.ok(!blocked.text.includes('ran e_danger'), 'the blocked tool never ran');
    // hook.before_turn's system_suffix is hidden context of the turn: the model has it, the user does not see it.
    assert.ok(JSON.stringify(blocked.requests[0]).includes('Answer in one line.'), JSON.stringify(blocked.requests[0]));
    assert.ok(!blocked.text.includes('Answer in one line.'));

    const zot = await ask('call zpanel_count {}');
    assert.match(zot.text, /✓ `zpanel_count` \(`zpanel`\)/, zot.text);
    assert.strictEqual(toolResultText(zot.requests[1]), 'count 0');
  });

  test('in "ask" consent mode the project zot and e extensions wait like zut\'s, the global zot one runs; Allow starts them', async () => {
    const host = await api();
    const stateOf = (n, eco) => (info(host, n, eco) || {}).state;
    await eventually(() => stateOf('zpanel', 'zot') === 'running' && stateOf('enode', 'e') === 'running', `zpanel and enode running (${states(host)})`, 60000);
    try {
      await setConsentMode('ask');
      await eventually(() => stateOf('zpanel', 'zot') === 'consent' && stateOf('enode', 'e') === 'consent', `zpanel and enode waiting for consent (${states(host)})`);
      assert.strictEqual(info(host, 'zpanel', 'zot').pid, undefined);
      assert.strictEqual(info(host, 'enode', 'e').pid, undefined);
      const pending = host.pendingConsent().map((e) => e.name);
      assert.ok(pending.includes('zpanel') && pending.includes('enode'), `pending: ${pending}`);
      assert.ok(!pending.includes('zhome'), 'a global zot extension never asks');
      await eventually(() => stateOf('zhome', 'zot') === 'running', `zhome running (${states(host)})`);
      for (const n of ['zpanel', 'enode']) assert.strictEqual(await vscode.commands.executeCommand('zut.allowExtension', n), true);
      await eventually(() => stateOf('zpanel', 'zot') === 'running' && stateOf('enode', 'e') === 'running', `zpanel and enode running after Allow (${states(host)})`);
    } finally {
      await setConsentMode('trustedWorkspace');
    }
    await eventually(() => examplesRunning(host), `examples running (${states(host)})`);
  });

  test('zut.compat.zot and zut.compat.e off: their extensions are gone, zut\'s stay; on again: back', async () => {
    const host = await api();
    await eventually(() => info(host, 'zpanel', 'zot') && info(host, 'enode', 'e'), `zpanel and enode listed (${states(host)})`);
    await setCompat('zot', false);
    await eventually(() => !host.extensions().some((e) => e.ecosystem === 'zot'), `no zot extension (${states(host)})`);
    assert.ok(info(host, 'enode', 'e'), 'e extensions stay');
    await setCompat('e', false);
    await eventually(() => !host.extensions().some((e) => e.ecosystem), `no zot or e extension (${states(host)})`);
    await eventually(() => examplesRunning(host), `examples running (${states(host)})`);
    assert.ok(!host.commands().some((c) => c.name === 'zpanel' || c.name === 'e_ping'));
    await setCompat('zot', undefined);
    await setCompat('e', undefined);
    await eventually(() => info(host, 'zpanel', 'zot') && info(host, 'zhome', 'zot') && info(host, 'enode', 'e'), `zpanel, zhome, enode back (${states(host)})`);
  });
});
