// @ts-check
// UI: a zut extension's skill (the example `briefing` bundles `weather-briefing`) where VS Code's chat offers skills,
// through zut's MCP server: the walkthrough's step and its "Browse Skills" button ("MCP: Browse Resources…", which
// starts the server) list its SKILL.md, and the chat's `/` menu, where VS Code lists agent skills, offers it as `/mcp.zut.weather-briefing`
// with its description; picking it puts the SKILL.md, read only now, into the chat input.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatInput, openWorkbench, retry, runCommand, screenshot, startServer, useScriptedModel, workspaceCopy } from './harness.mjs';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const DESCRIPTION = "Write a short travel weather briefing for one or more cities with the weather extension's tools.";

describe("a zut extension's skill in VS Code's chat", () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'skills', devPaths: [path.join(FIXTURES, 'scripted-model')] });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('the walkthrough\'s "Browse Skills" ("MCP: Browse Resources…") lists the skill of the running extension under zut', async () => {
    await useScriptedModel(page);
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'weather-briefing (skill of briefing)' }).first();
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get started with zut extensions' }).first().click();
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('.getting-started-step', { hasText: "Use an extension's skill in VS Code's agent" }).first().click();
    const button = walkthrough.locator('.monaco-button, a', { hasText: 'Browse Skills' }).first();
    await button.waitFor();
    await screenshot(page, 'skills-walkthrough');
    // The extension may still be starting: the list is read when the quick pick opens, so open it again until it is there.
    await retry(async () => {
      if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
      await button.click();
      await row.waitFor({ timeout: 3_000 });
    }, { timeout: 60_000 });
    const text = await row.innerText();
    assert.match(text, /skill:\/\/briefing\/weather-briefing\/SKILL\.md/, text);
    assert.ok(text.includes(DESCRIPTION), text);
    await screenshot(page, 'skills-resources');
    await page.keyboard.press('Escape');
  });

  it("the chat's / menu offers /mcp.zut.weather-briefing with its description; picking it brings in its SKILL.md", async () => {
    const input = chatInput(page);
    const row = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: '/mcp.zut.weather-briefing' }).first();
    await retry(async () => {
      await input.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('/mcp.zut.');
      await row.waitFor({ timeout: 3_000 });
    }, { timeout: 30_000 });
    assert.ok((await row.getAttribute('aria-label'))?.includes(DESCRIPTION), await row.getAttribute('aria-label') ?? '');
    await screenshot(page, 'skills-slash-menu');
    await page.keyboard.press('Enter');
    const part = page.locator('.interactive-input-part').first();
    // The editor wraps lines and renders spaces as it likes: compared with every run of white space as one space.
    const flat = async () => (await part.innerText()).replace(/[\s\u00a0\u200b-\u200d]+/g, ' ');
    await retry(async () => assert.match(await flat(), /Skill .weather-briefing. of the zut ?extension briefing\. Paths in it are relative to /));
    await screenshot(page, 'skills-prompt-picked');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  });
});
