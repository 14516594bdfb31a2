// @ts-check
// UI: the management surfaces as a person sees them, with the packaged vsix and the example workspace:
// "Zut: Run Command…" lists the example commands and running one shows its output; the Zut view container shows
// the Extensions view with the examples and their states; in an untrusted workspace (Workspace Trust enabled,
// folder not trusted) project extensions are "blocked by Workspace Trust" and start once trust is granted.
// Screenshots: <run dir>/screenshots/management-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { extensionRow, extensionRows, notification, openPalette, openWorkbench, paletteRow, pickRow, rowState, runCommand, screenshot, showZutView, startServer, tempDir, workspaceCopy } from './harness.mjs';

const EXAMPLES = ['guard', 'progress', 'shell', 'snippets', 'todo', 'weather'];

/** Writes a minimal extension `name` (Node: hello, ready, shutdown) into `dir`. */
function writeMinimalExtension(dir, name, version) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version, exec: 'node', args: ['main.js'] }));
  fs.writeFileSync(path.join(dir, 'main.js'), [
    "const emit = (o) => process.stdout.write(JSON.stringify(o) + '\\n');",
    `emit({ type: 'hello', protocol_version: 2, name: ${JSON.stringify(name)}, version: ${JSON.stringify(version)}, capabilities: [] });`,
    "require('readline').createInterface({ input: process.stdin }).on('line', (l) => {",
    '  const m = JSON.parse(l);',
    "  if (m.type === 'hello_ack') emit({ type: 'ready' });",
    "  else if (m.type === 'shutdown') { emit({ type: 'shutdown_ack' }); process.exit(0); }",
    '});',
  ].join('\n'));
}

/** Opens the Zut view container (its activity bar item) on the Extensions view. */
async function showExtensionsView(page) {
  await page.keyboard.press('Escape');
  await showZutView(page);
}

describe('management: Run Command and the Extensions view', () => {
  let server;
  let page;
  let folder;

  before(async () => {
    server = await startServer({ name: 'management' });
    folder = workspaceCopy();
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('the Zut view container shows every example with its state, scope and version', async () => {
    await showExtensionsView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'running');
    await rowState(page, 'disabled-demo', 'disabled');
    assert.equal(await extensionRow(page, 'snippets').locator('.label-description').textContent(), 'running · project 1.0.0');
    // The activity bar has the Zut container, and the Widgets view is declared beside Extensions.
    await page.locator('.pane-header[aria-label^="Widgets"]').first().waitFor();
    await screenshot(page, 'management-extensions-view');

    // Expanding an extension lists its commands, and the log entry.
    await extensionRow(page, 'snippets').click();
    await page.keyboard.press('ArrowRight');
    const commandsGroup = extensionRows(page).filter({ has: page.locator('.label-name', { hasText: /^Commands$/ }) }).first();
    await commandsGroup.waitFor();
    await commandsGroup.click();
    await page.keyboard.press('ArrowRight');
    await extensionRows(page).filter({ has: page.locator('.label-name', { hasText: /^\/wordcount$/ }) }).first().waitFor();
    await screenshot(page, 'management-extensions-view-expanded');
  });

  it('an extension row has the management actions (inline restart, context menu) and Open Manifest opens it', async () => {
    await showExtensionsView(page);
    const row = extensionRow(page, 'shell');
    await row.hover();
    await row.locator('.actions .action-label[aria-label="Restart Extension"]').waitFor();
    await row.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor();
    const labels = (await menu.locator('.action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    for (const want of ['Restart Extension', 'Stop Extension', 'Disable (Workspace)', 'Disable in Manifest', 'Show Log', 'Open Log File', 'Open Manifest', 'Remove Extension (Move to Trash)…']) {
      assert.ok(labels.includes(want), `context menu has "${want}": ${JSON.stringify(labels)}`);
    }
    assert.ok(!labels.includes('Enable in Manifest') && !labels.includes('Start Extension'), 'no Enable or Start on a running extension');
    await screenshot(page, 'management-extension-context-menu');
    await menu.locator('.action-label', { hasText: /^Open Manifest$/ }).click();
    await page.locator('.tabs-container .tab', { hasText: 'extension.json' }).waitFor();
    await page.locator('.monaco-editor .view-lines', { hasText: '"name": "shell"' }).waitFor();

    // A disabled extension offers Enable instead, and no Restart.
    await extensionRow(page, 'disabled-demo').click({ button: 'right' });
    await menu.waitFor();
    const disabledLabels = (await menu.locator('.action-label').allInnerTexts()).map((t) => t.trim());
    assert.ok(disabledLabels.includes('Enable in Manifest') && !disabledLabels.includes('Disable in Manifest') && !disabledLabels.includes('Restart Extension'), JSON.stringify(disabledLabels));
    await page.keyboard.press('Escape');
  });

  it('"Zut: Run Command…" lists the example commands; /wordcount shows its output', async () => {
    await openPalette(page, '>Zut: Run Command…');
    await pickRow(page, 'Zut: Run Command…');
    // Sorted by name; the list is virtual, so only the first rows exist in the DOM.
    for (const c of ['/bell', '/clear-notes', '/explain', '/git-branch', '/guard', '/license']) await paletteRow(page, c).waitFor();
    await screenshot(page, 'management-run-command-pick');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    for (const [c, ext] of [['/uptime', 'shell'], ['/todo', 'todo'], ['/progress-demo', 'progress'], ['/wordcount', 'snippets']]) {
      await input.fill(c);
      // The extension that registered it is the row's detail.
      await paletteRow(page, c).filter({ hasText: ext }).waitFor();
    }
    const row = paletteRow(page, '/wordcount');
    await row.click();
    await page.locator('.quick-input-widget .quick-input-message', { hasText: 'Arguments for /wordcount' }).waitFor();
    await input.fill('hello there VS Code');
    await input.press('Enter');
    await notification(page, '[snippets] 4 words, 19 characters, 1 line');
    await screenshot(page, 'management-run-command-result');
    await page.keyboard.press('Escape');
  });

  it('an error response is shown as an error notification naming the extension and command', async () => {
    await openPalette(page, '>Zut: Run Command…');
    await pickRow(page, 'Zut: Run Command…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('/license');
    await pickRow(page, '/license');
    await page.locator('.quick-input-widget .quick-input-message', { hasText: 'Arguments for /license' }).waitFor();
    await input.fill('WTFPL-9');
    await input.press('Enter');
    const item = await notification(page, 'snippets /license: unknown license "WTFPL-9"');
    assert.equal(await item.locator('.codicon-error').count(), 1, 'an error notification');
    await screenshot(page, 'management-run-command-error');
    await page.keyboard.press('Escape');
  });

  it('"Zut: Install Extension…" picks a folder and a destination, shows the plan, installs into ZUT_HOME and starts it', async () => {
    const src = tempDir('install-src');
    writeMinimalExtension(src, 'ui-installed', '0.3.0');
    await runCommand(page, 'Zut: Install Extension…');
    // From where: a folder (or a git URL).
    await pickRow(page, 'From a Folder…');
    // code-server's folder picker is VS Code's simple file dialog: a path box and the "Install" button.
    const input = page.locator('.quick-input-widget .quick-input-box input');
    // The dialog fills in its default folder asynchronously: wait for it, then replace it (and check it stuck).
    await page.waitForFunction(() => (/** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget .quick-input-box input'))?.value ?? '').length > 0);
    for (let i = 0; i < 10 && (await input.inputValue()) !== `${src}/`; i++) {
      await input.fill(`${src}/`);
      await page.waitForTimeout(200);
    }
    assert.equal(await input.inputValue(), `${src}/`);
    await page.locator('.quick-input-widget .monaco-button', { hasText: /^Install$/ }).click();
    await paletteRow(page, 'Global').waitFor();
    await screenshot(page, 'management-install-destination');
    await pickRow(page, 'Global');
    // The plan (what it will run, its files) in a modal before anything is installed.
    const plan = page.locator('.monaco-dialog-box', { hasText: 'Install the zut extension "ui-installed"?' });
    await plan.waitFor();
    await screenshot(page, 'management-install-plan');
    await plan.locator('.monaco-button', { hasText: /^Install$/ }).click();
    await showExtensionsView(page);
    await rowState(page, 'ui-installed', 'running');
    assert.equal(await extensionRow(page, 'ui-installed').locator('.label-description').textContent(), 'running · global 0.3.0');
    assert.ok(fs.existsSync(path.join(server.zutHome, 'extensions', 'ui-installed', 'main.js')), 'copied into $ZUT_HOME/extensions');
    await screenshot(page, 'management-installed');
  });

  it('an extension that fails to load shows an error notification; "Show Log" opens its log channel', async () => {
    // Once the examples run (the host is up), a new broken extension appears.
    await showExtensionsView(page);
    await rowState(page, 'snippets', 'running');
    const dir = path.join(folder, '.zut', 'extensions', 'broken');
    fs.mkdirSync(dir, { recursive: true });
    // The watcher picks the new manifest up and reloads; the child exits before sending hello.
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'broken', version: '0.0.1', exec: 'sh', args: ['-c', 'echo broken-on-stderr >&2; exit 3'] }));
    try {
      await openPalette(page, '>Notifications: Show Notifications');
      await pickRow(page, 'Notifications: Show Notifications');
      const item = page.locator('.notifications-center .notification-list-item', { hasText: 'Zut extension "broken" failed to load' }).first();
      await item.waitFor({ timeout: 30_000 });
      await item.locator('.monaco-button', { hasText: 'Restart' }).waitFor();
      await screenshot(page, 'management-load-error-notification');
      await item.locator('.monaco-button', { hasText: 'Show Log' }).click();
      // The "Zut: broken" channel has the child's stderr and the error.
      await page.locator('.part.panel .monaco-editor .view-lines', { hasText: 'broken-on-stderr' }).waitFor();
      await screenshot(page, 'management-load-error-log');
      await showExtensionsView(page);
      await rowState(page, 'broken', '(error|crashed)');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await extensionRow(page, 'broken').waitFor({ state: 'detached', timeout: 30_000 });
  });
});

describe('management: untrusted workspace', () => {
  let server;
  let page;

  before(async () => {
    // A global extension (in ZUT_HOME, installed by the user) runs even in an untrusted workspace.
    const home = tempDir('zut-home-untrusted');
    writeMinimalExtension(path.join(home, 'extensions', 'global-hello'), 'global-hello', '2.0.0');
    server = await startServer({ name: 'untrusted', trust: false, env: { ZUT_HOME: home } });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('project extensions are blocked by Workspace Trust, and start once the folder is trusted', async () => {
    await showExtensionsView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'blocked by Workspace Trust');
    await rowState(page, 'global-hello', 'running');
    assert.equal(await extensionRow(page, 'global-hello').locator('.label-description').textContent(), 'running · global 2.0.0');
    // The blocked row offers the trust action inline.
    await extensionRow(page, 'snippets').hover();
    await extensionRow(page, 'snippets').locator('.actions .action-label[aria-label="Manage Workspace Trust…"]').waitFor();
    await screenshot(page, 'management-untrusted-blocked');

    // Trust the folder through VS Code's own editor; the blocked extensions then start.
    await runCommand(page, 'Workspaces: Manage Workspace Trust');
    await page.getByRole('button', { name: /^Trust$/ }).first().click();
    for (const name of EXAMPLES) await rowState(page, name, 'running', 45_000);
    await screenshot(page, 'management-untrusted-granted');
  });
});
