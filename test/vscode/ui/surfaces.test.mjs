// @ts-check
// UI: what a person sees of the extension surfaces, with the packaged vsix and the example extensions `todo` and
// `progress`: the todo panel webview (text shown literally, keys, Escape), status bar items, and the Widgets view
// with widgets and notes, the bell alert while the window is away. Screenshots: <run dir>/screenshots/surfaces-*.png.
import assert from 'node:assert/strict';
import { assertWebviewAccessible } from './axe.mjs';
import { openPalette, openWorkbench, pickRow, retry, screenshot, startServer, statusBarItem, webview, workspaceCopy, zutCommand } from './harness.mjs';



describe('surfaces: panels, status bar, widgets and notes', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'surfaces' });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('the todo panel opens in a webview, shows text literally, takes keys, and Escape closes it', async () => {
    await zutCommand(page, 'todo');
    const wv = webview(page);
    const lines = wv.locator('#lines .line');
    await lines.nth(2).waitFor();
    assert.equal(await lines.count(), 3);
    assert.match(await wv.locator('#title').textContent(), /^Todos \(1\/3 done\)$/);
    assert.match(await wv.locator('#footer').textContent(), /esc close/);
    assert.equal(await wv.locator('#lines .line.selected').count(), 1);
    // A listbox labelled by the title; the selected row is its active descendant (what a screen reader reads).
    const list = wv.locator('#lines');
    assert.equal(await list.getAttribute('role'), 'listbox');
    assert.equal(await list.getAttribute('aria-label'), 'Todos (1/3 done)');
    assert.equal(await wv.locator('#lines [role="option"]').count(), 3);
    const activeId = async () => list.getAttribute('aria-activedescendant');
    assert.equal(await activeId(), await wv.locator('#lines .line.selected').getAttribute('id'));
    assert.equal(await wv.locator('#lines [aria-selected="true"]').count(), 1);
    // Only the status region is live: a render does not make the whole panel speak.
    assert.equal(await wv.locator('[aria-live]').count(), 1);
    assert.equal(await wv.locator('#announce').getAttribute('aria-live'), 'polite');
    // axe-core in the panel's frame: 0 violations (a title, a heading one, everything inside landmarks, …).
    await assertWebviewAccessible(page, 'the todo panel');

    // Markup in extension text is data: shown as typed, never parsed.
    const evil = '<script>document.title="pwned"</script><b>bold</b><img src=x onerror=alert(1)>';
    await zutCommand(page, 'todo-add', evil);
    await lines.nth(3).waitFor();
    assert.equal(await lines.nth(3).textContent(), `  □ ${evil}`);
    assert.equal(await wv.locator('#lines script, #lines b, #lines img').count(), 0);
    await screenshot(page, 'surfaces-todo-panel');

    // Keys: focus the webview, go to the top, one down, toggle with x.
    await wv.locator('#lines').click();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await wv.locator('#lines .line.selected', { hasText: 'Try the todo panel keys' }).waitFor();
    assert.match(await lines.nth(1).textContent(), /^▸ □ Try the todo panel keys$/);
    assert.equal(await activeId(), 'row-1');
    await page.keyboard.press('x');
    await wv.locator('#lines .line.selected', { hasText: '✓ Try the todo panel keys' }).waitFor();
    assert.match(await wv.locator('#title').textContent(), /^Todos \(2\/4 done\)$/);
    // The same row changed in place: the status region says the row (without the selection marker), nothing else.
    await wv.locator('#announce', { hasText: /^✓ Try the todo panel keys$/ }).waitFor();
    await screenshot(page, 'surfaces-todo-panel-keys');
    await assertWebviewAccessible(page, 'the todo panel after a toggle (status region said the row)');

    // Ctrl+M: Tab no longer goes to the extension but moves focus out of the panel (Ctrl+M again: back).
    await page.keyboard.press('Control+m');
    await wv.locator('#tabmode', { hasText: 'Tab moves focus' }).waitFor();
    const listFocused = () => list.evaluate((el) => el.ownerDocument.activeElement === el && el.ownerDocument.hasFocus());
    assert.equal(await listFocused(), true);
    await page.keyboard.press('Tab');
    await retry(async () => assert.equal(await listFocused(), false, 'Tab moved focus out of the panel'), { timeout: 10_000, interval: 200 });
    await screenshot(page, 'surfaces-todo-panel-tab-moves-focus');

    // Hidden and shown again (another editor on top): the webview is dropped while hidden (no
    // retainContextWhenHidden), and the new one gets the same frame through the ready/replay handshake and keeps
    // its Ctrl+M mode.
    await list.evaluate(() => { /** @type {any} */ (window).zutMarker = 'old webview'; });
    const tab = page.locator('.tabs-container .tab', { hasText: 'Todos' });
    await openPalette(page, '>File: New Untitled Text File');
    await pickRow(page, 'File: New Untitled Text File');
    await page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).waitFor();
    await tab.click();
    await wv.locator('#lines .line.selected', { hasText: '✓ Try the todo panel keys' }).waitFor();
    assert.equal(await list.evaluate(() => /** @type {any} */ (window).zutMarker), undefined, 'a new webview (the old one was not retained)');
    assert.match(await wv.locator('#title').textContent(), /^Todos \(2\/4 done\)$/);
    await wv.locator('#tabmode', { hasText: 'Tab moves focus' }).waitFor();
    await wv.locator('#lines').click();
    await page.keyboard.press('Control+m');
    await wv.locator('#tabmode').waitFor({ state: 'hidden' });

    // A burst of keys (j/k move down/up in todo: 300 renders), then End: the webview ends on the last frame.
    await page.keyboard.type('jk'.repeat(150));
    await page.keyboard.press('End');
    await wv.locator('#lines .line.selected', { hasText: 'onerror=alert(1)' }).waitFor();
    assert.equal(await wv.locator('#lines .line.selected').count(), 1);
    assert.match(await lines.nth(3).textContent(), /^▸ □ <script>/);

    // Escape closes the focused panel (as in zut): the tab goes away and the extension gets panel_close.
    assert.equal(await tab.count(), 1);
    await page.keyboard.press('Escape');
    await tab.waitFor({ state: 'detached' });
  });

  it('a status item appears with its level icon, shows $(…) literally, and goes when cleared', async () => {
    await zutCommand(page, 'status-set', 'build error compile $(zap) failed');
    const item = statusBarItem(page, 'zut.status.progress.build');
    await item.waitFor();
    assert.equal((await item.innerText()).trim(), 'compile $(zap) failed');
    assert.equal(await item.locator('.codicon-error').count(), 1, 'the level icon');
    assert.equal(await item.locator('.codicon-zap').count(), 0, 'no codicon from extension text');
    assert.match(await item.getAttribute('class'), /error-kind/);
    await screenshot(page, 'surfaces-status-bar');

    // A click shows the extension's row in the Zut side bar's Extensions view, selected.
    await item.click();
    const extensions = page.locator('[id="workbench.view.extension.zut"] .pane:has(.pane-header[aria-label^="Extensions"])');
    await extensions.locator('.monaco-list-row.selected', { has: page.locator('.label-name', { hasText: /^progress$/ }) }).waitFor();
    await screenshot(page, 'surfaces-status-click');

    await zutCommand(page, 'status-clear', 'build');
    await item.waitFor({ state: 'detached' });
  });

  it('the Widgets view shows widgets and notes; a warning also shows one notification', async () => {
    await zutCommand(page, 'widget', 'plan Plan|step $(zap) one|step <b>two</b>');
    await zutCommand(page, 'notify', 'warn careful [now](command:workbench.action.quit)');
    await zutCommand(page, 'notify', 'info second note');
    await openPalette(page, '>View: Show Zut');
    await pickRow(page, 'View: Show Zut');
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Widgets' }) });
    const row = (text) => pane.locator('.monaco-list-row', { hasText: text });
    for (const text of ['progress', 'Plan', 'step $(zap) one', 'step <b>two</b>', 'Notes', 'second note']) {
      await row(text).first().waitFor();
    }
    assert.equal(await pane.locator('.monaco-list-row .codicon-zap').count(), 0);
    // Newest note first.
    const labels = await pane.locator('.monaco-list-row').allInnerTexts();
    const i2 = labels.findIndex((l) => l.includes('second note'));
    const i1 = labels.findIndex((l) => l.includes('careful'));
    assert.ok(i2 >= 0 && i1 > i2, `notes newest first: ${JSON.stringify(labels)}`);

    await screenshot(page, 'surfaces-widgets-notes');
    // The warning was also a notification (toasts hide after a while: look in the notification center), and the
    // markdown link in its text stayed text.
    await openPalette(page, '>Notifications: Show Notifications');
    await pickRow(page, 'Notifications: Show Notifications');
    const note = page.locator('.notifications-center .notification-list-item', { hasText: '[progress] careful' });
    await note.waitFor();
    const progressNotes = page.locator('.notifications-center .notification-list-item', { hasText: '[progress]' });
    assert.equal(await progressNotes.count(), 1, 'one notification for the warning; the info note is not one');
    const message = note.locator('.notification-list-item-message');
    // Shown as typed (a zero-width space between `]` and `(` is what keeps it from being a link).
    assert.match((await message.innerText()).replace(/\u200b/g, ''), /careful \[now\]\(command:workbench\.action\.quit\)/);
    assert.equal(await message.locator('a').count(), 0, 'no link from extension text');
    await screenshot(page, 'surfaces-notification');
    await page.keyboard.press('Escape');

    await zutCommand(page, 'widget-clear', 'plan');
    await row('Plan').waitFor({ state: 'detached' });
    await zutCommand(page, 'clear-notes');
    await row('second note').waitFor({ state: 'detached' });
    assert.equal(await row('careful').count(), 0);
    // Other extensions' notes stay (todo's "added …" note from the first test).
    assert.equal(await row('added "').count(), 1);
    await screenshot(page, 'surfaces-widgets-cleared');
  });

  it('a bell while the window is not focused shows an attention notification; none while focused', async () => {
    await zutCommand(page, 'bell', 'while_focused');
    // Take focus away from the workbench as switching to another window does (the page reports no focus).
    await page.evaluate(() => {
      Object.defineProperty(document, 'hasFocus', { configurable: true, value: () => false });
      window.dispatchEvent(new Event('blur'));
    });
    // The palette moves focus inside the page only: no window focus event, so VS Code still counts as away.
    await zutCommand(page, 'bell', 'while_away');
    await openPalette(page, '>Notifications: Show Notifications');
    await pickRow(page, 'Notifications: Show Notifications');
    const away = page.locator('.notifications-center .notification-list-item', { hasText: 'Zut: extension “progress” needs your attention' });
    await away.first().waitFor();
    assert.equal(await away.count(), 1, 'one attention notification: the bell while focused showed none');
    assert.match(await away.first().innerText(), /while_away/);
    await screenshot(page, 'surfaces-alert');
    await page.keyboard.press('Escape');
  });
});
