// @ts-check
// UI: an agent turn in VS Code's Agent Host **Codex harness** (Codex's `codex app-server`, run by code-server 1.139's
// Agent Host), offline. The Agent Host registers the harness when VSCODE_AGENT_HOST_CODEX_AGENT_ENABLED is on and it
// can find Codex's binary: code-server's product.json names no `agentSdks` download, so
// VSCODE_AGENT_HOST_CODEX_SDK_ROOT names a local install of Codex CLI (lib/agentSdks.mjs). A signed-in harness runs
// the app-server with the Agent Host's own Codex proxy as its model provider `vscode-proxy` (Responses API), which
// forwards /responses to Copilot's API with the GitHub token: `chat.agentHost.unsafeTestToken` stands in for the token
// and the CAPI stand-in (test/vscode/lib/capi.mjs, through VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE) lists an OpenAI model
// and passes /responses to the scripted Responses model (test/agents/lib/responsesModel.mjs). The app-server runs with
// the Agent Host's environment, whose HOME is a fresh one here: zut's MCP server reaches the session through that
// HOME's ~/.codex/config.toml (`[mcp_servers.zut]`, as Codex's users add it, its cwd the workspace so zut serves that
// folder), running the agent plugin's launcher script; two `tee`s around it record every JSON-RPC line. A new chat
// starts on the Copilot harness (chat.defaultToCopilotHarness); the test switches it to Codex in the chat input's
// harness picker. One turn, checked:
// 1. the model is offered zut's tools (Codex offers an MCP server's tools as the namespace `mcp__zut`), each once;
// 2. it calls zut's `weather` with `rm -rf /`: the example guard's deny, from zut's MCP server, comes back to the
//    model as that call's output;
// 3. it calls zut's `weather` for Paris: the example extension's real answer comes back to the model; zut's server
//    got exactly these two tools/call requests; the chat shows the model's last word; every /responses request
//    reached the CAPI stand-in through the Agent Host's Codex proxy (its User-Agent `vscode_codex…`).
// Not trapped here: the app-server's own way out. It runs with the Agent Host's environment (no proxy can be given to
// it alone, unlike Claude Code's settings `env`), so a request it made off this machine would not be recorded. Observed beside zut's server: the Agent Host adds GitHub's MCP server
// (`github-mcp-server`, at the CAPI stand-in's /mcp, refused: `[ready, 0 tool(s)]`); zut's is `[ready, 8 tool(s)]`.
// zut's agent plugin is not how the tools arrive here: in code-server the Agent Host cannot sync it (observed:
// `[AgentPluginManager] Failed to sync plugin …/agent-plugin: Access to file:///… is not granted`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { startResponsesModel } from '../../agents/lib/responsesModel.mjs';
import { ensureCodexSdk } from '../lib/agentSdks.mjs';
import { CAPI_RESPONSES_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import { chatInput, openWorkbench, retry, screenshot, sendChat, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** The turn: the app-server's start, its MCP servers' start and three model rounds (observed: ~5 s, the test ~20 s). */
const TURN_TIMEOUT_MS = 150_000;
/** The harness picker and the Codex harness's model list reach the chat input once the Agent Host has them. */
const PICKER_TIMEOUT_MS = 60_000;
/** One attempt at a dropdown (it can open before its list has settled and be re-rendered). */
const DROPDOWN_TRY_MS = 5_000;

/** The example weather extension's answer for Paris (examples/workspace/.zut/extensions/weather/weather.mjs). */
const PARIS = 'Paris: 19°C, light rain, wind 9 km/h, humidity 74%';
/** The example guard's reason for anything with `rm -rf`, as zut words a block. */
const GUARD_DENY = 'blocked by guard: refused: matches danger pattern "rm -rf"';
/** The model's last word. */
const END = 'codex turn over';

/**
 * The output the model got (in `body`'s input) for its call of `name` whose arguments match `args`, as text (an
 * output of content items: their texts joined; observed for an MCP tool: `Wall time: … seconds\nOutput:`, then the
 * tool's text).
 * @param {any} body @param {string} name @param {(args: any) => boolean} args
 */
function outputOf(body, name, args) {
  const items = Array.isArray(body?.input) ? body.input : [];
  const call = items.find((i) => i?.type === 'function_call' && i.name === name && args(JSON.parse(i.arguments ?? '{}')));
  const out = call && items.find((i) => i?.type === 'function_call_output' && i.call_id === call.call_id);
  if (!out) return undefined;
  if (typeof out.output === 'string') return out.output;
  return (Array.isArray(out.output) ? out.output : []).filter((c) => c?.type === 'input_text').map((c) => c.text).join('\n');
}

/** The lines of the server's logs that name the Codex harness (its Agent Host log), for a failure's message. */
function codexLog(server) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(...fs.readFileSync(p, 'utf8').split('\n').filter((l) => /Codex/.test(l)).map((l) => `${e.name}: ${l.slice(0, 400)}`));
    }
  };
  if (server?.logsDir && fs.existsSync(server.logsDir)) walk(server.logsDir);
  return out.slice(-40).join('\n');
}

describe("agent host: a Codex-harness turn with zut's tools", () => {
  let server;
  let page;
  let anthropic;
  let model;
  let capi;
  let ws;
  let mcpLog;
  const script = [
    { tool: 'weather', namespace: 'mcp__zut', input: { city: 'rm -rf /' } },
    { tool: 'weather', namespace: 'mcp__zut', input: { city: 'Paris' } },
    { text: END },
  ];

  before(async () => {
    const sdkRoot = ensureCodexSdk((l) => console.log(`      ${l}`));
    anthropic = await startModel([]);
    model = await startResponsesModel(script);
    capi = await startCapi(anthropic, model);
    const home = tempDir('codex-home');
    const hooksDir = path.join(tempDir('zut-hooks'), 'hooks');
    ws = workspaceCopy();
    server = await startServer({
      name: 'agenthost-codex',
      settings: {
        'zut.agentTools.via': 'plugin', 'chat.defaultToCopilotHarness': true, 'chat.agentHost.unsafeTestToken': 'zut-test-token',
        // An editor window lists the Agent Host's Codex harness only with chat.editor.codex.preferAgentHost (workbench.js:
        // `case "codex": return config.getValue(isSessionsWindow ? "chat.agentHost.codexAgent.enabled" : "chat.editor.codex.preferAgentHost") === true`).
        'chat.agentHost.codexAgent.enabled': true, 'chat.editor.codex.preferAgentHost': true, 'chat.tools.global.autoApprove': true,
      },
      env: { VSCODE_AGENT_HOST_CODEX_SDK_ROOT: sdkRoot, VSCODE_AGENT_HOST_CODEX_AGENT_ENABLED: '1', VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE: capi.url,
        COPILOT_API_URL: capi.url, COPILOT_DEBUG_GITHUB_API_URL: capi.url, HOME: home, ZUT_HOOKS_DIR: hooksDir },
    });
    const extensionsDir = path.join(server.dir, 'extensions');   // the rig's layout (lib/codeServer.mjs makeDirs)
    const ext = fs.readdirSync(extensionsDir).find((d) => d.startsWith('zut.zut-vscode-'));
    assert.ok(ext, `zut installed in ${extensionsDir}`);
    const mcpDir = tempDir('mcp-log');
    mcpLog = path.join(mcpDir, 'to-server.jsonl');
    const q = (v) => JSON.stringify(v);
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codex', 'config.toml'), [
      '[analytics]', 'enabled = false', '', '[features]', 'plugins = false', 'tool_search = false', '',
      '[mcp_servers.zut]', 'command = "sh"',
      `args = [${['-c', 'tee -a "$0" | sh "$1" --window | tee -a "$2"', mcpLog, path.join(extensionsDir, ext, 'agent-plugin', 'bin', 'zut-mcp'), path.join(mcpDir, 'from-server.jsonl')].map(q).join(', ')}]`,
      `cwd = ${q(ws)}`, `env = { ZUT_HOOKS_DIR = ${q(hooksDir)} }`, '',
    ].join('\n'));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); await model?.close(); await anthropic?.close(); await capi?.close(); });

  const mcpMessages = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const main = () => model.requests.filter((r) => r.main);

  it('zut-weather is offered once, runs for Paris, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + 2 * PICKER_TIMEOUT_MS + 60_000);
    await page.keyboard.press('Control+Alt+KeyI');
    const inputPart = page.locator('.interactive-input-part').first();
    await chatInput(page).waitFor();
    const dropdown = page.locator('.action-widget-dropdown, .action-widget').first();
    await retry(async () => {
      if (await dropdown.isVisible()) await page.keyboard.press('Escape');
      await inputPart.getByText('Copilot', { exact: true }).first().click({ timeout: DROPDOWN_TRY_MS });
      await screenshot(page, 'agenthost-codex-harness-picker');
      await page.locator('.action-widget .monaco-list-row', { hasText: /^\s*Codex\b/ }).first().click({ timeout: DROPDOWN_TRY_MS });
      await inputPart.getByText('Codex', { exact: true }).first().waitFor({ timeout: DROPDOWN_TRY_MS });
    }, { timeout: PICKER_TIMEOUT_MS }).catch((e) => { throw new Error(`${e.message}\n${codexLog(server)}`); });
    await screenshot(page, 'agenthost-codex-picked');
    await inputPart.getByText(CAPI_RESPONSES_MODEL_NAME).first().waitFor({ timeout: PICKER_TIMEOUT_MS }).catch(async (e) => {
      await screenshot(page, 'agenthost-codex-no-model');
      throw new Error(`${e.message}\n${codexLog(server)}`);
    });

    await sendChat(page, 'What is the weather?');
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: END }).last();
    await response.waitFor({ timeout: TURN_TIMEOUT_MS }).catch(async (e) => {
      await screenshot(page, 'agenthost-codex-timeout');
      throw new Error(`${e.message}\nmodel requests: ${model.requests.map((r) => `${r.path}${r.main ? ' main' : ''}`).join(', ')}\ncapi: ${capi.seen.map((s) => `${s.method} ${s.path}`).join(', ')}\n${codexLog(server)}`);
    });
    await screenshot(page, 'agenthost-codex-turn');

    const rounds = main();
    assert.equal(rounds.length, 3, `three main-loop rounds (have ${rounds.length})`);
    const ns = rounds[0].body.tools.filter((t) => t.type === 'namespace' && t.name === 'mcp__zut');
    assert.equal(ns.length, 1, `one mcp__zut namespace: ${JSON.stringify(rounds[0].body.tools.map((t) => t.name))}`);
    const zut = ns[0].tools.map((t) => t.name);
    assert.deepEqual(zut.filter((n, i) => zut.indexOf(n) !== i), [], `no zut tool offered twice: ${zut.join(', ')}`);
    for (const n of ['weather', 'forecast', 'skill']) assert.ok(zut.includes(n), `${n} offered (have: ${zut.join(', ')})`);
    const denied = outputOf(rounds[1].body, 'weather', (a) => a?.city === 'rm -rf /');
    assert.ok(denied?.includes(GUARD_DENY), `the guard's deny reached the model: ${denied}`);
    const paris = outputOf(rounds[2].body, 'weather', (a) => a?.city === 'Paris');
    assert.ok(paris?.includes(PARIS), `the weather result reached the model: ${paris}`);
    const calls = mcpMessages(mcpLog).filter((m) => m.method === 'tools/call').map((m) => m.params?.arguments?.city);
    assert.deepEqual(calls, ['rm -rf /', 'Paris'], "the harness called zut's server for each");
    const responses = capi.seen.filter((s) => s.path === '/responses' || s.path === '/v1/responses');
    assert.ok(responses.length >= 3 && responses.every((s) => s.agent.startsWith('vscode_codex')), `through the Codex proxy: ${responses.map((s) => s.agent).join(', ')}`);
  });
});
