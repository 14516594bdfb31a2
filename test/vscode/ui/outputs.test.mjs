// @ts-check
// UI: outputs and feedback as a person sees them. The doctor report opens rendered (a Markdown preview) and
// multi-line command output as read-only `zut:` documents (closing asks nothing); a running command shows window progress in
// the status bar; in a high-contrast theme the selected panel row is outlined; with no zut extensions the palette hides the commands that need one and the Zut side bar's
// views show their welcome text, and the commands come back once an extension appears.
// Screenshots: <run dir>/screenshots/outputs-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { nodeProgram, writeNodeExtension } from '../../helpers/fakeExtension.js';
import { openPalette, openWorkbench, paletteRow, rowState, runCommand, runWhenListed, screenshot, showZutView, startServer, tempDir, webview, workspaceCopy, zutCommand } from './harness.mjs';

/**
 * Writes a global extension `slow` (Node) into `home`: `/slow` answers only once the file `gate` exists, with a
 * multi-line display, so a test can look at the progress while the command runs.
 */
function writeSlowExtension(home, gate) {
  writeNodeExtension(path.join(home, 'extensions'), 'slow', nodeProgram('slow', {
    prelude: "const fs = require('fs');",
    command: { name: 'slow', description: 'waits for its gate file' },
    onMessage: `if (m.type === 'command_invoked') { const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); emit({ type: 'command_response', id: m.id, action: 'display', display: 'slow done\\nsecond line' }); } }, 50); }`,
  }), { manifest: { version: '1.0.0' } });
}

/** The editor tab whose label matches `label`. */
const tab = (page, label) => page.locator('.tabs-container .tab', { hasText: label });

describe('outputs: read-only documents and progress', () => {
  let server;
  let page;
  const gate = path.join(tempDir('slow-gate'), 'open');

  before(async () => {
    // A high-contrast theme for the whole window: the outputs look the same, and the panel test needs it.
    server = await startServer({ name: 'outputs', settings: { 'workbench.colorTheme': 'Default High Contrast' } });
    writeSlowExtension(server.zutHome, gate);
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('the doctor report opens rendered, with a summary line, and closes without asking to save', async () => {
    // A report of the examples: once they run (the window starts them in the background).
    await showZutView(page);
    await rowState(page, 'snippets', 'running', 60_000);
    await runWhenListed(page, 'Zut: Show Doctor Report');
    // VS Code's Markdown preview of the read-only zut: document (issue 32, rough edge 13).
    const t = tab(page, 'Preview doctor-report.md');
    await t.waitFor();
    const preview = webview(page);
    await preview.locator('h1', { hasText: 'Zut doctor report' }).waitFor();
    assert.match(await preview.locator('p strong').first().innerText(), /^\d+ zut extensions: \d+ running.*\. No load errors\.$/);
    await preview.locator('h2', { hasText: 'snippets' }).first().waitFor();
    await screenshot(page, 'outputs-doctor');
    await t.click();
    await page.keyboard.press('Control+W');
    await t.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no save dialog');
  });

  it('a running command shows window progress; its multi-line output opens as a document', async () => {
    await zutCommand(page, 'slow');
    const progress = page.locator('.statusbar-item', { hasText: 'Zut: /slow' });
    await progress.waitFor();
    await screenshot(page, 'outputs-progress');
    fs.writeFileSync(gate, '');
    await progress.waitFor({ state: 'detached' });
    const t = tab(page, /slow-\d+\.txt/);
    await t.waitFor();
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'second line' }).waitFor();
    await screenshot(page, 'outputs-display-document');
    await page.keyboard.press('Control+W');
    await t.waitFor({ state: 'detached' });
  });

  it('in a high-contrast theme the selected panel row has the contrastActiveBorder outline', async () => {
    await zutCommand(page, 'todo');
    const row = webview(page).locator('#lines .line.selected');
    await row.waitFor();
    const look = await row.evaluate((el) => {
      const css = getComputedStyle(el);
      return { style: css.outlineStyle, color: css.outlineColor, border: getComputedStyle(document.documentElement).getPropertyValue('--vscode-contrastActiveBorder').trim() };
    });
    assert.notEqual(look.border, '', 'the theme defines contrastActiveBorder');
    assert.equal(look.style, 'dotted');
    assert.notEqual(look.color, 'rgba(0, 0, 0, 0)', JSON.stringify(look));
    await screenshot(page, 'outputs-panel-high-contrast');
  });
});

describe('outputs: no zut extensions', () => {
  let server;
  let page;
  const folder = tempDir('no-extensions');

  before(async () => {
    server = await startServer({ name: 'outputs-empty' });
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('the palette offers only what can work, the views show their welcome, and an extension brings commands back', async () => {
    await runWhenListed(page, 'View: Show Zut');
    const zut = page.locator('[id="workbench.view.extension.zut"]');
    await zut.locator('.welcome-view-content', { hasText: 'No zut extensions found yet.' }).waitFor();
    await zut.locator('.welcome-view-content', { hasText: 'No widgets or notes yet.' }).waitFor();
    await screenshot(page, 'outputs-welcome');

    await openPalette(page, '>Zut: ');
    await paletteRow(page, 'Zut: Reload Extensions').waitFor();
    for (const hidden of ['Zut: Run Command…', 'Zut: Call Tool…', 'Zut: Restart Extension', 'Zut: Remove Extension…']) {
      assert.equal(await paletteRow(page, hidden).count(), 0, `${hidden} is not offered without extensions`);
    }
    await page.keyboard.press('Escape');

    writeSlowExtension(server.zutHome, path.join(folder, 'never'));
    await runCommand(page, 'Zut: Reload Extensions');
    await zut.locator('.monaco-list-row', { hasText: 'slow' }).first().waitFor();
    await openPalette(page, '>Zut: Run Command');
    await paletteRow(page, 'Zut: Run Command…').waitFor();
    await page.keyboard.press('Escape');
  });

  it('"Get Started" in the Widgets welcome opens the walkthrough with its six steps', async () => {
    await runWhenListed(page, 'View: Show Zut');
    const zut = page.locator('[id="workbench.view.extension.zut"]');
    await zut.locator('.welcome-view-content a, .welcome-view-content .monaco-button', { hasText: 'Get Started' }).first().click();
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('.getting-started-category .category-title, h2', { hasText: 'Get started with zut extensions' }).first().waitFor();
    for (const step of ['Open a folder with zut extensions', 'Run a zut command', 'Chat with @zut', "Use an extension's skill in VS Code's agent", 'See where zut reaches', 'Write your own']) {
      await walkthrough.locator('.getting-started-step', { hasText: step }).first().waitFor();
    }
    await screenshot(page, 'outputs-walkthrough');
  });
});
