// @ts-check
// UI: an e extension (issue 13) in VS Code. The fixture test/fixtures/e/enode, copied into the workspace's
// `.e/extensions` (project scope: the UI suites run with consent "trustedWorkspace"), asks `ui.select`: VS Code shows
// a QuickPick titled with the extension and the question; the pick reaches the extension, whose notice comes back
// as the command's output. In `@zut` (the scripted test model), its `hook.tool_call` guard blocks a tool call and
// its tool runs. Screenshots: <run dir>/screenshots/ecompat-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { notification, openPalette, openWorkbench, paletteRow, retry, screenshot, sendChat, showZutView, startServer, useScriptedModel, workspaceCopy } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENODE = path.resolve(HERE, '../../fixtures/e/enode');
const SCRIPTED = path.resolve(HERE, '..', 'fixtures', 'scripted-model');

/** Runs a zut command from "Zut: Run Command…" with no arguments, without waiting for the quick input to close
 * (the command opens a question in the same widget). Retries while the pick is still filling up. */
async function runZutCommand(page, name) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const argsFor = page.locator('.quick-input-widget .quick-input-message', { hasText: `Arguments for /${name} (` });
  await retry(async () => {
    await openPalette(page, '>Zut: Run Command…');
    await paletteRow(page, 'Zut: Run Command…').click({ timeout: 5000 });
    await input.fill(`/${name}`, { timeout: 5000 });
    await paletteRow(page, `/${name}`).click({ timeout: 5000 });
    await argsFor.waitFor({ timeout: 5000 });
  }, { timeout: 60_000, interval: 1000 });
  await input.press('Enter');
}

describe('e extensions: questions as native VS Code UI', () => {
  let server;
  let page;

  before(async () => {
    const folder = workspaceCopy();
    fs.cpSync(ENODE, path.join(folder, '.e', 'extensions', 'enode'), { recursive: true });
    // A zot copy of the example zut extension `snippets`: zut's wins, the zot one is listed as shadowed.
    const zot = path.join(folder, '.zot', 'extensions', 'snippets');
    fs.mkdirSync(zot, { recursive: true });
    fs.writeFileSync(path.join(zot, 'run.sh'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    fs.writeFileSync(path.join(zot, 'extension.json'), JSON.stringify({ name: 'snippets', version: '9.9.9', exec: './run.sh' }));
    server = await startServer({ name: 'ecompat', devPaths: [SCRIPTED] });
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('the Extensions view: enode is an e extension without manifest actions; the zot copy of snippets is shadowed', async () => {
    await page.keyboard.press('Escape');
    await showZutView(page);
    const rows = page.locator('[id="workbench.view.extension.zut"] .pane:has(.pane-header[aria-label^="Extensions"]) .monaco-list-row');
    const row = (name, description) => rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
      .filter({ has: page.locator('.label-description', { hasText: description }) }).first();
    const enode = row('enode', /^running · project · e 1\.0\.0$/);
    await enode.waitFor({ timeout: 30_000 });
    await row('snippets', /^shadowed · project · zot 9\.9\.9$/).waitFor();
    await row('snippets', /^running · project 1\.0\.0$/).waitFor();
    await screenshot(page, 'ecompat-extensions-view');
    await enode.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor();
    const labels = (await menu.locator('.action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    for (const want of ['Restart Extension', 'Disable (Workspace)', 'Open Manifest']) assert.ok(labels.includes(want), `has "${want}": ${JSON.stringify(labels)}`);
    for (const not of ['Disable in Manifest', 'Remove Extension (Move to Trash)…']) assert.ok(!labels.includes(not), `no "${not}": ${JSON.stringify(labels)}`);
    await page.keyboard.press('Escape');
  });

  it('ui.select is a QuickPick; the pick reaches the extension', async () => {
    await runZutCommand(page, 'e_ask');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'enode: Colour?' }).waitFor();
    const green = paletteRow(page, 'Green');
    await green.waitFor();
    assert.match(await green.textContent(), /the calm one/);
    await screenshot(page, 'ecompat-select');
    await green.click();
    await notification(page, '[enode] picked green (Green)');
    await page.keyboard.press('Escape');
  });

  it('a dismissed question answers "cancelled"', async () => {
    await runZutCommand(page, 'e_ask');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'enode: Colour?' }).waitFor();
    await page.keyboard.press('Escape');
    await notification(page, '[enode] cancelled');
    await page.keyboard.press('Escape');
  });

  it('@zut: the e guard blocks a tool the model calls; an e tool answers the model', async () => {
    await useScriptedModel(page);
    await page.waitForTimeout(3000); // the extension host learns the new model's metadata asynchronously
    const send = (text) => sendChat(page, text);
    await send('@zut call e_danger');
    // Wait for the end of the streamed answer, not only its start.
    const blocked = page.locator('.interactive-item-container.interactive-response', { hasText: /model got: .*refuses e_danger/ }).last();
    await blocked.waitFor({ timeout: 60_000 });
    const text = await blocked.innerText();
    await screenshot(page, 'ecompat-chat-guard');
    assert.match(text, /e_danger.*\(.*enode.*\): .*enode refuses e_danger/s, text);
    assert.match(text, /model got: .*blocked by enode: enode refuses e_danger/, text);
    await send('@zut call e_greet who=ann');
    await page.locator('.interactive-item-container.interactive-response', { hasText: 'model got: hello ann' }).last().waitFor({ timeout: 60_000 });
  });
});
