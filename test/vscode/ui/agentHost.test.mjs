// @ts-check
// UI: one agent turn in VS Code's Agent Host **Copilot harness** (the Copilot SDK runtime code-server 1.139 ships),
// offline. The harness needs a GitHub token and Copilot's API: the workbench's `chat.agentHost.unsafeTestToken`
// (honoured only with the smoke-test driver, which the UI rig enables) stands in for the token, and a CAPI stand-in on
// 127.0.0.1 (test/vscode/lib/capi.mjs, reached through VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE, COPILOT_API_URL and
// COPILOT_DEBUG_GITHUB_API_URL, as VS Code's own agent-host e2e tests route them) serves the user, /models and
// /v1/messages from the scripted Anthropic model (test/agents/lib/model.mjs). zut's tools reach the session through
// the harness's own `$COPILOT_HOME/mcp-config.json` running the agent plugin's launcher script: in code-server the
// Agent Host cannot sync zut's agent plugin itself (it reads the plugin through the browser, which has no file://).
// Checked: the model is offered zut's tools, each once; it calls zut's `weather` with `rm -rf /`; the example guard's
// deny comes back to the model as the tool result; the chat shows the call failed and the model's last word.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { CAPI_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import { chatInput, openWorkbench, retry, screenshot, sendChat, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** One turn: Agent Host start, session creation, the runtime's MCP start and two model rounds (observed: ~30 s). */
const TURN_TIMEOUT_MS = 120_000;
/** The model list reaches the chat input once the Agent Host has asked /models (observed: ~20 s after restore). */
const MODELS_TIMEOUT_MS = 60_000;

describe("agent host: a Copilot-harness turn calls a zut tool and gets the guard's deny", () => {
  let server;
  let page;
  let model;
  let capi;
  // The first main-loop step calls zut's weather tool as the harness names it (`zut-weather`); the guard denies it.
  const script = [{ tool: 'zut-weather', input: { city: 'rm -rf /' } }, { text: 'done' }];

  before(async () => {
    model = await startModel(script);
    capi = await startCapi(model);
    const copilotHome = tempDir('copilot-home');
    server = await startServer({
      name: 'agenthost',
      settings: {
        'zut.agentTools.via': 'plugin', 'chat.defaultToCopilotHarness': true, 'chat.agentHost.unsafeTestToken': 'zut-test-token',
        // MCP tool calls run without VS Code's confirmation (the harness's "allow-all" mode).
        'chat.tools.global.autoApprove': true,
      },
      env: { VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE: capi.url, COPILOT_API_URL: capi.url, COPILOT_DEBUG_GITHUB_API_URL: capi.url,
        COPILOT_HOME: copilotHome, ZUT_HOOKS_DIR: path.join(tempDir('zut-hooks'), 'hooks') },
    });
    const extensionsDir = path.join(server.dir, 'extensions');   // the rig's layout (lib/codeServer.mjs makeDirs)
    const ext = fs.readdirSync(extensionsDir).find((d) => d.startsWith('zut.zut-vscode-'));
    assert.ok(ext, `zut installed in ${extensionsDir}`);
    fs.writeFileSync(path.join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: { zut: { type: 'local', command: 'sh',
      args: [path.join(extensionsDir, ext, 'agent-plugin', 'bin', 'zut-mcp'), '--window'], tools: ['*'] } } }));
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); await model?.close(); await capi?.close(); });

  it('zut-weather is offered once, runs, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + MODELS_TIMEOUT_MS + 60_000);
    await page.keyboard.press('Control+Alt+KeyI');
    const inputPart = page.locator('.interactive-input-part').first();
    await chatInput(page).waitFor();
    // A new chat is a Copilot-harness session (chat.defaultToCopilotHarness); its model picker starts on "Auto", which
    // needs Copilot's auto-mode service: the scripted model is picked instead.
    const auto = inputPart.getByText('Auto', { exact: true }).first();
    await auto.waitFor({ timeout: MODELS_TIMEOUT_MS });
    assert.match(await inputPart.innerText(), /\bCopilot\b/, 'the session is the Copilot harness');
    // The picker lists "Auto" and an "Other Models" entry that shows the scripted model when clicked. The picker can
    // open before its list has settled (the Agent Host lists models again as the session starts and the widget
    // re-renders): each attempt opens it and picks the row, until the chat input shows the model.
    const dropdown = page.locator('.action-widget-dropdown').first();
    await retry(async () => {
      if (await dropdown.isVisible()) await page.keyboard.press('Escape');
      await auto.click();
      await dropdown.getByText('Other Models').first().click({ timeout: 5000 });
      const row = page.locator('.action-widget .monaco-list-row', { hasText: CAPI_MODEL_NAME }).last();
      await row.hover({ timeout: 5000 });   // the list's focus follows the mouse; End + Enter picks its last (only) row
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await inputPart.getByText(CAPI_MODEL_NAME).first().waitFor({ timeout: 5000 });
    }, { timeout: MODELS_TIMEOUT_MS });

    await sendChat(page, 'What is the weather?');
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: 'done' }).last();
    await response.waitFor({ timeout: TURN_TIMEOUT_MS });
    await screenshot(page, 'agenthost-turn');
    const text = (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
    assert.match(text, /"zut-weather" failed/, text);

    const main = model.requests.filter((r) => r.main);
    assert.equal(main.length, 2, `two main-loop rounds (have ${main.length})`);
    const names = main[0].body.tools.map((t) => t.name);
    const zut = names.filter((n) => n.startsWith('zut-'));
    assert.deepEqual(zut.filter((n, i) => zut.indexOf(n) !== i), [], `no zut tool offered twice: ${zut.join(', ')}`);
    for (const n of ['zut-weather', 'zut-forecast', 'zut-skill']) assert.ok(names.includes(n), `${n} offered (have: ${zut.join(', ')})`);
    const last = main[1].body.messages.at(-1);
    const result = last.content.find((c) => c.type === 'tool_result');
    assert.ok(result, JSON.stringify(last));
    assert.match(JSON.stringify(result.content), /blocked by guard: refused: matches danger pattern \\"rm -rf\\"/);
    assert.deepEqual([...model.escapes, ...capi.seen.filter((s) => s.method === 'CONNECT')], [], 'nothing tried to leave the machine');
  });
});
