// @ts-check
// UI: a new user's first hour (issue 32), step by step as a person does it, with the defaults a user has: the
// packaged .vsix installed the way README says (`--install-extension`), Workspace Trust on with its startup question,
// zut.projectExtensions.consent = "ask", and no smoke-test driver (it hides notification toasts). Opens the examples, first in Restricted Mode ("Run Command…" says why and
// leads to Manage Workspace Trust…), trusts the folder, answers ONE consent question; runs a command from the
// walkthrough (its pick stays open); uses the todo panel for ten edits, reloads the window, and is not asked again;
// creates an extension from the walkthrough and runs it at once, edits and saves it (its author's edit asks nothing);
// copies an MCP configuration and guards Claude Code.
// Every dialog and notification the window shows is recorded: the walk fails on one it did not expect.
// Screenshots: <run dir>/screenshots/first-hour-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EXAMPLE_WORKSPACE } from '../lib/context.mjs';
import {
  extensionRow, notification, openWorkbench, paletteRow, pickRow, replaceAndSave, retry, rowState, runCommand, runWhenListed, screenshot, showZutView, startServer, webview,
  workbenchReady, workspaceCopy, zutCommand,
} from './harness.mjs';

const EXAMPLES = fs.readdirSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions')).filter((d) => {
  try { return JSON.parse(fs.readFileSync(path.join(EXAMPLE_WORKSPACE, '.zut', 'extensions', d, 'extension.json'), 'utf8')).enabled !== false; } catch { return false; }
}).sort();

/** What the walk expects the window to show, in any order; anything else is an unexpected prompt. */
const EXPECTED = {
  dialog: [
    /Do you trust the authors of the files in this folder\?/,
    new RegExp(`Allow ${EXAMPLES.length} zut extensions from this workspace to run\\?`),
    /Let your zut guards and event subscribers see Claude Code's tool calls\?/,
  ],
  notification: [
    /\[snippets\] 6 words, 27 characters, 1 line/,
    /Created zut extension "hello-walk"/,
    /\[hello-walk\] (Hello|Howdy) from hello-walk: (Ada|Bo)/,
    /Copied the Claude Desktop configuration/,
    /Claude Code's tool calls now go through your zut guards \(hooks in .*\.claude\/settings\.local\.json\)/,
  ],
};

/** Records every dialog and notification toast the page shows (across window reloads) into `seen`. */
async function recordPrompts(page, seen) {
  await page.exposeFunction('zutSawPrompt', (kind, text) => seen.push({ kind, text: text.replace(/\s+/g, ' ').trim() }));
  await page.addInitScript(() => {
    const known = new WeakSet();
    const scan = () => {
      for (const el of Array.from(document.querySelectorAll('.monaco-dialog-box, .notification-toast .notification-list-item'))) {
        if (known.has(el)) continue;
        known.add(el);
        const kind = el.classList.contains('monaco-dialog-box') ? 'dialog' : 'notification';
        setTimeout(() => /** @type {any} */ (window).zutSawPrompt(kind, /** @type {HTMLElement} */ (el).innerText), 300);
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true });
  });
}

/** The prompts seen that the walk did not expect. */
function unexpected(seen) {
  return seen.filter((p) => !EXPECTED[p.kind].some((re) => re.test(p.text)));
}

/** The modal dialog containing `text`. */
const dialog = (page, text) => page.locator('.monaco-dialog-box', { hasText: text });

/** Opens the walkthrough "Get started with zut extensions" on its step `title`; returns the step. */
async function walkthroughStep(page, title) {
  await runWhenListed(page, 'Welcome: Open Walkthrough...');
  await pickRow(page, 'Get started with zut extensions');
  const step = page.locator('.gettingStartedContainer .getting-started-step', { hasText: title }).first();
  await step.waitFor();
  await step.locator('.step-title, h3').first().click();
  return step;
}

describe('first hour: install, trust, consent once, use, create, set up agents', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Page} */
  let page;
  let folder;
  /** @type {{ kind: 'dialog' | 'notification', text: string }[]} */
  const seen = [];

  before(async () => {
    server = await startServer({
      name: 'first-hour',
      trust: false,
      settings: { 'zut.projectExtensions.consent': 'ask', 'security.workspace.trust.startupPrompt': 'once' },
      // As a user has the window: the smoke-test driver would hide every notification toast.
      smokeTestDriver: false,
    });
    folder = workspaceCopy();
    page = await openWorkbench(server, { folder, beforeGoto: (p) => recordPrompts(p, seen) });
  });
  after(async () => {
    console.log(`      prompts seen: ${JSON.stringify(seen.map((p) => `${p.kind}: ${p.text.slice(0, 90)}`), null, 2)}`);
    await server?.stop();
  });
  afterEach(() => assert.deepEqual(unexpected(seen), [], 'no unexpected prompt'));

  it('1. opens the examples in Restricted Mode: Run Command… says why and leads to Manage Workspace Trust…', async () => {
    const trust = dialog(page, 'Do you trust the authors of the files in this folder?');
    await trust.waitFor({ timeout: 60_000 });
    await screenshot(page, 'first-hour-01-trust-question');
    await trust.locator('.monaco-button', { hasText: /^No, I don't trust the authors$/ }).click();
    await showZutView(page);
    await rowState(page, 'todo', 'blocked by Workspace Trust');
    await page.locator('.welcome-view-content', { hasText: 'This workspace is in Restricted Mode' }).waitFor();
    await runWhenListed(page, 'Zut: Run Command…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator(`.quick-input-widget .quick-input-box input[placeholder="No zut commands: this workspace is in Restricted Mode, and its ${EXAMPLES.length} project extensions start once you trust it"]`).waitFor();
    await screenshot(page, 'first-hour-02-restricted-run-command');
    await pickRow(page, 'Manage Workspace Trust…');
    await input.waitFor({ state: 'hidden' });
    await page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first().click();
  });

  it('2. trusting the folder asks ONE consent question that says what allowing means; Allow starts every example', async () => {
    const ask = dialog(page, `Allow ${EXAMPLES.length} zut extensions from this workspace to run?`);
    await ask.waitFor({ timeout: 60_000 });
    const detail = (await ask.locator('.dialog-message-detail').innerText()).replace(/\s+/g, ' ');
    for (const name of EXAMPLES) assert.match(detail, new RegExp(`• ${name}: runs `));
    assert.match(detail, /they run as you/);
    await screenshot(page, 'first-hour-03-consent-question');
    await ask.locator('.monaco-button', { hasText: /^Allow$/ }).click();
    await page.keyboard.press('Escape'); // the trust editor
    await showZutView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'running', 60_000);
    await screenshot(page, 'first-hour-04-running');
    assert.equal(seen.filter((p) => p.kind === 'dialog' && /zut extensions? from this workspace/.test(p.text)).length, 1, 'asked once');
  });

  it('3. runs a command from the walkthrough: the pick stays open, the answer is a notification and a note', async () => {
    const step = await walkthroughStep(page, 'Run a zut command');
    await screenshot(page, 'first-hour-05-walkthrough');
    await step.locator('.monaco-button, a', { hasText: 'Run Command…' }).first().click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: Run Command (1/2)' }).waitFor();
    await page.waitForTimeout(1500);
    assert.ok(await input.isVisible(), 'the pick stays open when focus goes back to the Welcome page');
    await input.fill('/wordcount');
    await pickRow(page, '/wordcount');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: Run Command (2/2)' }).waitFor();
    await input.fill('one two three four five six');
    await input.press('Enter');
    const toast = page.locator('.notification-toast', { hasText: '[snippets] 6 words, 27 characters, 1 line' });
    await toast.waitFor();
    await screenshot(page, 'first-hour-06-command-answer');
    await showZutView(page);
    const notes = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Widgets' }) });
    await notes.locator('.monaco-list-row', { hasText: '6 words, 27 characters, 1 line' }).first().waitFor();
  });

  it('4. uses the todo panel for ten edits; after a window reload nothing asks again and the todos are there', async () => {
    await zutCommand(page, 'todo');
    const wv = webview(page);
    const lines = wv.locator('#lines .line');
    await lines.first().waitFor();
    await wv.locator('#lines').click();
    for (let i = 1; i <= 10; i++) {
      await page.keyboard.press('a');
      await page.keyboard.type(`walk ${i}`);
      await page.keyboard.press('Enter');
      await wv.locator('#lines .line', { hasText: `□ walk ${i}` }).waitFor();
    }
    await wv.locator('#title', { hasText: 'Todos (1/13 done)' }).waitFor();
    await screenshot(page, 'first-hour-07-todo-ten-edits');
    assert.ok(!fs.existsSync(path.join(folder, '.zut', 'extensions', 'todo', 'todos.json')), 'state kept outside the repository');
    await page.keyboard.press('Escape');
    await runCommand(page, 'Developer: Reload Window');
    await workbenchReady(page, server);
    await showZutView(page);
    for (const name of EXAMPLES) await rowState(page, name, 'running', 60_000);
    await zutCommand(page, 'todo');
    await webview(page).locator('#title', { hasText: 'Todos (1/13 done)' }).waitFor();
    await screenshot(page, 'first-hour-08-after-reload');
    await page.keyboard.press('Escape');
    assert.equal(seen.filter((p) => /zut extensions? from this workspace|changed since you allowed/.test(p.text)).length, 1, 'never asked again');
  });

  it('5. creates an extension from the walkthrough (TypeScript, this project), runs it at once, edits and saves it', async () => {
    const step = await walkthroughStep(page, 'Write your own');
    await step.locator('.monaco-button, a', { hasText: 'New Extension…' }).first().click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: New Extension (1/3)' }).waitFor();
    await page.waitForTimeout(1500);
    assert.ok(await input.isVisible(), 'the pick stays open when focus goes back to the Welcome page');
    await pickRow(page, 'TypeScript');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: New Extension (2/3)' }).waitFor();
    await input.fill('hello-walk');
    await input.press('Enter');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Zut: New Extension (3/3)' }).waitFor();
    await screenshot(page, 'first-hour-09-new-extension-where');
    // By keyboard: the mouse left over the pick can raise a hover over its rows that takes the click.
    await paletteRow(page, `Project: ${path.basename(folder)}`).waitFor();
    await input.fill(`Project: ${path.basename(folder)}`);
    await input.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: 'main.ts' }).waitFor();
    await showZutView(page);
    await rowState(page, 'hello-walk', 'running');
    await zutCommand(page, 'hello-walk', 'Ada');
    await page.locator('.notification-toast', { hasText: '[hello-walk] Hello from hello-walk: Ada' }).waitFor();
    await screenshot(page, 'first-hour-10-new-extension-runs');
    assert.equal(await extensionRow(page, 'hello-walk').count(), 1);
    // Its author's edit, saved in the editor, is theirs too: it restarts with the change and asks nothing.
    await replaceAndSave(page, 'main.ts', 'Hello from', 'Howdy from');
    await retry(async () => {
      await zutCommand(page, 'hello-walk', 'Bo');
      await page.locator('.notification-toast', { hasText: '[hello-walk] Howdy from hello-walk: Bo' }).waitFor({ timeout: 3000 });
    }, { timeout: 60_000 });
    await rowState(page, 'hello-walk', 'running');
    await screenshot(page, 'first-hour-10b-edited-and-saved');
  });

  it('6. copies an MCP client configuration (Claude Desktop, global extensions only)', async () => {
    await runWhenListed(page, 'Zut: Copy MCP Client Configuration…');
    await pickRow(page, 'Claude Desktop');
    await pickRow(page, 'Only your global extensions');
    await notification(page, 'Copied the Claude Desktop configuration');
    await screenshot(page, 'first-hour-11-mcp-config');
    await page.keyboard.press('Escape');
  });

  it('7. guards Claude Code in this workspace through zut\'s MCP server: the entries are shown, then written', async () => {
    const file = path.join(folder, '.claude', 'settings.local.json');
    await runWhenListed(page, 'Zut: Guard Agent Tools…');
    await pickRow(page, 'Claude Code');
    await pickRow(page, 'Workspace');
    // How Claude Code reaches zut: its mcp_tool hooks through zut's MCP server (written to .mcp.json), or a command.
    await pickRow(page, "Through zut's MCP server (mcp_tool)");
    const ask = dialog(page, "Let your zut guards and event subscribers see Claude Code's tool calls?");
    await ask.waitFor();
    await screenshot(page, 'first-hour-12-guard-claude');
    await ask.locator('.monaco-button', { hasText: /^Write$/ }).click();
    await notification(page, `Claude Code's tool calls now go through your zut guards (hooks in ${file})`);
    assert.ok(fs.existsSync(file), `${file} written`);
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(settings.hooks.PreToolUse[0].hooks[0].type, 'mcp_tool');
    assert.equal(settings.hooks.PreToolUse[0].hooks[0].onFailure, 'block');
    assert.deepEqual(settings.enabledMcpjsonServers, ['zut']);
    const mcp = JSON.parse(fs.readFileSync(path.join(folder, '.mcp.json'), 'utf8'));
    assert.ok(mcp.mcpServers.zut.args.includes('mcp'), `.mcp.json runs zut-host mcp: ${JSON.stringify(mcp.mcpServers.zut)}`);
    await screenshot(page, 'first-hour-13-guarded');
    await page.keyboard.press('Escape');
  });
});
