// @ts-check
// UI: consent for project-local extensions as a person sees it, with zut.projectExtensions.consent = "ask" (the
// default; the other UI suites run with "trustedWorkspace"). Opening the example workspace shows ONE notification
// for all the examples; their rows say "waiting for consent"; Allow on the notification starts them all. A global
// extension in ZUT_HOME runs without asking. Screenshots: <run dir>/screenshots/consent-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EXAMPLE_WORKSPACE } from '../lib/context.mjs';
import { openPalette, openWorkbench, paletteRow, screenshot, showZutView, startServer, workspaceCopy } from './harness.mjs';

/** Every enabled example in examples/workspace (read from disk, so a new example needs no edit here). */
const EXAMPLES = fs.readdirSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions')).filter((d) => {
  try { return JSON.parse(fs.readFileSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions', d, 'extension.json'), 'utf8')).enabled !== false; } catch { return false; }
}).sort();

function extensionRow(page, name) {
  return page
    .locator('[id="workbench.view.extension.zut"] .pane:has(.pane-header[aria-label^="Extensions"]) .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
    .first();
}

async function rowState(page, name, state, timeout = 30_000) {
  await extensionRow(page, name).locator('.label-description', { hasText: new RegExp(`^${state} · `) }).waitFor({ timeout });
}

async function showExtensionsView(page) {
  await showZutView(page);
}

describe('consent: project extensions wait for the user', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'consent', settings: { 'zut.projectExtensions.consent': 'ask' } });
    const globalDir = path.join(server.zutHome, 'extensions', 'homegrown');
    fs.mkdirSync(globalDir, { recursive: true });
    fs.writeFileSync(path.join(globalDir, 'extension.json'), JSON.stringify({ name: 'homegrown', version: '1.0.0', exec: 'node', args: ['main.js'] }));
    fs.writeFileSync(path.join(globalDir, 'main.js'), [
      "const emit = (o) => process.stdout.write(JSON.stringify(o) + '\\n');",
      "emit({ type: 'hello', protocol_version: 2, name: 'homegrown', version: '1.0.0', capabilities: [] });",
      "require('readline').createInterface({ input: process.stdin }).on('line', (l) => {",
      '  const m = JSON.parse(l);',
      "  if (m.type === 'hello_ack') emit({ type: 'ready' });",
      "  else if (m.type === 'shutdown') process.exit(0);",
      '});',
    ].join('\n'));
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('one notification names every pending extension; rows wait; Allow starts them; the global one never asked', async () => {
    await showExtensionsView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'waiting for consent', 60_000);
    await rowState(page, 'homegrown', 'running');
    // Toasts hide by themselves: the notification center keeps it.
    await openPalette(page, '>Notifications: Show Notifications');
    await paletteRow(page, 'Notifications: Show Notifications').click();
    const item = page.locator('.notifications-center .notification-list-item', { hasText: `This workspace wants to run ${EXAMPLES.length} zut extensions: ${EXAMPLES.join(', ')}` });
    await item.first().waitFor();
    assert.equal(await page.locator('.notifications-center .notification-list-item', { hasText: 'This workspace wants to run' }).count(), 1, 'one notification');
    await screenshot(page, 'consent-waiting');
    await item.first().locator('.monaco-button', { hasText: /^Allow$/ }).click();
    for (const name of EXAMPLES) await rowState(page, name, 'running');
    await screenshot(page, 'consent-allowed');
  });
});
