// @ts-check
// In-host: the host built by createHost against the example workspace (a temp copy) and a private ZUT_HOME —
// background start, the example extensions' states, zut.command.<name> and zut.runCommand for display, insert
// and error responses, reload, the manifest watcher, enable/disable on disk, install/remove, doctor, call tool.
// Every test leaves the extensions as it found them (other suites share this extension host).
'use strict';
const assert = require('assert');
const { nodeProgram, writeNodeExtension } = require('../../helpers/fakeExtension');
const { eventually, writeShExt } = require('./util');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;
const EXAMPLES = ['briefing', 'guard', 'progress', 'shell', 'snippets', 'todo', 'weather'];

async function api() {
  const ext = vscode.extensions.getExtension(ID);
  const exports = await ext.activate();
  assert.ok(exports && exports.host, 'activate() returns { host }');
  return exports.host;
}


const info = (host, name) => host.extensions().find((e) => e.name === name);
const stateOf = (host, name) => (info(host, name) || {}).state;

/** Waits until every example is running (after a reload or a restart). */
async function allRunning(host) {
  await eventually(() => EXAMPLES.every((n) => stateOf(host, n) === 'running'), `all examples running (${host.extensions().map((e) => `${e.name}=${e.state}`).join(', ')})`);
}

/** Files named `name` below `dir` (recursive). */
function findFiles(dir, name) {
  if (!dir || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(e.parentPath || e.path || dir, e.name);
    return e.isDirectory() ? findFiles(p, name) : e.name === name ? [p] : [];
  });
}

/** Closes every editor without save prompts (a test's own untitled documents are dirty: closeAllEditors would ask). */
async function closeEditors() {
  for (let i = 0; i < 20 && vscode.window.visibleTextEditors.length > 0; i++) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

suite('management: host and commands', function () {
  this.timeout(90000);

  test('activation returns before the extensions are loaded (start runs in the background)', async () => {
    await api();
    const lines = await eventually(() => {
      for (const f of findFiles(process.env.ZUT_TEST_LOGS_DIR, 'Zut.log')) {
        const l = fs.readFileSync(f, 'utf8').split('\n');
        if (l.some((x) => x.includes('Loaded '))) return l;
      }
      return undefined;
    }, 'a "Loaded" line in Zut.log');
    const activated = lines.findIndex((l) => /Activation complete in [\d.]+ ms; zut extensions start in the background/.test(l));
    const loaded = lines.findIndex((l) => /Loaded \d+ extension\(s\)/.test(l));
    assert.ok(activated >= 0, 'the end-of-activate line is logged');
    assert.ok(activated < loaded, `activate finished (line ${activated}) before the first load finished (line ${loaded})`);
  });

  test('the example extensions are running, disabled-demo is disabled, all from the workspace', async () => {
    const host = await api();
    await allRunning(host);
    for (const n of EXAMPLES) {
      const i = info(host, n);
      assert.strictEqual(i.scope, 'project', `${n} scope`);
      assert.strictEqual(i.dir, path.join(WS, '.zut', 'extensions', n));
      assert.strictEqual(i.logPath, path.join(process.env.ZUT_HOME, 'logs', `ext-${n}.log`));
    }
    assert.strictEqual(stateOf(host, 'disabled-demo'), 'disabled');
    const names = host.commands().map((c) => c.name);
    for (const c of ['wordcount', 'license', 'todo', 'uptime', 'guard']) assert.ok(names.includes(c), `command ${c} in ${names}`);
  });

  test('every active zut command is a VS Code command zut.command.<name>; display goes to a note', async () => {
    const host = await api();
    await allRunning(host);
    const ids = await vscode.commands.getCommands(true);
    for (const c of host.commands()) assert.ok(ids.includes(`zut.command.${c.name}`), `zut.command.${c.name} registered`);
    const notesOf = async () => (/** @type {any} */ (await vscode.commands.executeCommand('zut.test.snapshot')).widgets.find((w) => w.ext === 'snippets') || { notes: [] }).notes;
    assert.ok(!(await notesOf()).some((n) => n.text === '4 words, 18 characters, 1 line'), 'no such note yet');
    /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.command.wordcount', 'one two three four');
    assert.strictEqual(reply.ext, 'snippets');
    assert.strictEqual(reply.action, 'display');
    assert.strictEqual(reply.display, '4 words, 18 characters, 1 line');
    assert.ok((await notesOf()).some((n) => n.level === 'info' && n.text === '4 words, 18 characters, 1 line'), 'the display became a note of snippets');
  });

  test('a multi-line display opens as a read-only zut: document (one line stays a notification)', async () => {
    await api();
    await closeEditors();
    /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.command.snippets', '');
    assert.strictEqual(reply.action, 'display');
    assert.match(reply.display, /^Snippets:\n/);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'zut' && d.getText() === reply.display);
    assert.ok(doc, 'a zut: document with the output is open');
    assert.match(doc.uri.path, /^\/snippets\/snippets-\d+\.txt$/);
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document === doc), 'and shown');
    assert.strictEqual(doc.isUntitled, false);
    // One line: no document.
    await vscode.commands.executeCommand('zut.command.wordcount', 'just two');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'zut' && d.getText().includes('2 words')), 'no document for one line');
    await closeEditors();
  });

  test('an error response is returned (and shown) whatever the action; unknown commands resolve undefined', async () => {
    await api();
    /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.command.license', 'NOPE-1.0');
    assert.strictEqual(reply.action, 'noop');
    assert.match(reply.error, /^unknown license "NOPE-1\.0" \(known: /);
    assert.strictEqual(await vscode.commands.executeCommand('zut.runCommand', 'no-such-command', ''), undefined);
  });

  test('zut.runCommand with a name and arguments inserts at the cursor of the active editor', async () => {
    await api();
    const doc = await vscode.workspace.openTextDocument({ content: 'A\nB\n', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.runCommand', 'license', 'apache-2.0');
    assert.strictEqual(reply.action, 'insert');
    assert.strictEqual(doc.getText(), 'A\n// SPDX-License-Identifier: Apache-2.0\nB\n');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('zut.reload restarts everything and reports what loaded', async () => {
    const host = await api();
    await allRunning(host);
    const pid = info(host, 'snippets').pid;
    /** @type {any} */ const report = await vscode.commands.executeCommand('zut.reload');
    assert.ok(report, 'zut.reload resolves to the load report');
    for (const n of EXAMPLES) assert.ok(report.loaded.includes(n), `${n} loaded`);
    assert.deepStrictEqual(report.errors, []);
    assert.ok(report.stopped.includes('snippets'));
    await allRunning(host);
    assert.notStrictEqual(info(host, 'snippets').pid, pid, 'a new process');
  });

  test('editing a manifest on disk restarts that extension only (watcher)', async () => {
    const host = await api();
    await allRunning(host);
    const file = path.join(WS, '.zut', 'extensions', 'shell', 'extension.json');
    const original = fs.readFileSync(file, 'utf8');
    const weatherPid = info(host, 'weather').pid;
    try {
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(original), version: '9.9.9' }, null, 2));
      await eventually(() => info(host, 'shell').version === '9.9.9', 'shell version 9.9.9 after the watcher reload');
      await eventually(() => stateOf(host, 'shell') === 'running', 'shell running again');
      assert.strictEqual(info(host, 'weather').pid, weatherPid, 'weather was not restarted');
    } finally {
      fs.writeFileSync(file, original);
      await eventually(() => info(host, 'shell').version === '1.0.0', 'shell version back to 1.0.0');
      await allRunning(host);
    }
  });

  test('changing an extension\'s executable on disk restarts that extension only (watcher)', async () => {
    const host = await api();
    await allRunning(host);
    const manifest = JSON.parse(fs.readFileSync(path.join(WS, '.zut', 'extensions', 'shell', 'extension.json'), 'utf8'));
    const exe = path.join(WS, '.zut', 'extensions', 'shell', manifest.exec);
    const original = fs.readFileSync(exe, 'utf8');
    const shellPid = info(host, 'shell').pid;
    const weatherPid = info(host, 'weather').pid;
    try {
      fs.writeFileSync(exe, original + '\n# touched by the watcher test\n');
      await eventually(() => stateOf(host, 'shell') === 'running' && info(host, 'shell').pid !== shellPid, 'shell restarted with a new pid');
      assert.strictEqual(info(host, 'weather').pid, weatherPid, 'weather was not restarted');
    } finally {
      fs.writeFileSync(exe, original);
      await allRunning(host);
    }
  });

  test('saving a source file named in the manifest\'s args restarts that extension (watcher)', async () => {
    const host = await api();
    await allRunning(host);
    const dir = path.join(WS, '.zut', 'extensions', 'argwatch');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'source.txt'), 'v1\n');
    writeShExt(path.join(WS, '.zut', 'extensions'), 'argwatch', 'reads nothing', { args: ['source.txt'] });
    const source = path.join(dir, 'source.txt');
    try {
      await eventually(() => stateOf(host, 'argwatch') === 'running', `argwatch running (${host.extensions().map((e) => `${e.name}=${e.state}`).join(', ')})`);
      // A new extension directory reloads the set: the others start beside argwatch, and may come up after it.
      await allRunning(host);
      const pid = info(host, 'argwatch').pid;
      const weatherPid = info(host, 'weather').pid;
      // The executable watchers are set up after the load that found it: give the watcher a change it must see.
      await eventually(async () => {
        fs.writeFileSync(source, `v${Date.now()}\n`);
        await new Promise((r) => setTimeout(r, 1500));
        return stateOf(host, 'argwatch') === 'running' && info(host, 'argwatch').pid !== pid;
      }, 'argwatch restarted with a new pid after its source changed', 30000, 0);
      assert.strictEqual(info(host, 'weather').pid, weatherPid, 'weather was not restarted');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await eventually(() => !host.extensions().some((e) => e.name === 'argwatch'), 'argwatch gone');
      await allRunning(host);
    }
  });

  test('disable and enable rewrite extension.json on the workspace copy and stop/start the extension', async () => {
    const host = await api();
    await allRunning(host);
    const file = path.join(WS, '.zut', 'extensions', 'shell', 'extension.json');
    await vscode.commands.executeCommand('zut.disableExtension', 'shell');
    assert.strictEqual(JSON.parse(fs.readFileSync(file, 'utf8')).enabled, false);
    await eventually(() => stateOf(host, 'shell') === 'disabled', 'shell disabled');
    assert.ok(!host.commands().some((c) => c.name === 'uptime'), '/uptime is gone');
    await eventually(async () => !(await vscode.commands.getCommands(true)).includes('zut.command.uptime'), 'zut.command.uptime disposed');

    await vscode.commands.executeCommand('zut.enableExtension', 'shell');
    assert.strictEqual(JSON.parse(fs.readFileSync(file, 'utf8')).enabled, true);
    await eventually(() => stateOf(host, 'shell') === 'running', 'shell running again');
    await eventually(async () => (await vscode.commands.getCommands(true)).includes('zut.command.uptime'), 'zut.command.uptime back');
    /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.command.uptime');
    assert.match(reply.display, /^uptime: /);
    await allRunning(host);
  });

  test('install from a folder into $ZUT_HOME/extensions, refuse an existing destination, then remove', async () => {
    const host = await api();
    await allRunning(host);
    const src = writeNodeExtension(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-install-src-')), 'hello-installed', nodeProgram('hello-installed', {
      version: '0.1.0',
      command: { name: 'hello-installed', description: 'say hi' },
      onMessage: "if (m.type === 'command_invoked') emit({ type: 'command_response', id: m.id, action: 'display', display: 'hi' });",
    }), { file: 'hello.js', manifest: { version: '0.1.0' } });
    const dest = path.join(process.env.ZUT_HOME, 'extensions', 'hello-installed');
    try {
      /** @type {any} */ const outcome = await vscode.commands.executeCommand('zut.install', src, 'global', { confirm: false });
      assert.deepStrictEqual(outcome.installed, { name: 'hello-installed', dir: dest });
      assert.match(outcome.plan, /\n {2}runs: {2}node hello\.js {3}\(node found on PATH\)\n {2}files: 2 /);
      assert.ok(fs.existsSync(path.join(dest, 'hello.js')));
      await eventually(() => stateOf(host, 'hello-installed') === 'running', 'the installed extension running');
      assert.strictEqual(info(host, 'hello-installed').scope, 'global');
      /** @type {any} */ const reply = await vscode.commands.executeCommand('zut.command.hello-installed');
      assert.strictEqual(reply.action, 'display');

      /** @type {any} */ const again = await vscode.commands.executeCommand('zut.install', src, 'global', { confirm: false });
      assert.match(again.error, /already exists/);
      assert.strictEqual(again.installed, undefined);
    } finally {
      /** @type {any} */ const removed = await vscode.commands.executeCommand('zut.removeExtension', 'hello-installed', { confirm: false });
      assert.strictEqual(removed, true);
      fs.rmSync(path.dirname(src), { recursive: true, force: true });
    }
    assert.ok(!fs.existsSync(dest), 'the installed directory is deleted');
    await eventually(() => !info(host, 'hello-installed'), 'the removed extension gone from the host');
    await allRunning(host);
  });

  test('install from a git URL (file:// bare repo) shows the plan; zut-host ext disable/enable is seen here; a bad URL leaves nothing', async () => {
    const host = await api();
    await allRunning(host);
    const { execFileSync } = require('child_process');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-install-git-'));
    const work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    writeNodeExtension(tmp, 'work', nodeProgram('hello-git', {
      version: '0.2.0',
      command: { name: 'hello-git' },
      onMessage: "if (m.type === 'command_invoked') emit({ type: 'command_response', id: m.id, action: 'display', display: 'hi from git' });",
    }), { file: 'hello.js', manifest: { name: 'hello-git', version: '0.2.0' } });
    const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: 'pipe' });
    git(work, 'init', '-q');
    git(work, 'add', '-A');
    git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
    git(tmp, 'clone', '-q', '--bare', work, path.join(tmp, 'hello.git'));
    const url = require('url').pathToFileURL(path.join(tmp, 'hello.git')).href;
    const extensions = path.join(process.env.ZUT_HOME, 'extensions');
    const dest = path.join(extensions, 'hello-git');
    const cli = (...args) => execFileSync(process.execPath, [path.join(process.env.ZUT_TEST_EXTENSION_PATH, 'dist', 'cli.js'), ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8' });
    try {
      /** @type {any} */ const outcome = await vscode.commands.executeCommand('zut.install', url, 'global', { confirm: false });
      assert.deepStrictEqual(outcome.installed, { name: 'hello-git', dir: dest });
      assert.match(outcome.plan, /^hello-git 0\.2\.0\n/);
      assert.match(outcome.plan, /\n {2}from: {2}file:\/\/.*hello\.git\n/);
      assert.match(outcome.plan, /\n {2}runs: {2}node hello\.js {3}\(node found on PATH\)\n/);
      assert.match(outcome.plan, /\n {2}files: 2 /);
      assert.deepStrictEqual(fs.readdirSync(dest).sort(), ['extension.json', 'hello.js'], 'no .git installed');
      await eventually(() => stateOf(host, 'hello-git') === 'running', 'the cloned extension running');
      assert.strictEqual(/** @type {any} */ (await vscode.commands.executeCommand('zut.command.hello-git')).display, 'hi from git');

      // The CLI and the Extensions view share the state: the manifest's "enabled".
      assert.match(cli('ext', 'disable', 'hello-git'), /^disabled hello-git /);
      await eventually(() => stateOf(host, 'hello-git') === 'disabled', 'disabled by zut-host ext disable, seen by VS Code');
      assert.match(cli('ext', 'enable', 'hello-git'), /^enabled hello-git /);
      await eventually(() => stateOf(host, 'hello-git') === 'running', 'enabled again by zut-host ext enable');

      /** @type {any} */ const bad = await vscode.commands.executeCommand('zut.install', require('url').pathToFileURL(path.join(tmp, 'none.git')).href, 'global', { confirm: false });
      assert.match(bad.error, /git clone failed/);
      assert.deepStrictEqual(fs.readdirSync(extensions).filter((n) => n.startsWith('.')), [], 'no staging directory left');
    } finally {
      await vscode.commands.executeCommand('zut.removeExtension', 'hello-git', { confirm: false });
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    await eventually(() => !info(host, 'hello-git'), 'the removed extension gone from the host');
    await allRunning(host);
  });

  test('zut.doctor opens a read-only markdown report of every extension, rendered, with a summary line (a zut: document, not an untitled one)', async () => {
    const host = await api();
    await allRunning(host);
    await closeEditors();
    /** @type {any} */ const content = await vscode.commands.executeCommand('zut.doctor');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'zut' && d.getText() === content);
    assert.ok(doc, 'a zut: document with the report is open');
    assert.strictEqual(doc.uri.path, '/doctor-report.md');
    // Shown rendered: VS Code's Markdown preview of that document (issue 32, rough edge 13).
    const preview = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType));
    await eventually(() => preview() && /doctor-report/.test(preview().label), 'the report rendered in a Markdown preview');
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document === doc), 'not its source');
    assert.strictEqual(doc.languageId, 'markdown');
    assert.strictEqual(doc.isUntitled, false);
    assert.strictEqual(doc.isDirty, false, 'nothing to save');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled && d.getText() === content), 'no untitled copy');
    // Running it again refreshes the same document instead of opening another.
    await vscode.commands.executeCommand('zut.doctor');
    assert.strictEqual(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'zut' && d.uri.path === '/doctor-report.md').length, 1);
    assert.match(content, /^# Zut doctor report\n\n\*\*\d+ zut extensions: \d+ running, .*\. No load errors\.\*\*\n/);
    // Extension-supplied values are in code spans (padded with spaces by the formatter).
    assert.match(content, /## ` ?snippets ?` — ok/);
    assert.match(content, /## ` ?disabled-demo ?` — disabled/);
    assert.match(content, /- Command: ` ?\/wordcount ?`/);
    assert.match(content, /- Tool: ` ?weather_alerts ?` \(deferred\)/);
    await closeEditors();
  });

  test('zut.callTool calls a tool with JSON arguments and shows the result; bad arguments are refused', async () => {
    const host = await api();
    await allRunning(host);
    await closeEditors();
    /** @type {any} */ const result = await vscode.commands.executeCommand('zut.callTool', 'weather', '{"city":"Berlin"}');
    assert.strictEqual(result.ext, 'weather');
    assert.strictEqual(result.isError, false);
    assert.match(result.content[0].text, /^Berlin: 16°C, fog/);
    assert.strictEqual(result.content[1].type, 'image');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'zut' && d.getText().startsWith('# Tool weather (weather)'));
    assert.ok(doc, 'a read-only zut: document with the result is open');
    assert.match(doc.uri.path, /^\/tool\/weather-\d+\.md$/);
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document === doc), 'and shown');
    assert.strictEqual(doc.languageId, 'markdown');
    assert.strictEqual(doc.isUntitled, false);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled && d.getText().startsWith('# Tool weather')), 'no untitled copy');
    assert.match(doc.getText(), /- image image\/png, ~\d+ bytes/);
    await closeEditors();

    assert.strictEqual(await vscode.commands.executeCommand('zut.callTool', 'weather', '{"town":"Berlin"}'), undefined, 'missing required city');
    assert.strictEqual(await vscode.commands.executeCommand('zut.callTool', 'weather', '{city'), undefined, 'not JSON');
    /** @type {any} */ const deferred = await vscode.commands.executeCommand('zut.callTool', 'weather_alerts', '{"city":"London"}');
    assert.match(deferred.content[0].text, /^London alerts:/);
    await closeEditors();
  });

  test('zut.trace: frames in and out go to the extension\'s "Zut: <name>" log channel', async () => {
    const host = await api();
    await allRunning(host);
    const config = vscode.workspace.getConfiguration('zut');
    const marker = `trace-marker-${Date.now()}`;
    const channelLog = () => findFiles(process.env.ZUT_TEST_LOGS_DIR, 'Zut snippets.log').map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    const traced = (m) => eventually(() => {
      const t = channelLog();
      return t.split('\n').some((l) => l.includes('[info] → {"type":"command_invoked"') && l.includes(m)) && t.includes('← {"type":"command_response"') ? t : undefined;
    }, `the traced command_invoked with ${m} in "Zut snippets.log"`);
    const untraced = `untraced-${Date.now()}`;
    const anchor = `anchor-${Date.now()}`;
    try {
      await config.update('trace', 'verbose', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('zut.command.wordcount', marker);
      await traced(marker);
      // Off: nothing is logged. The log is ordered, so once a later traced frame is there, an earlier one would be too.
      await config.update('trace', 'off', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('zut.command.wordcount', untraced);
      await config.update('trace', 'verbose', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('zut.command.wordcount', anchor);
      const text = await traced(anchor);
      assert.ok(!text.includes(untraced), 'no frames logged while zut.trace is off');
    } finally {
      await config.update('trace', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('zut.extensionPaths loads one-run extensions that win over project ones; zut.home moves the global dir', async () => {
    const host = await api();
    await allRunning(host);
    const config = vscode.workspace.getConfiguration('zut');
    const explicit = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-explicit-'));
    fs.cpSync(path.join(WS, '.zut', 'extensions', 'shell'), explicit, { recursive: true });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-home-setting-'));
    fs.cpSync(path.join(WS, '.zut', 'extensions', 'snippets'), path.join(home, 'extensions', 'snippets'), { recursive: true });
    const byScope = (name, scope) => host.extensions().find((e) => e.name === name && e.scope === scope);
    try {
      await config.update('extensionPaths', [explicit], vscode.ConfigurationTarget.Global);
      // Running, and its registrations in: a registration window may close on silence (auto-ready) before they come.
      const explicitShell = () => byScope('shell', 'explicit');
      await eventually(() => explicitShell() && explicitShell().state === 'running' && explicitShell().commands.some((c) => c.name === 'uptime'), 'the explicit shell running with /uptime');
      assert.strictEqual(explicitShell().dir, explicit);
      assert.strictEqual(byScope('shell', 'project').state, 'shadowed');
      assert.strictEqual(host.commands().find((c) => c.name === 'uptime').ext, 'shell');

      await config.update('home', home, vscode.ConfigurationTarget.Global);
      await eventually(() => byScope('snippets', 'global'), 'snippets from the zut.home global dir');
      assert.strictEqual(byScope('snippets', 'global').state, 'shadowed', 'the project copy wins over the global one');
      assert.strictEqual(byScope('snippets', 'project').logPath, path.join(home, 'logs', 'ext-snippets.log'), 'logs go under the new home');
    } finally {
      await config.update('extensionPaths', undefined, vscode.ConfigurationTarget.Global);
      await config.update('home', undefined, vscode.ConfigurationTarget.Global);
      await eventually(() => !byScope('shell', 'explicit') && !byScope('snippets', 'global'), 'back to the workspace extensions only');
      await allRunning(host);
      fs.rmSync(explicit, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('zut.toolTimeoutSeconds applies to the next tool call; zut.autoRestart decides whether a crash restarts', async () => {
    const host = await api();
    await allRunning(host);
    const config = vscode.workspace.getConfiguration('zut');
    try {
      await config.update('toolTimeoutSeconds', 0.5, vscode.ConfigurationTarget.Global);
      await eventually(async () => {
        const err = await host.callTool('forecast', { city: 'Berlin', days: 7 }).then(() => undefined, (e) => e);
        return err && err.kind === 'timeout' && /timed out after 0\.5s/.test(err.message);
      }, 'forecast (2.1 s) to time out after 0.5 s', 20000);
    } finally {
      await config.update('toolTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
    try {
      await config.update('autoRestart', false, vscode.ConfigurationTarget.Global);
      await new Promise((r) => setTimeout(r, 300));
      process.kill(info(host, 'shell').pid, 'SIGKILL');
      await eventually(() => stateOf(host, 'shell') === 'crashed', 'shell crashed');
      await new Promise((r) => setTimeout(r, 1000));
      assert.strictEqual(stateOf(host, 'shell'), 'crashed', 'not restarted with zut.autoRestart off');
      await config.update('autoRestart', true, vscode.ConfigurationTarget.Global);
      await host.restart('shell');
      await eventually(() => stateOf(host, 'shell') === 'running', 'shell running again');
      const pid = info(host, 'shell').pid;
      process.kill(pid, 'SIGKILL');
      await eventually(() => stateOf(host, 'shell') === 'running' && info(host, 'shell').pid !== pid, 'shell restarted automatically');
    } finally {
      await config.update('autoRestart', undefined, vscode.ConfigurationTarget.Global);
      await allRunning(host);
    }
  });

  test('restart one extension gets a new process', async () => {
    const host = await api();
    await allRunning(host);
    const pid = info(host, 'todo').pid;
    await vscode.commands.executeCommand('zut.restartExtension', 'todo');
    await eventually(() => stateOf(host, 'todo') === 'running' && info(host, 'todo').pid !== pid, 'todo running with a new pid');
  });
});
