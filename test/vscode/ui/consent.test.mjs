// @ts-check
// UI: consent for project-local extensions as a person sees it, with zut.projectExtensions.consent = "ask" (the
// default; the other UI suites run with "trustedWorkspace"). Opening the example workspace asks ONE modal question
// naming every example and what it runs, saying it runs as you, that the answer is kept per content and where to
// change it; Allow starts them all; a global extension in ZUT_HOME runs without asking. New extensions (as after a
// git pull) ask again; Cancel leaves them waiting without asking again on the next reload; selecting several rows
// and choosing Allow allows each; "Allow All" on the view's title allows every waiting one.
// Screenshots: <run dir>/screenshots/consent-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { nodeProgram, writeNodeExtension } from '../../helpers/fakeExtension.js';
import { EXAMPLE_WORKSPACE } from '../lib/context.mjs';
import { extensionRow, openWorkbench, rowState, runCommand, screenshot, showZutView, startServer, workspaceCopy } from './harness.mjs';

/** Every enabled example in examples/workspace (read from disk, so a new example needs no edit here). */
const EXAMPLES = fs.readdirSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions')).filter((d) => {
  try { return JSON.parse(fs.readFileSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions', d, 'extension.json'), 'utf8')).enabled !== false; } catch { return false; }
}).sort();

/** A project extension in sh that says hello and waits for shutdown (as a `git pull` would bring one). */
function writeShExtension(folder, name) {
  const dir = path.join(folder, '.zut', 'extensions', name);
  fs.mkdirSync(dir, { recursive: true });
  const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name, version: '1.0.0', capabilities: [] });
  fs.writeFileSync(path.join(dir, 'run.sh'), `#!/bin/sh\nprintf '%s\\n' '${hello}' '{"type":"ready"}'\nwhile read -r l; do case "$l" in *shutdown*) exit 0;; esac; done\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: './run.sh', description: `${name}, from a pull` }));
}

/** The consent modal whose title line contains `text`. */
const question = (page, text) => page.locator('.monaco-dialog-box', { hasText: text });

/** Two new project extensions arrive; their question is put off (Cancel): both rows wait. */
async function twoPutOff(page, folder, a, b) {
  writeShExtension(folder, a);
  writeShExtension(folder, b);
  const ask = question(page, 'Allow 2 zut extensions from this workspace to run?');
  await ask.waitFor({ timeout: 60_000 });
  await ask.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  await rowState(page, a, 'waiting for consent');
  await rowState(page, b, 'waiting for consent');
}

describe('consent: project extensions wait for the user', () => {
  let server;
  let page;
  let folder;

  before(async () => {
    server = await startServer({ name: 'consent', settings: { 'zut.projectExtensions.consent': 'ask' } });
    writeNodeExtension(path.join(server.zutHome, 'extensions'), 'homegrown', nodeProgram('homegrown'), { manifest: { version: '1.0.0' } });
    folder = workspaceCopy();
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('one modal names every pending extension and what it runs, says what allowing means; Allow starts them; the global one never asked', async () => {
    const ask = question(page, `Allow ${EXAMPLES.length} zut extensions from this workspace to run?`);
    await ask.waitFor({ timeout: 60_000 });
    const detail = (await ask.locator('.dialog-message-detail').innerText()).replace(/\s+/g, ' ');
    for (const name of EXAMPLES) assert.match(detail, new RegExp(`• ${name}: runs \\S+`), `${name} is named with what it runs`);
    assert.match(detail, /Allowed, they run as you, with your files, network and credentials/);
    assert.match(detail, /kept in this workspace for exactly this content/);
    assert.match(detail, /Extensions view: right-click an extension for Allow, Don't Allow or Revoke Consent/);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 1, 'one question');
    await screenshot(page, 'consent-question');
    await ask.locator('.monaco-button', { hasText: /^Allow$/ }).click();
    await showZutView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'running');
    await rowState(page, 'homegrown', 'running');
    await screenshot(page, 'consent-allowed');
  });

  it('new extensions ask again; Cancel leaves them waiting (not asked again by a reload); a multi-select Allow allows each', async () => {
    await twoPutOff(page, folder, 'alpha', 'beta');
    await runCommand(page, 'Zut: Reload Extensions');
    // The reload restarts every extension; each restart refreshes the view, and a refresh closes an open context
    // menu. Wait until the view has settled (every example running again, both new ones waiting) before using it.
    for (const name of EXAMPLES) await rowState(page, name, 'running', 60_000);
    await rowState(page, 'alpha', 'waiting for consent');
    await rowState(page, 'beta', 'waiting for consent');
    await page.waitForTimeout(2000);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'not asked again for what was put off');
    // Select both rows, then Allow from the context menu of one of them. Under load a late refresh can still close
    // the menu before it is used (or a click land while it settles): then select and choose again, a few times.
    const allow = page.locator('.context-view .monaco-menu .action-item', { hasText: /^Allow Extension$/ });
    for (let attempt = 1; ; attempt++) {
      await extensionRow(page, 'alpha').click();
      await extensionRow(page, 'beta').click({ modifiers: ['Control'] });
      await extensionRow(page, 'beta').click({ button: 'right' });
      const shown = await allow.waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (shown) {
        await allow.hover();
        await allow.click();
        if (await allow.isVisible().catch(() => false)) await page.keyboard.press('Enter');
        const chosen = await allow.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
        if (chosen) break;
      }
      assert.ok(attempt < 3, `the context menu's Allow Extension was not usable after ${attempt} tries`);
      await page.keyboard.press('Escape');
    }
    await rowState(page, 'alpha', 'running');
    await rowState(page, 'beta', 'running');
    await screenshot(page, 'consent-multi-select');
  });

  it('"Allow All" on the Extensions view\'s title allows every waiting extension', async () => {
    await twoPutOff(page, folder, 'gamma', 'delta');
    const header = page.locator('.pane-header[aria-label^="Extensions"]');
    const allowAll = header.locator('.action-item a[aria-label^="Allow All"]');
    // A view's title actions show while the pointer is over the view (or it has focus), as for a person.
    await header.hover();
    await allowAll.waitFor();
    await screenshot(page, 'consent-allow-all');
    await allowAll.click();
    await rowState(page, 'gamma', 'running');
    await rowState(page, 'delta', 'running');
    await allowAll.waitFor({ state: 'detached' });
  });
});
