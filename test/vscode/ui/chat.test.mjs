// UI: `@zut` typed into the Chat view with the scripted test model selected (test/vscode/fixtures/scripted-model,
// loaded as a development extension next to the installed vsix). The example weather tool runs, its result reaches
// the model (the scripted model echoes it), and the response shows the tool line and the answer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPalette, openWorkbench, paletteRow, runCommand, screenshot, startServer, workspaceCopy } from './harness.mjs';

const SCRIPTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scripted-model');
const { version } = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

describe('chat: @zut in the Chat view', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'chat', devPaths: [SCRIPTED] });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('the product never offers the test model: no model provider in the installed manifest or files', () => {
    const dir = path.join(server.extensionsDir, `zut.zut-vscode-${version}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    assert.equal(manifest.contributes.languageModelChatProviders, undefined);
    assert.deepEqual(manifest.contributes.chatParticipants.map((p) => [p.id, p.name, p.commands.map((c) => c.name)]),
      [['zut.chat', 'zut', ['help', 'reload']]]);
    assert.ok(!fs.existsSync(path.join(dir, 'test')), 'the vsix ships no test fixtures');
  });

  it('@zut calls the weather tool and answers with what the tool returned', async () => {
    // The development extension's contributions can arrive after the workbench is restored: retry the palette.
    for (let i = 0; ; i++) {
      try {
        await openPalette(page, '>Zut Test: Use Scripted Model in Chat');
        await paletteRow(page, 'Zut Test: Use Scripted Model in Chat').waitFor({ timeout: 3000 });
        break;
      } catch (e) {
        if (i >= 10) throw e;
      }
    }
    await runCommand(page, 'Zut Test: Use Scripted Model in Chat');
    const input = page.locator('.interactive-input-part .native-edit-context, .interactive-input-part textarea').first();
    await input.waitFor();
    await page.locator('.interactive-input-part', { hasText: 'Scripted (test)' }).first().waitFor();
    // The extension host learns a newly registered model's metadata asynchronously: give it a moment.
    await page.waitForTimeout(3000);
    await input.focus(); // click() is intercepted by the input's decorations
    await page.keyboard.type('@zut call weather city=Berlin');
    await page.keyboard.press('Enter');
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: 'model got:' }).last();
    await response.waitFor({ timeout: 60_000 });
    const text = await response.innerText();
    await screenshot(page, 'chat-zut-weather');
    assert.match(text, /weather.*\(.*weather.*\): Berlin: 16°C, fog/s, text);
    assert.match(text, /model got: Berlin: 16°C, fog, wind 12 km\/h/, text);
    assert.match(text, /\[image image\/png \d+ bytes\]/, text);
    // guard's hidden per-turn context never shows
    assert.doesNotMatch(text, /Project policy/);
  });
});
