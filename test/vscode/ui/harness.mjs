// @ts-check
// Helpers for the UI suite (test/vscode/ui/*.test.mjs, mocha bdd, run by test/vscode/run.mjs): start a code-server
// with the packaged vsix, open the workbench in Playwright + Debian chromium, drive the palette, take screenshots.
// A failing test gets a screenshot of every open page automatically (mochaHooks.afterEach).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startCodeServer, TEST_SETTINGS } from '../lib/codeServer.mjs';
import { ensureRunDirs, serverDir, tempDir, tools, vsix, workspaceCopy } from '../lib/context.mjs';

export { tempDir, workspaceCopy };
export const EXTENSION_ID = 'zut.zut-vscode';
export const CHROMIUM = '/usr/bin/chromium';

const servers = new Set();
const pages = new Set();
const pageServer = new WeakMap();   // page → url of the server it shows
let browserPromise;

/**
 * Starts a code-server for one test file (call `stop()` in `after`; leftovers are stopped at the end of the run).
 * @param {object} [o]
 * @param {boolean} [o.trust=true]        false: Workspace Trust on, folders open in Restricted Mode (no prompt)
 * @param {object} [o.settings]           user settings (merged over the quiet defaults)
 * @param {object} [o.env]                environment of code-server and the extension host; ZUT_HOME and ZOT_HOME
 *                                        default to fresh temp dirs (no zut or zot extension of the machine's user)
 * @param {boolean} [o.installVsix=true]  install the packaged extension
 * @param {string[]} [o.devPaths]         extra development extensions loaded by openWorkbench (absolute paths)
 * @param {string} [o.name]               label of the server dir in the run dir
 * @param {boolean} [o.smokeTestDriver=true] false: the window as a user has it — notification toasts show (the
 *                                        smoke-test driver hides them), no `window.driver` (nor `payload` extensions)
 * @returns {Promise<{port:number,url:string,zutHome:string,zotHome:string,logsDir:string,dir:string,devPaths:string[],smokeTestDriver:boolean,stop:()=>Promise<void>}>}
 */
export async function startServer(o = {}) {
  const { trust = true, settings = {}, env = {}, installVsix = true, devPaths = [], name = 'ui', smokeTestDriver = true } = o;
  const zutHome = env.ZUT_HOME ?? tempDir('zut-home');
  const zotHome = env.ZOT_HOME ?? tempDir('zot-home');
  const server = await startCodeServer({
    tools: await tools(), dir: serverDir(name), trust, settings: { ...TEST_SETTINGS, ...settings }, env: { ...env, ZUT_HOME: zutHome, ZOT_HOME: zotHome },
    vsix: installVsix ? vsix() : undefined, smokeTestDriver,
  });
  const s = {
    ...server, zutHome, zotHome, devPaths, smokeTestDriver,
    async stop() {   // close this server's pages first: a page left open keeps reconnecting to a dead server
      servers.delete(s);
      const mine = [...pages].filter((p) => pageServer.get(p) === server.url);
      await traceBrowserLogs(mine);
      await Promise.all(mine.map((p) => p.context().close().catch(() => {})));
      await server.stop();
    },
  };
  servers.add(s);
  return s;
}

function browser() {
  browserPromise ??= chromium.launch({
    executablePath: CHROMIUM, headless: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return browserPromise;
}

/**
 * The workbench URL for `folder` (or a `.code-workspace` file as `workspace`, or an empty window), with a `payload`
 * for development extensions / extension tests when given.
 * @param {{ url: string, devPaths?: string[] }} server
 * @param {{ folder?: string, workspace?: string, devPaths?: string[], payload?: string[][] }} [o]
 */
export function workbenchUrl(server, { folder, workspace, devPaths = server.devPaths ?? [], payload = [] } = {}) {
  const host = new URL(server.url).host;
  const remote = (p) => `vscode-remote://${host}${p}`;   // the node extension host rejects file:// URIs here
  const entries = [...devPaths.map((d) => ['extensionDevelopmentPath', remote(d)]), ...payload];
  let url = `${server.url}?`;
  url += workspace ? `workspace=${encodeURIComponent(workspace)}` : folder ? `folder=${encodeURIComponent(folder)}` : 'ew=true';
  if (entries.length) url += `&payload=${encodeURIComponent(JSON.stringify(entries))}`;
  return url;
}

/**
 * Opens the workbench on `folder` (or `workspace`: a .code-workspace file) in a fresh browser context; resolves once
 * `window.driver.whenWorkbenchRestored()`. `beforeGoto(page)` runs before navigation (e.g. page.exposeFunction).
 * Browser console goes to `<run>/pages/<n>.log`.
 * @param {{ url: string, port: number, devPaths?: string[], smokeTestDriver?: boolean }} server
 * @param {{ folder?: string, workspace?: string, devPaths?: string[], payload?: string[][], viewport?: { width: number, height: number },
 *   beforeGoto?: (page: import('playwright-core').Page) => Promise<unknown>, timeout?: number }} [o]
 * @returns {Promise<import('playwright-core').Page>}
 */
export async function openWorkbench(server, { folder, workspace, devPaths, payload, viewport = { width: 1400, height: 900 }, beforeGoto, timeout = 60_000 } = {}) {
  const context = await (await browser()).newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  pages.add(page);
  pageServer.set(page, server.url);
  page.on('close', () => pages.delete(page));
  const { runDir } = ensureRunDirs();
  fs.mkdirSync(path.join(runDir, 'pages'), { recursive: true });
  const logFile = path.join(runDir, 'pages', `${String(pages.size).padStart(2, '0')}-${server.port}.log`);
  page.on('console', (m) => fs.appendFileSync(logFile, `[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => fs.appendFileSync(logFile, `[pageerror] ${e.message}\n`));
  if (beforeGoto) await beforeGoto(page);
  await page.goto(workbenchUrl(server, { folder, workspace, devPaths, payload }));
  await workbenchReady(page, server, timeout);
  return page;
}

/**
 * Waits for the workbench (after `goto` or a window reload): `window.driver.whenWorkbenchRestored()` with the
 * smoke-test driver; without it, the activity and status bars and the first editor group on screen.
 * @param {import('playwright-core').Page} page
 * @param {{ smokeTestDriver?: boolean }} server
 */
export async function workbenchReady(page, server, timeout = 60_000) {
  await page.locator('.monaco-workbench').waitFor({ timeout });
  if (server.smokeTestDriver === false) {
    for (const part of ['.part.activitybar', '[id="workbench.parts.statusbar"]', '.part.editor']) await page.locator(`.monaco-workbench ${part}`).first().waitFor({ timeout });
    return;
  }
  // `window.driver` is the smoke-test driver code-server adds (untyped here).
  await page.waitForFunction(() => Boolean(/** @type {any} */ (window).driver), null, { timeout });
  await page.evaluate(() => /** @type {any} */ (window).driver.whenWorkbenchRestored());
}

/** Runs a command by its palette title (F1, type, pick the row whose label is exactly `title`, Enter). */
export async function runCommand(page, title) {
  await openPalette(page, `>${title}`);
  const row = paletteRow(page, title);
  await row.waitFor();
  await row.click();
  // The command may open its own quick pick (same widget), so wait for the row, not the widget, to go away.
  await paletteRow(page, title).waitFor({ state: 'hidden' });
}

/**
 * Opens the quick input with F1 and types `text` (start with `>` for commands). Returns the input locator. A quick
 * input still open is closed first; Escape is not pressed otherwise (in a focused panel webview it closes the panel).
 */
export async function openPalette(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  if (await input.isVisible()) await page.keyboard.press('Escape');
  // F1 reaches the workbench from wherever focus is; right after a panel webview closed under load, focus can sit
  // in nothing that forwards it (CI: the palette never opened). Then blur that element, as a click elsewhere would.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    if (await input.waitFor({ timeout: attempt < 3 ? 10_000 : 30_000 }).then(() => true, () => false)) break;
    assert.ok(attempt < 3, 'F1 did not open the command palette (3 tries)');
    await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
  }
  await input.fill(text);
  return input;
}

/** The quick-input row whose label is exactly `label`. */
export function paletteRow(page, label) {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
}

/**
 * Picks the quick pick's row `label` as a person with a mouse does, without hovering over it on the way: the pointer
 * is moved off the widget first, so a tooltip of the row it rested on (where the last pick left it) cannot cover the
 * row (issue 42: "New Extension … creates a TypeScript extension" timed out on a click a hover intercepted).
 */
export async function pickRow(page, label) {
  const row = paletteRow(page, label);
  await row.waitFor();
  await page.mouse.move(0, 0);
  // A hover shown before the move fades: wait for it to go (it may never have been there).
  await page.locator('.workbench-hover-container, .monaco-hover:not(.hidden)').first().waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
  await row.click();
}

/**
 * Retries `fn` until it resolves (returns its value) or `timeout` ms passed (rethrows the last error). For UI state
 * that appears asynchronously but is only read once, e.g. quick picks list output channels as of when they open.
 */
export async function retry(fn, { timeout = 30_000, interval = 500 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    try { return await fn(); } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, interval));
    }
  }
}

/** Shows an output channel through "Output: Show Output Channels..." (retried until the channel exists). */
export async function showOutputChannel(page, name, { timeout = 30_000 } = {}) {
  await retry(async () => {
    await runCommand(page, 'Output: Show Output Channels...');
    await page.locator('.quick-input-widget .quick-input-box input').fill(name);
    await paletteRow(page, name).waitFor({ timeout: 2_000 });
  }, { timeout });
  await page.keyboard.press('Enter');
  return page.locator('.part.panel .monaco-editor .view-lines');
}

/** A status bar item contributed by the extension (`window.createStatusBarItem(id, …)`). */
/**
 * Runs zut command `/name args` through "Zut: Run Command…" (pick the command, then type its arguments). Right after
 * startup the palette may not list our commands yet and the zut extensions start in the background: retried.
 * `asks: true`: the command asks something in the same quick input (an e extension's `ui.select`, `ui.input`), so
 * only the arguments box is waited to go; wait for the question yourself.
 */
export async function zutCommand(page, name, args = '', { asks = false } = {}) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The pick is live (commands appear as extensions start), so a row can move under the click: check which
  // command's argument box opened, and start over if it is not ours.
  const argsFor = page.locator('.quick-input-widget .quick-input-message', { hasText: new RegExp(`Arguments for /${escaped} \\(`) });
  for (let attempt = 0; ; attempt++) {
    try {
      await openPalette(page, '>Zut: Run Command…');
      await paletteRow(page, 'Zut: Run Command…').click({ timeout: 5000 });
      await input.fill(`/${name}`, { timeout: 5000 });
      await paletteRow(page, `/${name}`).click({ timeout: 5000 });
      await argsFor.waitFor({ timeout: 5000 });
      break;
    } catch (e) {
      if (attempt >= 15) throw e;
      if (await input.isVisible()) await input.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
  await input.fill(args);
  await input.press('Enter');
  await (asks ? argsFor : input).waitFor({ state: 'hidden' });
}

/** The Chat view's input. */
export function chatInput(page) {
  return page.locator('.interactive-input-part .native-edit-context, .interactive-input-part textarea').first();
}

/** Replaces the chat input's content with `text` and sends it. */
export async function sendChat(page, text) {
  await chatInput(page).focus(); // click() is intercepted by the input's decorations
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  await page.waitForTimeout(300);
  // A completion list (participants, slash commands) would take the Enter: close it first.
  if (await page.locator('.suggest-widget.visible').count()) await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
}

/**
 * Selects the scripted test model (test/vscode/fixtures/scripted-model) in the Chat view and returns the chat input.
 * The development extension's contributions can arrive after the workbench is restored: the palette is retried.
 */
export async function useScriptedModel(page) {
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
  const input = chatInput(page);
  await input.waitFor();
  await page.locator('.interactive-input-part', { hasText: 'Scripted (test)' }).first().waitFor();
  return input;
}

/**
 * Shows the Zut view container by clicking its activity bar icon near its top-left corner (the attention badge sits
 * bottom-right and would take a click in the middle; forced, since a badge can still cover that corner); the icon of an already open container is not clicked (that
 * would close it). A click can miss while the window still moves things (the Restricted Mode banner appearing
 * shifts the activity bar down): clicked again until the container shows.
 */
export async function showZutView(page) {
  const container = page.locator('[id="workbench.view.extension.zut"]');
  const icon = page.locator('.activitybar .action-item a[aria-label^="Zut"], .activitybar .action-item[aria-label^="Zut"]').first();
  await retry(async () => {
    // force: the attention badge can cover even that corner; it is inside the same action item, whose click handler
    // takes a click on either.
    if (!(await container.isVisible())) await icon.click({ position: { x: 6, y: 6 }, force: true });
    await container.waitFor({ timeout: 5000 });
  }, { timeout: 30_000, interval: 0 });
  return container;
}

/** The Extensions view's rows (tree items) in the Zut view container. */
export function extensionRows(page) {
  return page.locator('[id="workbench.view.extension.zut"] .pane:has(.pane-header[aria-label^="Extensions"]) .monaco-list-row');
}

/** The Extensions view's row of extension `name` (its label is exactly the name). */
export function extensionRow(page, name) {
  return extensionRows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
}

/** Waits until `name`'s row in the Extensions view says `state` (its description starts with it). */
export async function rowState(page, name, state, timeout = 30_000) {
  await extensionRow(page, name).locator('.label-description', { hasText: new RegExp(`^${state} · `) }).waitFor({ timeout });
}

/** Waits for a notification containing `text` in the notification center (toasts hide by themselves); left open. */
export async function notification(page, text) {
  await openPalette(page, '>Notifications: Show Notifications');
  await pickRow(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text });
  await item.first().waitFor();
  return item;
}

/**
 * Runs a palette command, retrying while the palette does not list it yet: right after the workbench is restored
 * the extension's contributions may still be on their way, and an open palette does not pick them up.
 */
export async function runWhenListed(page, title) {
  await retry(async () => {
    await openPalette(page, `>${title}`);
    await paletteRow(page, title).waitFor({ timeout: 3000 });
  }, { timeout: 60_000, interval: 200 });
  await pickRow(page, title);
}

/**
 * In the open editor tab `tab`: Replace All `from` with `to` (the find widget, Ctrl+H), then save (Ctrl+S; the web
 * workbench may also have auto-saved it already).
 */
export async function replaceAndSave(page, tab, from, to) {
  await page.locator('.tabs-container .tab', { hasText: tab }).click();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+H');
  const find = page.locator('.editor-instance .find-widget .find-part textarea, .editor-instance .find-widget .find-part input').first();
  await find.waitFor();
  await find.fill(from);
  const replace = page.locator('.editor-instance .find-widget .replace-part textarea, .editor-instance .find-widget .replace-part input').first();
  await replace.fill(to);
  await replace.press('Control+Alt+Enter'); // Replace All
  await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: to }).first().waitFor();
  await page.keyboard.press('Escape');
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+S');
}

export function statusBarItem(page, itemId) {
  return page.locator(`[id="workbench.parts.statusbar"] [id="${EXTENSION_ID}.${itemId}"]`);
}

/** The content frame of the (first, or `nth`) ready webview. */
export function webview(page, nth = 0) {
  return page.frameLocator('iframe.webview.ready').nth(nth).frameLocator('iframe#active-frame');
}

/** Saves a screenshot to `<run dir>/screenshots/<name>.png`; returns its path. */
export async function screenshot(page, name) {
  const { runDir } = ensureRunDirs();
  const file = path.join(runDir, 'screenshots', `${name.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  return file;
}

/**
 * Saves the workbench's own log files (window.log, terminal.log, …), which the web workbench keeps in the browser's
 * IndexedDB rather than on the server, to `<run dir>/browser-logs/<name>/`. Called for every page when
 * ZUT_VSCODE_TRACE=1 (code-server then also runs with `--log trace`): what VS Code's chat tools and terminal did.
 */
export async function saveBrowserLogs(page, name) {
  const logs = await page.evaluate(async () => {
    const req = (/** @type {IDBRequest} */ r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    const out = {};
    for (const d of await indexedDB.databases()) {
      const db = /** @type {IDBDatabase} */ (await req(indexedDB.open(d.name)));
      for (const store of Array.from({ length: db.objectStoreNames.length }, (_, i) => db.objectStoreNames.item(i) ?? '').filter((n) => /log/i.test(n))) {
        const os = db.transaction(store, 'readonly').objectStore(store);
        for (const key of /** @type {IDBValidKey[]} */ (await req(os.getAllKeys()))) {
          const v = await req(os.get(key));
          out[String(key)] = typeof v === 'string' ? v : v instanceof Uint8Array ? new TextDecoder().decode(v) : JSON.stringify(v);
        }
      }
      db.close();
    }
    return out;
  });
  const { runDir } = ensureRunDirs();
  for (const [key, text] of Object.entries(logs)) {
    const file = path.join(runDir, 'browser-logs', name, key.replace(/^\/+/, '').replace(/\.\.+/g, '_'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

/** With ZUT_VSCODE_TRACE=1: the browser logs of `ps`, each as `<port>-<n>` (before they close). */
async function traceBrowserLogs(ps) {
  if (!process.env.ZUT_VSCODE_TRACE) return;
  for (const p of ps) {
    const port = new URL(pageServer.get(p) ?? 'http://x:0/').port;
    await saveBrowserLogs(p, `${port}-${++tracedPages}`).catch((e) => console.log(`  (browser logs: ${e.message})`));
  }
}
let tracedPages = 0;

/** Closes the browser and stops every server started through startServer. */
export async function closeAll() {
  await traceBrowserLogs([...pages]);
  const b = browserPromise;
  browserPromise = undefined;
  pages.clear();
  if (b) await (await b.catch(() => undefined))?.close().catch(() => {});
  await Promise.all([...servers].map((s) => s.stop()));
}

/** Root hooks loaded by run.mjs: a failing test leaves a screenshot of every open page. */
export const mochaHooks = {
  async afterEach() {
    const t = this.currentTest;
    if (t?.state !== 'failed') return;
    let i = 0;
    for (const p of [...pages]) {
      const file = await screenshot(p, `FAILED-${t.fullTitle()}-${++i}`).catch(() => undefined);
      if (file) console.log(`      screenshot: ${path.relative(process.cwd(), file)}`);
    }
  },
};

