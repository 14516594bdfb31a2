// @ts-check
// UI: a zut tool called the way VS Code's agent mode calls it. The test-only participant `@agentcaller`
// (test/vscode/fixtures/agent-caller) runs `vscode.lm.invokeTool` with its request's toolInvocationToken on our MCP
// server's tools: VS Code shows its own confirmation for `enable_weather_alerts` (not read-only), Allow runs it, and
// the deferred tool it activates is offered right away, and the read-only `weather` call that follows files its
// state under the chat conversation's zut session.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installVsix } from '../lib/codeServer.mjs';
import { fixtureVsix, tools } from '../lib/context.mjs';
import { openWorkbench, screenshot, startServer, useScriptedModel, workspaceCopy } from './harness.mjs';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

describe('agent mode: a zut tool through vscode.lm.invokeTool in a chat', () => {
  let server;
  let page;

  before(async () => {
    // One development path per window (code-server keeps the last): the participant is installed as a vsix instead.
    server = await startServer({ name: 'agent', devPaths: [path.join(FIXTURES, 'scripted-model')] });
    installVsix(await tools(), server, fixtureVsix(path.join(FIXTURES, 'agent-caller')));
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it("shows VS Code's confirmation; Allow runs the tool; the conversation id reaches the zut session", async () => {
    // A chat request needs a model: the scripted test model.
    const input = await useScriptedModel(page);
    await input.focus();
    await page.keyboard.type('@agentcaller go');
    await page.waitForTimeout(300);
    if (await page.locator('.suggest-widget.visible').count()) await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');

    const allow = page.locator('.interactive-item-container .monaco-button', { hasText: /^\s*Allow\b/ }).first(); // "Allow in this Session"
    await allow.waitFor({ timeout: 90_000 });
    const confirmation = await page.locator('.interactive-item-container.interactive-response').last().innerText();
    await screenshot(page, 'agent-confirmation');
    assert.match(confirmation, /[Ee]nable weather alerts|enable_weather_alerts/, confirmation);
    await allow.click();

    const response = page.locator('.interactive-item-container.interactive-response', { hasText: 'chat session:' }).last();
    await response.waitFor({ timeout: 60_000 });
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    await screenshot(page, 'agent-allowed');
    assert.match(text, /enable result: Enabled the weather_alerts tool\./, text);
    assert.match(text, /deferred tool offered: before false, after true/, text);
    assert.match(text, /weather result: Paris: 19°C/, text);
    const sessions = /zut sessions: \[([^\]]*)\]/.exec(text)[1].split(' ').filter(Boolean);
    const chat = /chat session: \[([^\]]*)\]/.exec(text)[1];
    assert.equal(sessions.length, 1, text);
    // The session came from `_meta["vscode.conversationId"]`, not the relay connection's own fallback (`mcp-…`).
    assert.doesNotMatch(sessions[0], /^mcp-/, text);
    // The token names the chat session as an id or as `vscode-chat-session://local/<base64 id>`.
    const chatId = /^vscode-chat-session:/.test(chat) ? Buffer.from(chat.split('/').pop(), 'base64').toString('utf8') : chat;
    assert.equal(sessions[0], chatId, `zut session ${sessions[0]} is the chat's (${chat})`);
  });
});
