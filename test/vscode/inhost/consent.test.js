// @ts-check
// In-host: consent for project-local extensions in a real VS Code. The rig runs with
// zut.projectExtensions.consent = "trustedWorkspace" (the other suites expect the examples to start at once); this
// suite switches to "ask", pre-consents the examples through the commands, and checks: a new project extension waits
// for consent, Allow starts it, a changed executable asks again, "trustedWorkspace" starts it without asking, a
// global extension never asks, a repository's .vscode/settings.json cannot bring extensions in without consent. It
// restores the mode and removes what it added (other suites share this window).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { enabledExtensions, eventually, writeShExt } = require('./util');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;
/** Every enabled example in examples/workspace (read from disk, so a new example needs no edit here). */
const EXAMPLES = enabledExtensions(WS);

async function api() {
  return (await vscode.extensions.getExtension(ID).activate()).host;
}
const info = (host, name) => host.extensions().find((e) => e.name === name);
const stateOf = (host, name) => (info(host, name) || {}).state;
const states = (host) => host.extensions().map((e) => `${e.name}=${e.state}`).join(', ');

async function setMode(mode) {
  await vscode.workspace.getConfiguration('zut').update('projectExtensions.consent', mode, vscode.ConfigurationTarget.Global);
}

suite('consent for project-local extensions', function () {
  this.timeout(120000);
  const newDir = path.join(WS, '.zut', 'extensions', 'newcomer');
  const globalDir = path.join(process.env.ZUT_HOME, 'extensions', 'homegrown');

  suiteTeardown(async () => {
    const host = await api();
    await setMode('trustedWorkspace');
    fs.rmSync(newDir, { recursive: true, force: true });
    fs.rmSync(globalDir, { recursive: true, force: true });
    // The watcher's reload removes them; wait for it, so it cannot stop the next suite's extensions mid-test.
    await eventually(() => !info(host, 'newcomer') && !info(host, 'homegrown'), `the watcher removed newcomer and homegrown (${states(host)})`);
    await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `examples running (${states(host)})`);
  });

  test('in "ask" mode every project extension waits for consent; Allow (the row command) starts each', async () => {
    const host = await api();
    await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `examples running (${states(host)})`);
    await setMode('ask');
    await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'consent'), `examples waiting for consent (${states(host)})`);
    assert.deepStrictEqual(host.pendingConsent().map((e) => e.name).sort(), EXAMPLES);
    assert.ok(EXAMPLES.every((n) => info(host, n).pid === undefined), 'nothing spawned while waiting');
    for (const n of EXAMPLES) assert.strictEqual(await vscode.commands.executeCommand('zut.allowExtension', n), true);
    await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `examples running after Allow (${states(host)})`);
  });

  test('a new project extension (as after a git pull) waits for consent; Allow starts it; the others keep running', async () => {
    const host = await api();
    writeShExt(path.join(WS, '.zut', 'extensions'), 'newcomer', 'v1');
    await eventually(() => stateOf(host, 'newcomer') === 'consent', `newcomer waiting for consent (${states(host)})`);
    assert.strictEqual(info(host, 'newcomer').pid, undefined);
    assert.ok(host.pendingConsent().some((e) => e.name === 'newcomer'));
    await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `examples running (remembered) (${states(host)})`);
    assert.strictEqual(await vscode.commands.executeCommand('zut.allowExtension', 'newcomer'), true);
    await eventually(() => stateOf(host, 'newcomer') === 'running', `newcomer running (${states(host)})`);
    assert.ok(host.commands().some((c) => c.name === 'newcomer-hi'));
  });

  test('a changed executable asks again (the watcher restarts it into "waiting for consent")', async () => {
    const host = await api();
    await eventually(() => stateOf(host, 'newcomer') === 'running', 'newcomer running');
    const before = info(host, 'newcomer').fingerprint;
    const script = path.join(newDir, 'run.sh');
    fs.writeFileSync(script, fs.readFileSync(script, 'utf8').replace('# v1', '# v2 edited by an agent'));
    await eventually(() => stateOf(host, 'newcomer') === 'consent', `newcomer asks again (${states(host)})`);
    assert.notStrictEqual(info(host, 'newcomer').fingerprint, before);
    assert.strictEqual(info(host, 'newcomer').pid, undefined);
    // Don't Allow keeps it stopped, across a reload.
    assert.strictEqual(await vscode.commands.executeCommand('zut.denyExtension', 'newcomer'), true);
    await host.reload();
    assert.strictEqual(stateOf(host, 'newcomer'), 'denied');
  });

  test('a global extension never asks', async () => {
    const host = await api();
    writeShExt(path.join(process.env.ZUT_HOME, 'extensions'), 'homegrown', 'global');
    await eventually(() => stateOf(host, 'homegrown') === 'running', `homegrown running without consent (${states(host)})`);
    assert.strictEqual(info(host, 'homegrown').scope, 'global');
    assert.strictEqual(info(host, 'homegrown').fingerprint, undefined);
  });

  test("a repository's .vscode/settings.json cannot bring extensions in without consent (zut.extensionPaths, zut.home)", async () => {
    const host = await api();
    await setMode('ask');
    const marker = path.join(WS, 'ran-without-consent');
    const settingsFile = path.join(WS, '.vscode', 'settings.json');
    const ext = (root, name) => {
      const dir = writeShExt(root, name, 'from the repository');
      fs.writeFileSync(path.join(dir, 'run.sh'), fs.readFileSync(path.join(dir, 'run.sh'), 'utf8').replace('#!/bin/sh\n', `#!/bin/sh\necho ${name} >> '${marker}'\n`));
      return dir;
    };
    ext(path.join(WS, 'tools'), 'repopath');
    ext(path.join(WS, '.zuthome', 'extensions'), 'repohome');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // zut.toolTimeoutSeconds (window scope) shows when VS Code has read the file.
    fs.writeFileSync(settingsFile, JSON.stringify({ 'zut.extensionPaths': ['./tools/repopath'], 'zut.home': '.zuthome', 'zut.toolTimeoutSeconds': 61 }));
    const config = () => vscode.workspace.getConfiguration('zut');
    try {
      await eventually(() => config().get('toolTimeoutSeconds') === 61, 'VS Code read the workspace settings');
      await host.reload();
      await new Promise((r) => setTimeout(r, 1500)); // room for the settings-change reload and any start
      await host.reload();
      for (const n of ['repopath', 'repohome']) {
        const state = stateOf(host, n);
        assert.ok(state === undefined || state === 'consent', `${n} must not start without consent (${states(host)})`);
        assert.strictEqual((info(host, n) || {}).pid, undefined, `${n} has no process`);
      }
      assert.ok(!fs.existsSync(marker), `no repository extension ran: ${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`);
      await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `examples still running (${states(host)})`);
    } finally {
      fs.rmSync(path.join(WS, '.vscode'), { recursive: true, force: true });
      fs.rmSync(path.join(WS, 'tools'), { recursive: true, force: true });
      fs.rmSync(path.join(WS, '.zuthome'), { recursive: true, force: true });
      fs.rmSync(marker, { force: true });
      await eventually(() => config().get('toolTimeoutSeconds') !== 61, 'the workspace settings gone');
      await host.reload();
    }
  });

  test('"trustedWorkspace" starts project extensions without asking', async () => {
    const host = await api();
    assert.strictEqual(stateOf(host, 'newcomer'), 'denied');
    await setMode('trustedWorkspace');
    await eventually(() => stateOf(host, 'newcomer') === 'running', `newcomer running in trustedWorkspace mode (${states(host)})`);
    assert.deepStrictEqual(host.pendingConsent(), []);
  });

  test('Stop / Start and Disable (Workspace) / Enable (Workspace) from the commands; the manifest is untouched', async () => {
    const host = await api();
    const manifest = path.join(WS, '.zut', 'extensions', 'shell', 'extension.json');
    const before = fs.readFileSync(manifest, 'utf8');
    await eventually(() => stateOf(host, 'shell') === 'running', 'shell running');
    assert.strictEqual(await vscode.commands.executeCommand('zut.stopExtension', 'shell'), true);
    assert.strictEqual(stateOf(host, 'shell'), 'stopped');
    assert.strictEqual(info(host, 'shell').pid, undefined);
    assert.strictEqual(await vscode.commands.executeCommand('zut.startExtension', 'shell'), true);
    await eventually(() => stateOf(host, 'shell') === 'running', 'shell running after Start');
    assert.strictEqual(await vscode.commands.executeCommand('zut.disableInWorkspace', 'shell'), true);
    assert.strictEqual(stateOf(host, 'shell'), 'disabled');
    assert.strictEqual(info(host, 'shell').disabledInWorkspace, true);
    await host.reload();
    assert.strictEqual(stateOf(host, 'shell'), 'disabled', 'kept in workspace state across a reload');
    assert.strictEqual(fs.readFileSync(manifest, 'utf8'), before, 'extension.json untouched');
    assert.strictEqual(await vscode.commands.executeCommand('zut.enableInWorkspace', 'shell'), true);
    await eventually(() => stateOf(host, 'shell') === 'running', 'shell running after Enable (Workspace)');
  });
});
