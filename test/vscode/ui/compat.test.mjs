// @ts-check
// UI: the extensions of zut's sibling hosts in a real VS Code (issue 13). The workspace copy gets a zot extension
// (test/vscode/fixtures/zot/zpanel, protocol v1, in `.zot/extensions/`), the e fixture enode
// (test/fixtures/e/enode, JSON-RPC, in `.e/extensions/`) and, in $ZOT_HOME/extensions, a zot copy of the zut
// example `weather` (shadowed). The zut example `guard` is removed from the copy, so enode is the only tool guard.
// Checked as a person sees it: the Extensions view rows; the zot panel in our webview taking keys; enode's
// interactive `ui.panel` in the same webview (`ui.key`), with its `ui.status` and `ui.widget`; its `ui.confirm` as
// a modal and `ui.input` as an InputBox; the e guard
// (`hook.tool_call`) blocking a tool that `@zut` calls with the scripted test model. (An e `ui.select` answered in
// the QuickPick: ecompat.test.mjs.) In an untrusted workspace, the project zot and e extensions are blocked until
// the folder is trusted. Screenshots: <run dir>/screenshots/compat-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO } from '../lib/context.mjs';
import { assertWebviewAccessible } from './axe.mjs';
import {
  openPalette, openWorkbench, pickRow, retry, runCommand, screenshot, sendChat, showZutView, startServer, statusBarItem, useScriptedModel,
  webview, workspaceCopy, zutCommand,
} from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPTED = path.resolve(HERE, '..', 'fixtures', 'scripted-model');
const ZPANEL = path.resolve(HERE, '..', 'fixtures', 'zot', 'zpanel');
const ENODE = path.join(REPO, 'test', 'fixtures', 'e', 'enode');

/** The Extensions view row labelled `name` whose description matches `description` (names can repeat: shadowed). */
function extensionRow(page, name, description) {
  return page
    .locator('[id="workbench.view.extension.zut"] .pane:has(.pane-header[aria-label^="Extensions"]) .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
    .filter({ has: page.locator('.label-description', { hasText: description }) })
    .first();
}

/** A row of the Widgets view (notes and widgets) containing `text`. */
async function widgetsRow(page, text) {
  await openPalette(page, '>View: Show Zut');
  await pickRow(page, 'View: Show Zut');
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Widgets' }) }).locator('.monaco-list-row', { hasText: text }).first();
}

describe('compat: zot and e extensions in VS Code', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'compat', devPaths: [SCRIPTED] });
    const ws = workspaceCopy();
    fs.rmSync(path.join(ws, '.zut', 'extensions', 'guard'), { recursive: true });
    fs.cpSync(ZPANEL, path.join(ws, '.zot', 'extensions', 'zpanel'), { recursive: true });
    fs.cpSync(ENODE, path.join(ws, '.e', 'extensions', 'enode'), { recursive: true });
    assert.ok(fs.statSync(path.join(ws, '.e', 'extensions', 'enode', 'index.mjs')).mode & 0o100, 'the e entry point stays executable');
    const shadowed = path.join(server.zotHome, 'extensions', 'weather');
    fs.mkdirSync(shadowed, { recursive: true });
    fs.writeFileSync(path.join(shadowed, 'extension.json'), JSON.stringify({ name: 'weather', version: '9.9.9', exec: './never-run.sh' }));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); });

  it('the Extensions view lists the zot and e extensions by ecosystem; a zot copy of a zut name is shadowed', async () => {
    await showZutView(page);
    await extensionRow(page, 'zpanel', / · project · zot 1\.0\.0$/).waitFor({ timeout: 60_000 });
    await extensionRow(page, 'enode', / · project · e\b/).waitFor();
    await extensionRow(page, 'weather', /^shadowed · global · zot 9\.9\.9$/).waitFor();
    await extensionRow(page, 'weather', /^running · project 1\.0\.0$/).waitFor();
    await screenshot(page, 'compat-extensions-view');
  });

  it('a zot (v1) extension\'s panel opens as our webview panel and takes keys; Esc closes it and zot hears panel_close', async () => {
    await showZutView(page);
    await extensionRow(page, 'zpanel', /^running · project · zot/).waitFor({ timeout: 60_000 });
    await zutCommand(page, 'zpanel');
    const wv = webview(page);
    const lines = wv.locator('#lines .line');
    await wv.locator('#title', { hasText: /^zot counter$/ }).waitFor();
    assert.deepEqual((await lines.allTextContents()).map((l) => l.trim()), ['count: 0', 'last key: none', 'hello_ack: protocol_version 1, zot_version sent']);
    assert.match(await wv.locator('#footer').textContent(), /esc close/);
    await assertWebviewAccessible(page, 'the zot extension\'s panel');
    await screenshot(page, 'compat-zot-panel');

    // Keys go to the zot extension as panel_key (normalized names; a typed character is a rune), and its
    // panel_render frames redraw the webview.
    await wv.locator('#lines').click();
    await page.keyboard.press('ArrowUp');
    await lines.nth(0).filter({ hasText: /^count: 1$/ }).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await wv.locator('#lines .line', { hasText: /^last key: down$/ }).waitFor();
    assert.equal((await lines.nth(0).textContent()).trim(), 'count: 1');
    await page.keyboard.press('x');
    await wv.locator('#lines .line', { hasText: /^last key: rune x$/ }).waitFor();
    await screenshot(page, 'compat-zot-panel-keys');

    // Escape closes the focused panel: the tab goes, and the extension's answer to panel_close is a note.
    const tab = page.locator('.tabs-container .tab', { hasText: 'zot counter' });
    assert.equal(await tab.count(), 1);
    await page.keyboard.press('Escape');
    await tab.waitFor({ state: 'detached' });
    await (await widgetsRow(page, 'panel closed')).waitFor();
  });

  it('an e extension\'s interactive ui.panel is our webview panel: keys arrive as ui.key, ui.panel null closes it; its ui.status and ui.widget show', async () => {
    await showZutView(page);
    await extensionRow(page, 'enode', /^running · project · e\b/).waitFor({ timeout: 60_000 });
    await zutCommand(page, 'e_panel');
    const wv = webview(page);
    const lines = wv.locator('#lines .line');
    await wv.locator('#title', { hasText: /^Counter$/ }).waitFor();
    assert.deepEqual((await lines.allTextContents()).map((l) => l.trim()), ['count: 0', 'up/down, q quits'], 'string and span lines');
    assert.match(await wv.locator('#footer').textContent(), /keys go to the extension/);
    await assertWebviewAccessible(page, 'the e extension\'s panel');
    await wv.locator('#lines').click();
    await page.keyboard.press('ArrowUp');
    await lines.nth(0).filter({ hasText: /^count: 1$/ }).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await lines.nth(0).filter({ hasText: /^count: 2$/ }).waitFor();
    await screenshot(page, 'compat-e-panel');
    // A typed character is ui.key {key: "q"}: enode answers with ui.panel null, which closes our panel.
    const tab = page.locator('.tabs-container .tab', { hasText: 'Counter' });
    assert.equal(await tab.count(), 1);
    await page.keyboard.press('q');
    await tab.waitFor({ state: 'detached' });

    // Before its panel, e_panel set a status slot (key c) and a widget (key w).
    const status = statusBarItem(page, 'zut.status.enode.status:c');
    await status.waitFor();
    assert.equal((await status.innerText()).trim(), 'counting');
    await (await widgetsRow(page, 'widget row')).waitFor();
  });

  it('an e extension\'s ui.confirm is a modal Yes/No and its ui.input an InputBox; the answers reach it', async () => {
    await showZutView(page);
    await extensionRow(page, 'enode', /^running · project · e\b/).waitFor({ timeout: 60_000 });
    await zutCommand(page, 'e_confirm');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'enode: Proceed?' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /really/);
    await screenshot(page, 'compat-e-confirm');
    await dialog.locator('.monaco-button', { hasText: /^Yes$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await (await widgetsRow(page, 'confirmed: true')).waitFor();

    await zutCommand(page, 'e_input', '', { asks: true });
    await page.locator('.quick-input-widget .quick-input-title', { hasText: /^enode: Name\?$/ }).waitFor();
    const box = page.locator('.quick-input-widget .quick-input-box input');
    assert.equal(await box.getAttribute('placeholder'), 'pat');
    await box.fill('Ada');
    await screenshot(page, 'compat-e-input');
    await box.press('Enter');
    await box.waitFor({ state: 'hidden' });
    await (await widgetsRow(page, 'hello Ada')).waitFor();
  });

  it('an e guard (hook.tool_call) blocks a tool @zut calls: the chat names the guard, the model gets the reason', async () => {
    await showZutView(page);
    await extensionRow(page, 'enode', /^running · project · e\b/).waitFor({ timeout: 60_000 });
    await useScriptedModel(page);
    const send = (text) => sendChat(page, text);
    const responses = page.locator('.interactive-item-container.interactive-response');

    // Allowed: the guard answers {block:false} and the tool runs. The extension host learns the model just selected
    // asynchronously (chat.test.mjs waits 3 s for it): instead, a request that got no answer in 20 s is sent again.
    const allowed = responses.filter({ hasText: /model got: Berlin/ }).last();
    await retry(async () => {
      await send('@zut call weather city=Berlin');
      await allowed.waitFor({ timeout: 20_000 });
    }, { timeout: 60_000, interval: 0 });
    assert.match(await allowed.innerText(), /✓\s*weather\s*\(\s*weather\s*\)/);

    // Blocked: enode refuses any call whose arguments mention rm -rf (the zut guard example is not in this workspace).
    await send('@zut call weather city="rm -rf /"');
    const blocked = responses.filter({ hasText: /model got: [\s\S]*enode refuses weather/ }).last();
    await blocked.waitFor({ timeout: 60_000 });
    const text = (await blocked.innerText()).replace(/[\s\u00a0]+/g, ' ');
    await screenshot(page, 'compat-e-guard');
    assert.match(text, /⛔ ?weather ?\( ?weather ?\): blocked by enode: enode refuses weather/, text);
    assert.doesNotMatch(text, /✓ ?weather/, 'the tool never ran');
  });

  // Last in this window: "Don't ask again" holds until the window reloads.
  it('"Don\'t ask again" on an e extension\'s ui.confirm refuses its later questions: no second modal, an error answer', async () => {
    await showZutView(page);
    await extensionRow(page, 'enode', /^running · project · e\b/).waitFor({ timeout: 60_000 });
    await zutCommand(page, 'e_confirm');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'enode: Proceed?' });
    await dialog.waitFor();
    await dialog.locator('.monaco-button', { hasText: /^Don't ask again$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await (await widgetsRow(page, 'confirmed: false')).waitFor();

    await zutCommand(page, 'e_confirm');
    await (await widgetsRow(page, 'may not ask again this session')).waitFor();
    await screenshot(page, 'compat-e-dont-ask-again');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no second modal');
  });
});

describe('compat: zot and e extensions in an untrusted workspace', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'compat-untrusted', trust: false });
    const ws = workspaceCopy();
    fs.cpSync(ZPANEL, path.join(ws, '.zot', 'extensions', 'zpanel'), { recursive: true });
    fs.cpSync(ENODE, path.join(ws, '.e', 'extensions', 'enode'), { recursive: true });
    // A global zot extension (sh, protocol v1): not code from the repository, so it runs untrusted.
    const home = path.join(server.zotHome, 'extensions', 'zhome');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'run.sh'), [
      '#!/bin/sh',
      `printf '%s\\n' '{"type":"hello","name":"zhome","version":"1.0.0","capabilities":["commands"]}'`,
      'while IFS= read -r l; do',
      `  case "$l" in *'"hello_ack"'*) printf '%s\\n' '{"type":"ready"}' ;; *'"shutdown"'*) exit 0 ;; esac`,
      'done',
    ].join('\n') + '\n', { mode: 0o755 });
    fs.writeFileSync(path.join(home, 'extension.json'), JSON.stringify({ name: 'zhome', version: '1.0.0', exec: './run.sh' }));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); });

  it('project zot and e extensions are blocked by Workspace Trust, a global zot one runs; trusting the folder starts them', async () => {
    await showZutView(page);
    await extensionRow(page, 'zpanel', /^blocked by Workspace Trust · project · zot/).waitFor({ timeout: 60_000 });
    await extensionRow(page, 'enode', /^blocked by Workspace Trust · project · e\b/).waitFor();
    await extensionRow(page, 'zhome', /^running · global · zot 1\.0\.0$/).waitFor();
    await screenshot(page, 'compat-untrusted-blocked');
    await runCommand(page, 'Workspaces: Manage Workspace Trust');
    await page.getByRole('button', { name: /^Trust$/ }).first().click();
    await extensionRow(page, 'zpanel', /^running · project · zot/).waitFor({ timeout: 45_000 });
    await extensionRow(page, 'enode', /^running · project · e\b/).waitFor({ timeout: 45_000 });
    await screenshot(page, 'compat-untrusted-granted');
  });
});
