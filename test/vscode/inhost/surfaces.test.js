// @ts-check
// In-host: the HostUi surfaces driven by the real Manager and the example extensions `progress` and `todo`
// (examples/workspace/.zut/extensions). Commands run through `zut.command.<name>` like a keybinding would; what
// the surfaces show is read back through `zut.test.snapshot` (registered in test mode only).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { eventually, writeShExt } = require('./util');
const vscode = require('vscode');

const ID = 'zut.zut-vscode';


/** @type {(...a: any[]) => Thenable<any>} */ const snapshot = () => vscode.commands.executeCommand('zut.test.snapshot');
/** @type {(...a: any[]) => Thenable<any>} */ const run = (name, args = '') => vscode.commands.executeCommand(`zut.command.${name}`, args);
const statusOf = (s, id) => s.status.find((x) => x.id === id);
const extView = (s, ext) => s.widgets.find((w) => w.ext === ext);
const panelOf = (s, ext, id) => s.panels.find((p) => p.ext === ext && p.id === id);

suite('surfaces (HostUi in VS Code)', function () {
  this.timeout(60000);
  let host;

  suiteSetup(async () => {
    const api = await vscode.extensions.getExtension(ID).activate();
    host = api.host;
    assert.ok(host, 'activate() returns { host }');
    const states = () => host.extensions().map((e) => `${e.name}=${e.state}`).join(', ');
    await eventually(() => {
      const running = host.extensions().filter((e) => e.state === 'running').map((e) => e.name);
      return running.includes('progress') && running.includes('todo');
    }, 'progress and todo to be running', 30000).catch((e) => assert.fail(`${e.message} (${states()})`));
    await eventually(async () => (await vscode.commands.getCommands(true)).includes('zut.command.status-set'), 'zut.command.status-set');
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('zut').update('alerts', undefined, vscode.ConfigurationTarget.Global);
  });

  test('status: one item per (extension, key), level icon + background, $(…) escaped, empty text removes it', async () => {
    await run('status-set', 'build error compile $(zap) failed');
    let s = await eventually(async () => statusOf(await snapshot(), 'zut.status.progress.build'), 'the build status item');
    assert.strictEqual(s.text, '$(error) compile \\$(zap) failed');
    assert.strictEqual(s.background, 'statusBarItem.errorBackground');
    assert.match(s.tooltip, /progress/);
    // A click reveals the extension's row in the Extensions view.
    assert.deepStrictEqual(s.command, { command: 'zut.revealExtension', arguments: ['progress'] });
    await vscode.commands.executeCommand(s.command.command, ...s.command.arguments);

    await run('status-set', 'build warning 2 warnings');
    s = await eventually(async () => {
      const x = statusOf(await snapshot(), 'zut.status.progress.build');
      return x && x.text.startsWith('$(warning)') && x;
    }, 'the warning level');
    assert.strictEqual(s.text, '$(warning) 2 warnings');
    assert.strictEqual(s.background, 'statusBarItem.warningBackground');

    await run('status-set', 'tests success 42 passed');
    await run('status-set', 'build info idle');
    const snap = await snapshot();
    assert.deepStrictEqual(
      snap.status.filter((x) => x.ext === 'progress').map((x) => [x.id, x.text, x.background ?? null]).sort(),
      [['zut.status.progress.build', '$(info) idle', null], ['zut.status.progress.tests', '$(check) 42 passed', null]],
    );

    await run('status-clear', 'build');
    await run('status-clear', 'tests');
    await eventually(async () => !(await snapshot()).status.some((x) => x.ext === 'progress'), 'the status items to go');
  });

  test('widgets: set, replace, clear in the Widgets view', async () => {
    await run('widget', 'plan Plan|step 1 <b>bold</b>|step 2');
    let view = await eventually(async () => extView(await snapshot(), 'progress'), 'the progress widget');
    assert.deepStrictEqual(view.widgets, [{ id: 'plan', title: 'Plan', lines: ['step 1 <b>bold</b>', 'step 2'] }]);

    await run('widget', 'plan Plan v2|only line');
    await run('widget', 'other Other|x');
    view = await eventually(async () => {
      const v = extView(await snapshot(), 'progress');
      return v && v.widgets.length === 2 && v;
    }, 'two widgets');
    assert.deepStrictEqual(view.widgets.map((w) => [w.id, w.title, w.lines]), [['plan', 'Plan v2', ['only line']], ['other', 'Other', ['x']]]);

    await run('widget-clear', 'plan');
    await run('widget-clear', 'other');
    await eventually(async () => !extView(await snapshot(), 'progress'), 'the extension node to go once empty');
  });

  test('notes: notify and display are listed newest first; warn/error toasts are coalesced; clear_notes removes them', async () => {
    // Start from no notes (earlier test files may have left some, e.g. /wordcount output).
    await vscode.commands.executeCommand('zut.test.clearAllNotes');
    const before = (await snapshot()).toasts;
    await run('notify', 'info first note');
    await run('notify', 'warn second note');
    await run('notify', 'error third note');
    const view = await eventually(async () => {
      const v = extView(await snapshot(), 'progress');
      return v && v.notes.length === 3 && v;
    }, 'three notes');
    assert.deepStrictEqual(view.notes, [
      { level: 'error', text: 'third note' },
      { level: 'warn', text: 'second note' },
      { level: 'info', text: 'first note' },
    ]);
    // warn then error in one burst: one notification, the second is folded into the view.
    assert.strictEqual((await snapshot()).toasts, before + 1);

    // zut.notes.notifications off: a new burst (after the 2 s quiet window ends the first) is listed, not notified.
    const zut = vscode.workspace.getConfiguration('zut');
    await zut.update('notes.notifications', 'off', vscode.ConfigurationTarget.Global);
    try {
      // The burst window is the policy under test, not a race: wait it out.
      await new Promise((r) => setTimeout(r, 2100));
      await run('notify', 'error while notifications are off');
      await eventually(async () => extView(await snapshot(), 'progress')?.notes.length === 4, 'the fourth note');
      assert.strictEqual((await snapshot()).toasts, before + 1, 'no notification with zut.notes.notifications off');
    } finally {
      await zut.update('notes.notifications', undefined, vscode.ConfigurationTarget.Global);
    }

    await run('wordcount', 'three little words');
    const snippets = await eventually(async () => extView(await snapshot(), 'snippets'), 'the display note of /wordcount');
    assert.strictEqual(snippets.notes.length, 1);
    assert.match(snippets.notes[0].text, /3 words/);
    assert.strictEqual(snippets.notes[0].level, 'info');

    await run('clear-notes');
    await eventually(async () => !extView(await snapshot(), 'progress'), 'progress notes to be cleared');
    assert.ok(extView(await snapshot(), 'snippets'), 'clear_notes leaves other extensions alone');
    // What the chat does when the user sends the next @zut prompt: every note goes.
    await vscode.commands.executeCommand('zut.test.clearAllNotes');
    await eventually(async () => (await snapshot()).widgets.every((w) => w.notes.length === 0), 'all notes to be cleared');
  });

  test('alert: nothing with zut.alerts off; with notify, a notification only when the window is not focused', async () => {
    const zut = vscode.workspace.getConfiguration('zut');
    await zut.update('alerts', 'off', vscode.ConfigurationTarget.Global);
    await run('bell', 'question_ready');
    let a = await eventually(async () => (await snapshot()).alerts.find((x) => x.reason === 'question_ready'), 'the alert');
    assert.deepStrictEqual(a, { ext: 'progress', kind: 'bell', reason: 'question_ready', shown: false });

    await zut.update('alerts', 'notify', vscode.ConfigurationTarget.Global);
    await run('bell', 'second_bell');
    a = await eventually(async () => (await snapshot()).alerts.find((x) => x.reason === 'second_bell'), 'the second alert');
    assert.strictEqual(a.kind, 'bell');
    assert.strictEqual(a.shown, !vscode.window.state.focused);
  });

  test('submit and submit_slash: submit is handed to the chat, /slash runs the zut command', async () => {
    await run('submit', 'summarize the workspace');
    const sub = await eventually(async () => (await snapshot()).submits.find((x) => x.text === 'summarize the workspace'), 'the submit');
    assert.strictEqual(sub.ext, 'progress');

    await run('slash', '/status-set viaslash success set by submit_slash');
    const s = await eventually(async () => statusOf(await snapshot(), 'zut.status.progress.viaslash'), 'the status set by the slash command');
    assert.strictEqual(s.text, '$(check) set by submit_slash');
    assert.ok((await snapshot()).slashes.some((x) => x.ext === 'progress' && x.text.startsWith('/status-set viaslash')));
    await run('status-clear', 'viaslash');
  });

  test('panels: open_panel opens a webview, keys reach the extension, renders update it, esc closes it', async () => {
    await run('todo');
    let p = await eventually(async () => panelOf(await snapshot(), 'todo', 'todo-main'), 'the todo panel');
    assert.match(p.title, /^Todos \(\d+\/\d+ done\)$/);
    assert.strictEqual(p.lines.filter((l) => l.startsWith('▸ ')).length, 1, 'one selected row');
    assert.ok(p.active, 'the panel is focused');
    // The webview script loaded under the CSP, said ready, got the frame and measured itself.
    p = await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && x.posts >= 1 && x.size && x;
    }, 'the first post and the panel size');
    assert.ok(p.size.columns > 10 && p.size.rows > 2, JSON.stringify(p.size));

    const selected = (x) => x.lines.findIndex((l) => l.startsWith('▸ '));
    const start = selected(p);
    host.panelKey('todo', 'todo-main', 'home');
    host.panelKey('todo', 'todo-main', 'down');
    p = await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && selected(x) === 1 && x;
    }, `the selection to move to row 1 (was ${start})`);
    const row = p.lines[1];
    host.panelKey('todo', 'todo-main', 'rune', 'x');
    await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && x.lines[1] !== row && x.lines[1].slice(4) === row.slice(4);
    }, 'row 1 to toggle');
    // Toggle it back: the workspace (todos.json) is shared with the other in-host tests.
    host.panelKey('todo', 'todo-main', 'enter');
    await eventually(async () => panelOf(await snapshot(), 'todo', 'todo-main')?.lines[1] === row, 'row 1 to toggle back');

    // The spontaneous form reveals the same panel instead of opening a second one.
    await run('todo-pop');
    await new Promise((r) => setTimeout(r, 300));
    assert.strictEqual((await snapshot()).panels.filter((x) => x.ext === 'todo').length, 1);

    host.panelKey('todo', 'todo-main', 'esc');
    await eventually(async () => !panelOf(await snapshot(), 'todo', 'todo-main'), 'the extension to close the panel');
  });

  test('panels: a render storm is coalesced and ends on the last frame', async () => {
    await run('todo');
    let p = await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && x.posts >= 1 && x;
    }, 'the todo panel and its first post');
    const postsBefore = p.posts;
    // 2,000 keys → 2,000 panel_render frames from the extension. Sent in batches of 100: the host's outbound
    // queue (256 frames) disconnects an extension that falls that far behind, by design.
    for (let batch = 0; batch < 20; batch++) {
      for (let i = 0; i < 50; i++) {
        host.panelKey('todo', 'todo-main', 'down');
        host.panelKey('todo', 'todo-main', 'up');
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    host.panelKey('todo', 'todo-main', 'end');
    const last = (x) => x.lines.length - 1;
    p = await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && x.lines[last(x)].startsWith('▸ ') && x;
    }, 'the last frame (selection on the last row)');
    // Let the coalescer deliver the final frame, then count.
    await new Promise((r) => setTimeout(r, 500));
    p = panelOf(await snapshot(), 'todo', 'todo-main');
    const posts = p.posts - postsBefore;
    assert.ok(posts >= 1 && posts < 500, `2,001 renders became ${posts} posts`);
    assert.strictEqual(host.extensions().find((e) => e.name === 'todo').restarts, 0, 'todo kept up (no disconnect)');
    host.panelKey('todo', 'todo-main', 'esc');
    await eventually(async () => !panelOf(await snapshot(), 'todo', 'todo-main'), 'the panel to close');
  });

  test('panels: closing the tab closes the panel for the extension (panel_close)', async () => {
    await run('todo');
    await eventually(async () => panelOf(await snapshot(), 'todo', 'todo-main')?.active, 'the active todo panel');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await eventually(async () => !panelOf(await snapshot(), 'todo', 'todo-main'), 'the panel to be gone');
    // The spontaneous open_panel (no command response) opens it again, and it works as before.
    await run('todo-pop');
    let p = await eventually(async () => panelOf(await snapshot(), 'todo', 'todo-main'), 'the spontaneously opened panel');
    assert.ok(p.active, 'focused');
    host.panelKey('todo', 'todo-main', 'end');
    p = await eventually(async () => {
      const x = panelOf(await snapshot(), 'todo', 'todo-main');
      return x && x.lines[x.lines.length - 1].startsWith('▸ ') && x;
    }, 'the selection on the last row');
    host.panelKey('todo', 'todo-main', 'esc');
    await eventually(async () => !panelOf(await snapshot(), 'todo', 'todo-main'), 'the panel to close');
  });

  test('panels: two extensions\' panels are open at once, each keeps its own frames and keys', async () => {
    await run('todo');
    await eventually(async () => panelOf(await snapshot(), 'todo', 'todo-main'), 'the todo panel');
    await run('status-set', 'twopanels info first');
    await run('progress-log');
    let s = await eventually(async () => {
      const x = await snapshot();
      return panelOf(x, 'progress', 'progress-log') && panelOf(x, 'todo', 'todo-main') && x;
    }, 'both panels');
    assert.ok(panelOf(s, 'progress', 'progress-log').active, 'the newest panel is focused');
    assert.match(panelOf(s, 'progress', 'progress-log').lines[0], /^▸ .*status twopanels first$/);
    const todoBefore = panelOf(s, 'todo', 'todo-main').lines.join('\n');
    // A new frame re-renders the log panel only; a key for the log panel reaches progress, not todo.
    await run('status-set', 'twopanels info second');
    await eventually(async () => /status twopanels second$/.test(panelOf(await snapshot(), 'progress', 'progress-log').lines[0]), 'the log panel updated');
    host.panelKey('progress', 'progress-log', 'down');
    s = await eventually(async () => {
      const x = await snapshot();
      return panelOf(x, 'progress', 'progress-log').lines[1].startsWith('▸ ') && x;
    }, 'the log selection to move');
    assert.strictEqual(panelOf(s, 'todo', 'todo-main').lines.join('\n'), todoBefore, 'the todo panel is unchanged');
    assert.strictEqual(s.panels.length, 2);
    await run('status-clear', 'twopanels');
    host.panelKey('todo', 'todo-main', 'esc');
    await eventually(async () => !panelOf(await snapshot(), 'todo', 'todo-main'), 'the todo panel to close');
    assert.ok(panelOf(await snapshot(), 'progress', 'progress-log'), 'the log panel stays open');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await eventually(async () => !panelOf(await snapshot(), 'progress', 'progress-log'), 'the log panel to close');
  });

  test('an extension restart drops its status items, widgets and panels, and keeps its notes (issue 32: a reload took them)', async () => {
    await vscode.commands.executeCommand('zut.test.clearAllNotes');
    await run('status-set', 'gone info about to restart');
    await run('widget', 'gone Gone|x');
    await run('notify', 'info a note');
    await eventually(async () => {
      const s = await snapshot();
      return statusOf(s, 'zut.status.progress.gone') && extView(s, 'progress')?.notes.length;
    }, 'progress surfaces');
    await host.restart('progress');
    const s = await snapshot();
    assert.strictEqual(statusOf(s, 'zut.status.progress.gone'), undefined);
    assert.deepStrictEqual(extView(s, 'progress'), { ext: 'progress', widgets: [], notes: [{ level: 'info', text: 'a note' }] });
    await vscode.commands.executeCommand('zut.test.clearAllNotes');
  });

  test('the notes of an extension gone from the host go with it', async () => {
    const dir = path.join(process.env.ZUT_TEST_WORKSPACE, '.zut', 'extensions', 'notey');
    writeShExt(path.dirname(dir), 'notey', 'v1');
    await eventually(() => host.extensions().some((e) => e.name === 'notey' && e.state === 'running'), 'notey running');
    await eventually(async () => {
      await run('notey-hi').then(undefined, () => undefined);
      return extView(await snapshot(), 'notey')?.notes.length;
    }, 'a note of notey');
    fs.rmSync(dir, { recursive: true, force: true });
    await eventually(async () => !host.extensions().some((e) => e.name === 'notey') && !extView(await snapshot(), 'notey'), 'notey and its notes gone');
    // Gone once the reload replaced the set; it still starts the others: the next suite begins on a settled host.
    await host.whenSettled(Date.now() + 30000);
  });
});
