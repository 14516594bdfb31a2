// @ts-check
// UI: VS Code's own `run_in_terminal` through `@zut` (issue 21), typed into the Chat view with the scripted test model
// (test/vscode/fixtures/scripted-model). VS Code 1.139 asks "Run bash command?" (its confirmation sits above the chat
// input, "1 confirmation pending" in the response); the test clicks Allow, the command runs in VS Code's terminal and
// its output comes back to the model (the scripted model answers "model got: <output>"). The Stop button ends a long
// command (`sleep 30`): the response ends at once and VS Code marks the command as failed. What the model is told on
// Stop (the cancelled tool result) is checked in-host (inhost/editorTools.test.js): VS Code shows nothing streamed
// after a cancel.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenshot, sendChat, startServer, openWorkbench, useScriptedModel, workspaceCopy } from './harness.mjs';

const SCRIPTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scripted-model');

describe("editor tools: @zut runs VS Code's run_in_terminal with its confirmation", () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'editor-tools', devPaths: [SCRIPTED] });
    page = await openWorkbench(server, { folder: workspaceCopy() });
    await useScriptedModel(page);
    // The extension host learns a newly registered model's metadata asynchronously: give it a moment.
    await page.waitForTimeout(3000);
  });
  after(async () => { await server?.stop(); });

  const chatView = () => page.locator('.interactive-session').first();
  /** The Allow button of VS Code's pending tool confirmation (1.139 shows it above the chat input). */
  const allowButton = () => chatView().locator('.monaco-button:visible', { hasText: /^\s*Allow\b/ }).first();
  /** The confirmation's box ("Run bash command?", the command, Allow / Skip). */
  const confirmation = () => chatView().locator('.chat-tool-confirmation-carousel:visible, .chat-confirmation-widget2:visible', { hasText: /Run .*command\?/ }).first();

  const send = (text) => sendChat(page, text);

  /** `@zut call run_in_terminal …` (key=value arguments: the scripted model's chat-input form). */
  const terminalCall = (command) => `@zut call run_in_terminal command="${command}" explanation=ui goal=ui mode=sync`;

  it('shows "Run bash command?" in the Chat view; Allow runs it and the output reaches the model', async () => {
    const token = `zut-ui-${crypto.randomUUID().slice(0, 8)}`;
    await send(terminalCall(`echo ${token}`));
    await allowButton().waitFor({ timeout: 60_000 });
    await screenshot(page, 'editor-tools-confirmation');
    const asked = (await confirmation().innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(asked, new RegExp(`Run .*command\\?.*echo ${token}`), asked);
    // Nothing ran yet: the model has not answered.
    const waiting = (await chatView().innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.doesNotMatch(waiting, /model got:/, waiting);
    await allowButton().click();
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: `model got: ${token}` }).last();
    await response.waitFor({ timeout: 60_000 });
    await screenshot(page, 'editor-tools-allowed');
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(text, new RegExp(`run_in_terminal \\(vscode\\): ${token}`), text); // zut's line: the tool's output
    assert.match(text, new RegExp(`model got: ${token}`), text);
  });

  it("Skip in VS Code's confirmation: nothing runs and the model reads VS Code's own words for it", async () => {
    const token = `zut-skipped-${crypto.randomUUID().slice(0, 8)}`;
    const responses = page.locator('.interactive-item-container.interactive-response');
    const before = await responses.count();
    await send(terminalCall(`echo ${token}`));
    const skip = chatView().locator('.monaco-button:visible', { hasText: /^\s*Skip\b/ }).first();
    await skip.waitFor({ timeout: 60_000 });
    await skip.click();
    // This test's response, the one after those already shown, once the model answered: `.last()` of any "model got:"
    // could be the previous test's, still the last one until this response appears.
    const response = responses.nth(before).filter({ hasText: /model got:/ });
    await response.waitFor({ timeout: 30_000 });
    await screenshot(page, 'editor-tools-skipped');
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(text, /model got: .*skip the tool call/i, text);
    assert.doesNotMatch(text, new RegExp(`model got: ${token}`), text);
  });

  it('the Stop button cancels a long command: the response ends promptly and the command is marked cancelled', async () => {
    const token = `zut-slept-${crypto.randomUUID().slice(0, 8)}`;
    await send(terminalCall(`sleep 30; echo ${token}`));
    await allowButton().waitFor({ timeout: 60_000 });
    await allowButton().click();
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: `sleep 30; echo ${token}` }).last();
    await response.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(4000); // the terminal starts the command
    const stop = chatView().locator('.interactive-input-part .action-label.codicon-stop-circle:visible').first(); // "Cancel (Ctrl+Escape)"
    await screenshot(page, 'editor-tools-running');
    await stop.click();
    const stopped = Date.now();
    await stop.waitFor({ state: 'hidden', timeout: 10_000 });
    const took = Date.now() - stopped;
    // VS Code marks the command as failed in its terminal part (the terminal got the interrupt).
    await response.locator('.chat-terminal-command-decoration.codicon-terminal-decoration-error').first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'editor-tools-stopped');
    assert.ok(took < 5000, `the response ended ${took} ms after Stop`);
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.doesNotMatch(text, /model got:/, text);
  });
});
