// @ts-check
// UI: `@zut` typed into the Chat view with the scripted test model selected (test/vscode/fixtures/scripted-model,
// loaded as a development extension next to the installed vsix). The example weather tool runs, its result reaches
// the model (the scripted model echoes it), and the response shows the tool line and the answer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPalette, openWorkbench, pickRow, runCommand, screenshot, sendChat, startServer, useScriptedModel, workspaceCopy, zutCommand } from './harness.mjs';

const SCRIPTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scripted-model');
/**
 * The README's picture: every UI run takes it (into the run dir); with ZUT_UPDATE_README_SCREENSHOT=1
 * (`npm run screenshot`) it replaces docs/images/zut-vscode.png, so a test run never leaves the work tree dirty.
 */
const README_SCREENSHOT = process.env.ZUT_UPDATE_README_SCREENSHOT === '1'
  ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'images', 'zut-vscode.png')
  : path.join(process.env.ZUT_VSCODE_RUN_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zut-readme-')), 'readme', 'zut-vscode.png');
const { version } = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

describe('chat: @zut in the Chat view', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'chat', devPaths: [SCRIPTED] });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  const send = (text) => sendChat(page, text);

  /** Selects the scripted test model in the Chat view (idempotent). */
  async function selectScriptedModel() {
    await useScriptedModel(page);
    // The extension host learns a newly registered model's metadata asynchronously: give it a moment.
    await page.waitForTimeout(3000);
  }

  it('the product never offers the test model: no model provider in the installed manifest or files', () => {
    const dir = path.join(server.extensionsDir, `zut.zut-vscode-${version}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    assert.equal(manifest.contributes.languageModelChatProviders, undefined);
    assert.deepEqual(manifest.contributes.chatParticipants.map((p) => [p.id, p.name, p.commands.map((c) => c.name)]),
      [['zut.chat', 'zut', ['help', 'reload']]]);
    assert.ok(!fs.existsSync(path.join(dir, 'test')), 'the vsix ships no test fixtures');
  });

  it('@zut calls the weather tool and answers with what the tool returned', async () => {
    await selectScriptedModel();
    await send('@zut call weather city=Berlin');
    // Wait for the end of the streamed answer (the image line), not only its start.
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: /model got:[\s\S]*bytes\]/ }).last();
    await response.waitFor({ timeout: 60_000 });
    const text = await response.innerText();
    await screenshot(page, 'chat-zut-weather');
    assert.match(text, /weather.*\(.*weather.*\): Berlin: 16°C, fog/s, text);
    assert.match(text, /model got: Berlin: 16°C, fog, wind 12 km\/h/, text);
    assert.match(text, /\[image image\/png \d+ bytes\]/, text);
    // guard's hidden per-turn context never shows
    assert.doesNotMatch(text, /Project policy/);
  });

  it('@zut /license (an insert command) fills the chat input instead of sending', async () => {
    await send('@zut /license MIT');
    const input = page.locator('.interactive-input-part', { hasText: 'SPDX-License-Identifier: MIT' }).first();
    await input.waitFor({ timeout: 30_000 });
    assert.match((await input.innerText()).replace(/\u00a0/g, ' '), /@zut\s*\/\/ SPDX-License-Identifier: MIT/);
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: 'Inserted' }).last();
    await response.waitFor();
    await screenshot(page, 'chat-zut-insert');
  });

  it('an insert command run from the palette with no text editor open fills the chat input', async () => {
    await runCommand(page, 'View: Close All Editors');
    await zutCommand(page, 'license', 'Apache-2.0');
    const input = page.locator('.interactive-input-part', { hasText: 'SPDX-License-Identifier: Apache-2.0' }).first();
    await input.waitFor({ timeout: 30_000 });
    await screenshot(page, 'chat-palette-insert');
  });

  it('@zut /reload restarts the zut extensions and reports the result', async () => {
    await send('@zut /reload');
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: 'Reloaded:' }).last();
    await response.waitFor({ timeout: 60_000 });
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(text, /Reloaded: [1-9]\d* ready, 0 failed\./, JSON.stringify(text));
    await screenshot(page, 'chat-zut-reload');
  });

  it('submits during a running @zut request are bounded: one pending per extension, the latest replaces it, one new request after', async () => {
    await selectScriptedModel();
    const responses = page.locator('.interactive-item-container.interactive-response');
    // A request held open by a slow tool (sdk-demo's sdk_wait), while the progress example submits three times.
    await send('@zut call sdk_wait ms=20000');
    await page.locator('.interactive-item-container', { hasText: 'call sdk_wait ms=20000' }).last().waitFor({ timeout: 30_000 });
    for (const text of ['first-submit', 'second-submit', 'third-submit']) await zutCommand(page, 'submit', text);
    const held = responses.filter({ hasText: /replaces its pending submit: second-submit/ }).last();
    await held.waitFor({ timeout: 30_000 });
    const notes = (await held.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(notes, /queued: first-submit/, notes);
    assert.match(notes, /queued: second-submit \(replaces its pending submit: first-submit\)/, notes);
    assert.match(notes, /queued: third-submit \(replaces its pending submit: second-submit\)/, notes);
    // Once the held request ends, the latest submit alone runs as the next @zut request.
    await page.locator('.interactive-item-container.interactive-response', { hasText: 'echo: third-submit' }).last().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(3000); // a replaced submit would open its own request by now
    // The newest responses (a virtualised list renders at least those in view).
    const all = (await responses.allInnerTexts()).join(' | ').replace(/[\s\u00a0]+/g, ' ');
    assert.doesNotMatch(all, /echo: (first|second)-submit/, all);
    assert.equal((all.match(/echo: third-submit/g) ?? []).length, 1, all);
    await screenshot(page, 'chat-submit-bound');
  });

  it('takes the README screenshot: the Zut side bar, a panel and @zut at work', async () => {
    await runCommand(page, 'View: Close All Editors');
    await zutCommand(page, 'status-set', 'tests success 42 passed');
    await zutCommand(page, 'widget', 'plan Plan|✓ read the spec|▸ write the extension|□ ship it');
    await openPalette(page, '>View: Show Zut');
    await pickRow(page, 'View: Show Zut');
    const zut = page.locator('[id="workbench.view.extension.zut"]');
    await zut.locator('.monaco-list-row', { hasText: 'write the extension' }).first().waitFor();
    await selectScriptedModel();
    await send('@zut call weather city=Paris');
    // Streaming ends with the image line.
    await page.locator('.interactive-item-container.interactive-response', { hasText: /model got: Paris[\s\S]*bytes\]/ }).last().waitFor({ timeout: 60_000 });
    await zutCommand(page, 'todo');
    await page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame').locator('#lines .line.selected').waitFor();
    await page.mouse.move(0, 0);
    fs.mkdirSync(path.dirname(README_SCREENSHOT), { recursive: true });
    await page.screenshot({ path: README_SCREENSHOT });
    await screenshot(page, 'chat-readme');
    assert.ok(fs.statSync(README_SCREENSHOT).size > 20_000, `${README_SCREENSHOT} is a real picture`);
  });
});
