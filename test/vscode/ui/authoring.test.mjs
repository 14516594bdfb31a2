// @ts-check
// UI: writing an extension in VS Code. "Zut: New Extension…" creates a TypeScript (SDK) extension (a real main.ts,
// run by `node run.js main.ts` with nothing installed) that runs at once: its command works from the palette; an
// edit of main.ts saved in the editor restarts it with the new behaviour. A
// broken manifest shows up in the Problems panel (naming the log) and disappears once fixed.
// Prints the time from "Zut: New Extension…" to the command's output appearing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openPalette, openWorkbench, paletteRow, pickRow, replaceAndSave, retry, runCommand, screenshot, startServer, tempDir, zutCommand } from './harness.mjs';

/** The Widgets view's row (notes show `display` output) containing `text`. */
async function note(page, text, timeout = 30_000) {
  await openPalette(page, '>View: Show Zut');
  await pickRow(page, 'View: Show Zut');
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Widgets' }) });
  await pane.locator('.monaco-list-row', { hasText: text }).first().waitFor({ timeout });
}

/** Runs `/name args` until its output `text` shows up (a save restarts the extension in the background). */
async function commandUntil(page, name, args, text, timeout = 60_000) {
  const end = Date.now() + timeout;
  for (;;) {
    await zutCommand(page, name, args);
    try {
      await note(page, text, 5_000);
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
    }
  }
}

describe('authoring: New Extension, edit and save, Problems', () => {
  let server;
  let page;
  let folder;

  before(async () => {
    folder = tempDir('authoring');
    fs.writeFileSync(path.join(folder, 'README.md'), '# a project\n');
    // An existing (empty) extensions folder: Linux file watchers can miss directories created inside a new tree.
    fs.mkdirSync(path.join(folder, '.zut', 'extensions'), { recursive: true });
    server = await startServer({ name: 'authoring' });
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('creates a TypeScript extension with "Zut: New Extension…", runs its command, and an edit + save changes it', async () => {
    // Right after start-up the palette may not list the extension's commands yet: retried.
    await retry(async () => {
      await openPalette(page, '>Zut: New Extension…');
      await paletteRow(page, 'Zut: New Extension…').waitFor({ timeout: 2_000 });
    }, { timeout: 60_000 });
    await page.keyboard.press('Escape');
    const started = Date.now();
    await runCommand(page, 'Zut: New Extension…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await pickRow(page, 'TypeScript');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: New Extension (2/3)' }).waitFor();
    await input.fill('hello-ui');
    await input.press('Enter');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: New Extension (3/3)' }).waitFor();
    await pickRow(page, `Project: ${path.basename(folder)}`);
    // Its main file opens in the editor.
    await page.locator('.tabs-container .tab', { hasText: 'main.ts' }).waitFor();
    // The command returns (and opens main.ts) once the new extension was started.
    console.log(`      time from "Zut: New Extension…" to its main.ts open, the extension running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const dir = path.join(folder, '.zut', 'extensions', 'hello-ui');
    for (const f of ['sdk/index.d.ts', 'sdk/sucrase.js', 'run.js', 'tsconfig.json']) assert.ok(fs.existsSync(path.join(dir, f)), `${f} is in the new extension`);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8')).args, ['run.js', 'main.ts']);

    await commandUntil(page, 'hello-ui', 'Ada', 'Hello from hello-ui: Ada');
    const seconds = (Date.now() - started) / 1000;
    console.log(`      time from "Zut: New Extension…" to the command working: ${seconds.toFixed(1)} s`);
    await screenshot(page, 'authoring-new-extension');

    // Edit in the editor: replace "Hello from" with "Howdy from", save.
    await replaceAndSave(page, 'main.ts', 'Hello from', 'Howdy from');
    await retry(async () => assert.match(fs.readFileSync(path.join(dir, 'main.ts'), 'utf8'), /Howdy from hello-ui/), { timeout: 15_000, interval: 200 });

    await commandUntil(page, 'hello-ui', 'Bo', 'Howdy from hello-ui: Bo');
    await screenshot(page, 'authoring-edited');
  });

  it('a broken manifest is an entry in the Problems panel, naming the log; it disappears once fixed', async () => {
    const dir = path.join(folder, '.zut', 'extensions', 'broken-ui');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'broken-ui', version: '1.0.0' }, null, 2));
    await openPalette(page, '>Focus on Problems View');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Focus on Problems View' }).first().click();
    const markers = page.locator('.markers-panel .monaco-list-row');
    const entry = markers.filter({ hasText: 'manifest: exec is required' });
    await entry.first().waitFor({ timeout: 30_000 });
    assert.match(await entry.first().innerText(), /log: .*ext-broken-ui\.log/);
    await markers.filter({ hasText: 'extension.json' }).first().waitFor();
    await screenshot(page, 'authoring-problems');

    fs.writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\nprintf \'%s\\n\' \'{"type":"hello","protocol_version":2,"name":"broken-ui"}\' \'{"type":"ready"}\'\nwhile read -r l; do case "$l" in *shutdown*) printf \'{"type":"shutdown_ack"}\\n\'; exit 0;; esac; done\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'broken-ui', version: '1.0.0', exec: './run.sh' }, null, 2));
    await entry.first().waitFor({ state: 'detached', timeout: 30_000 });
    await screenshot(page, 'authoring-problems-fixed');
  });
});
