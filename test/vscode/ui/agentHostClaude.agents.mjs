// @ts-check
// UI: an agent turn in VS Code's Agent Host **Claude harness** (the Claude Agent SDK, run by code-server 1.139's Agent
// Host), offline. The Agent Host registers the harness when it can load the SDK: code-server's product.json names no
// `agentSdks` download, so VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT names a local install (lib/agentSdks.mjs). A signed-in
// harness runs Claude Code with ANTHROPIC_BASE_URL at the Agent Host's own Claude proxy, which forwards /v1/messages to
// Copilot's API with the GitHub token: as in agentHost.test.mjs, `chat.agentHost.unsafeTestToken` stands in for the
// token and the CAPI stand-in (test/vscode/lib/capi.mjs, through VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE) serves the user,
// the token, /models and /v1/messages from the scripted Anthropic model (test/agents/lib/model.mjs). Claude Code's
// environment is the Agent Host's HOME (a fresh one here, not this machine's ~/.claude) plus its settings; it reads
// the user, project and local settings (`settingSources`), so zut's MCP server reaches the session through the
// workspace's `.mcp.json` (as Claude Code's users add it), running the agent plugin's launcher script, enabled and
// its `weather` tool allowed in `.claude/settings.local.json`. Two `tee`s around the launcher record every JSON-RPC
// line between Claude Code and zut's MCP server. The user settings' `env` gives Claude Code the scripted model as its
// HTTP(S) proxy, so anything it tries to reach off this machine is refused and recorded, and, when the rig runs as
// root, IS_SANDBOX=1: the Agent Host always passes --allow-dangerously-skip-permissions, which Claude Code refuses to
// root otherwise (observed: `--dangerously-skip-permissions cannot be used with root/sudo privileges for security
// reasons`, the turn fails). A new chat starts on the
// Copilot harness (chat.defaultToCopilotHarness); the test switches it to Claude in the chat input's harness picker
// (rows: Copilot, Local, Claude) and the session starts on the harness's only model, the scripted one. One turn, checked:
// 1. the model is offered zut's tools (Claude Code names them `mcp__zut__<tool>`), each once;
// 2. it calls zut's `weather` with `rm -rf /`: the example guard's deny, from zut's MCP server, comes back to the
//    model as that call's tool_result;
// 3. it calls zut's `weather` for Paris: the example extension's real answer comes back to the model; zut's server
//    got exactly these two tools/call requests; the chat shows the model's last word; every /v1/messages request
//    reached the CAPI stand-in through the Agent Host's Claude proxy (its User-Agent `vscode_claude_code/…`), and
//    nothing tried to leave the machine.
// zut's agent plugin is not how the tools arrive here: in code-server the Agent Host cannot sync it (observed:
// `[AgentPluginManager] Failed to sync plugin …/agent-plugin: Access to file:///… `, the browser has no file://).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { ensureClaudeAgentSdk } from '../lib/agentSdks.mjs';
import { CAPI_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import { chatInput, openWorkbench, retry, screenshot, sendChat, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** The turn: Claude Code's start, its MCP servers' start and three model rounds (observed: ~10 s, the test ~30 s). */
const TURN_TIMEOUT_MS = 150_000;
/** The harness picker and the Claude harness's model list reach the chat input once the Agent Host has them. */
const PICKER_TIMEOUT_MS = 60_000;
/** One attempt at a dropdown (it can open before its list has settled and be re-rendered). */
const DROPDOWN_TRY_MS = 5_000;

/** The example weather extension's answer for Paris (examples/workspace/.zut/extensions/weather/weather.mjs). */
const PARIS = 'Paris: 19°C, light rain, wind 9 km/h, humidity 74%';
/** The example guard's reason for anything with `rm -rf`, as zut words a block. */
const GUARD_DENY = 'blocked by guard: refused: matches danger pattern "rm -rf"';
/** The model's last word. */
const END = 'claude turn over';

/**
 * The tool_result the model got for its `name` call whose input matches `input` (found in `body`'s history by the
 * tool_use id), as text (its text blocks joined); undefined when there is none.
 * @param {any} body @param {string} name @param {(input: any) => boolean} [input]
 */
function resultOf(body, name, input = () => true) {
  const blocks = (body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const use = blocks.find((b) => b.type === 'tool_use' && b.name === name && input(b.input));
  const result = use && blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === use.id);
  if (!result) return undefined;
  if (typeof result.content === 'string') return result.content;
  return (Array.isArray(result.content) ? result.content : []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** The lines of the server's logs that name the Claude harness (its Agent Host log), for a failure's message. */
function claudeLog(server) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(...fs.readFileSync(p, 'utf8').split('\n').filter((l) => /Claude|claude-agent-sdk/.test(l)).map((l) => `${e.name}: ${l}`));
    }
  };
  if (server?.logsDir && fs.existsSync(server.logsDir)) walk(server.logsDir);
  return out.slice(-40).join('\n');
}

describe("agent host: a Claude-harness turn with zut's tools", () => {
  let server;
  let page;
  let model;
  let capi;
  let ws;
  let mcpLog;
  const script = [
    { tool: 'mcp__zut__weather', input: { city: 'rm -rf /' } },
    { tool: 'mcp__zut__weather', input: { city: 'Paris' } },
    { text: END },
  ];

  before(async () => {
    const sdkRoot = ensureClaudeAgentSdk((l) => console.log(`      ${l}`));
    model = await startModel(script);
    capi = await startCapi(model);
    const home = tempDir('claude-home');
    const hooksDir = path.join(tempDir('zut-hooks'), 'hooks');
    ws = workspaceCopy();
    // Claude Code's user settings: the scripted model as the way out; all of zut's tools offered at once.
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ env: {
      HTTPS_PROXY: model.url, HTTP_PROXY: model.url, https_proxy: model.url, http_proxy: model.url, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
      DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', ENABLE_TOOL_SEARCH: 'false',
      // The Agent Host always starts Claude Code with --allow-dangerously-skip-permissions, which Claude Code refuses
      // to root (`--dangerously-skip-permissions cannot be used with root/sudo privileges`) outside a declared
      // sandbox: this rig runs as root in a container.
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) } }));
    server = await startServer({
      name: 'agenthost-claude',
      settings: {
        'zut.agentTools.via': 'plugin', 'chat.defaultToCopilotHarness': true, 'chat.agentHost.unsafeTestToken': 'zut-test-token',
        'chat.agentHost.claudeAgent.enabled': true, 'chat.tools.global.autoApprove': true,
      },
      env: { VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT: sdkRoot, VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE: capi.url, COPILOT_API_URL: capi.url,
        COPILOT_DEBUG_GITHUB_API_URL: capi.url, HOME: home, ZUT_HOOKS_DIR: hooksDir },
    });
    const extensionsDir = path.join(server.dir, 'extensions');   // the rig's layout (lib/codeServer.mjs makeDirs)
    const ext = fs.readdirSync(extensionsDir).find((d) => d.startsWith('zut.zut-vscode-'));
    assert.ok(ext, `zut installed in ${extensionsDir}`);
    const mcpDir = tempDir('mcp-log');
    mcpLog = path.join(mcpDir, 'to-server.jsonl');
    // zut's MCP server for the project, as Claude Code reads it; two `tee`s keep both directions.
    fs.writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { zut: { type: 'stdio', command: 'sh',
      args: ['-c', 'tee -a "$0" | sh "$1" --window | tee -a "$2"', mcpLog, path.join(extensionsDir, ext, 'agent-plugin', 'bin', 'zut-mcp'), path.join(mcpDir, 'from-server.jsonl')],
      env: { ZUT_HOOKS_DIR: hooksDir } } } }));
    fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.claude', 'settings.local.json'), JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ['mcp__zut__weather'] } }));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); await model?.close(); await capi?.close(); });

  const mcpMessages = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const main = () => model.requests.filter((r) => r.main);

  it('zut-weather is offered once, runs for Paris, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + 2 * PICKER_TIMEOUT_MS + 60_000);
    await page.keyboard.press('Control+Alt+KeyI');
    const inputPart = page.locator('.interactive-input-part').first();
    await chatInput(page).waitFor();
    const dropdown = page.locator('.action-widget-dropdown, .action-widget').first();
    // The harness picker shows the new chat's harness (Copilot); its list has a row for each registered harness.
    await retry(async () => {
      if (await dropdown.isVisible()) await page.keyboard.press('Escape');
      await inputPart.getByText('Copilot', { exact: true }).first().click({ timeout: DROPDOWN_TRY_MS });
      await screenshot(page, 'agenthost-claude-harness-picker');
      await page.locator('.action-widget .monaco-list-row', { hasText: /^\s*Claude\b/ }).first().click({ timeout: DROPDOWN_TRY_MS });
      await inputPart.getByText('Claude', { exact: true }).first().waitFor({ timeout: DROPDOWN_TRY_MS });
    }, { timeout: PICKER_TIMEOUT_MS }).catch((e) => { throw new Error(`${e.message}\n${claudeLog(server)}`); });
    await screenshot(page, 'agenthost-claude-picked');
    // The Claude harness's models are Copilot's Anthropic models that speak /v1/messages: the scripted one, the only one,
    // which the new session starts on.
    await inputPart.getByText(CAPI_MODEL_NAME).first().waitFor({ timeout: PICKER_TIMEOUT_MS }).catch((e) => { throw new Error(`${e.message}\n${claudeLog(server)}`); });

    await sendChat(page, 'What is the weather?');
    const response = page.locator('.interactive-item-container.interactive-response', { hasText: END }).last();
    await response.waitFor({ timeout: TURN_TIMEOUT_MS }).catch(async (e) => {
      await screenshot(page, 'agenthost-claude-timeout');
      throw new Error(`${e.message}\nmodel requests: ${model.requests.map((r) => `${r.path}${r.main ? ' main' : ''}`).join(', ')}\ncapi: ${capi.seen.map((s) => `${s.method} ${s.path}`).join(', ')}\n${claudeLog(server)}`);
    });
    await screenshot(page, 'agenthost-claude-turn');

    const rounds = main();
    assert.equal(rounds.length, 3, `three main-loop rounds (have ${rounds.length})`);
    const names = rounds[0].body.tools.map((t) => t.name);
    const zut = names.filter((n) => n.startsWith('mcp__zut__'));
    assert.deepEqual(zut.filter((n, i) => zut.indexOf(n) !== i), [], `no zut tool offered twice: ${zut.join(', ')}`);
    for (const n of ['mcp__zut__weather', 'mcp__zut__forecast', 'mcp__zut__skill']) assert.ok(names.includes(n), `${n} offered (have: ${names.join(', ')})`);
    const denied = resultOf(rounds[1].body, 'mcp__zut__weather', (i) => i?.city === 'rm -rf /');
    assert.ok(denied?.includes(GUARD_DENY), `the guard's deny reached the model: ${denied}`);
    const paris = resultOf(rounds[2].body, 'mcp__zut__weather', (i) => i?.city === 'Paris');
    assert.ok(paris?.includes(PARIS), `the weather result reached the model: ${paris}`);
    const calls = mcpMessages(mcpLog).filter((m) => m.method === 'tools/call').map((m) => m.params?.arguments?.city);
    assert.deepEqual(calls, ['rm -rf /', 'Paris'], "the harness called zut's server for each");
    // Every model request came through the Agent Host's Claude proxy, which names itself in the User-Agent it passes on
    // (agentHostMain.js: `vscode_claude_code/<Claude Code's version>`).
    const messages = capi.seen.filter((s) => s.path === '/v1/messages');
    assert.ok(messages.length >= 3 && messages.every((s) => s.agent.startsWith('vscode_claude_code/')), `through the Claude proxy: ${messages.map((s) => s.agent).join(', ')}`);
    assert.deepEqual([...model.escapes, ...capi.seen.filter((s) => s.method === 'CONNECT')], [], 'nothing tried to leave the machine');
  });
});
