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
// The rig, the picker, the turn and the checks it shares with the other Agent Host harness tests: agentHostTurn.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { ensureClaudeAgentSdk } from '../lib/agentSdks.mjs';
import { CAPI_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import {
  PICKER_TIMEOUT_MS, agentHostLog, agentHostServer, assertOfferedOnce, assertStayedLocal, assertThroughProxy, assertWeatherCalls, harnessTurn,
  resultOf, teedZutMcp,
} from './agentHostTurn.mjs';
import { openWorkbench, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** The turn: Claude Code's start, its MCP servers' start and three model rounds (observed: ~10 s, the test ~30 s). */
const TURN_TIMEOUT_MS = 150_000;

/** The model's last word. */
const END = 'claude turn over';

describe("agent host: a Claude-harness turn with zut's tools", () => {
  // What before() starts, for the test and after().
  let server, page, model, capi, mcp;
  const script = [
    { tool: 'mcp__zut__weather', input: { city: 'rm -rf /' } },
    { tool: 'mcp__zut__weather', input: { city: 'Paris' } },
    { text: END },
  ];
  /** The Claude harness's lines of the Agent Host log. */
  const claudeLog = () => agentHostLog(server, /Claude|claude-agent-sdk/);

  before(async () => {
    const sdkRoot = ensureClaudeAgentSdk((l) => console.log(`      ${l}`));
    model = await startModel(script);
    capi = await startCapi(model);
    const home = tempDir('claude-home');
    const hooksDir = path.join(tempDir('zut-hooks'), 'hooks');
    const ws = workspaceCopy();
    // Claude Code's user settings: the scripted model as the way out; all of zut's tools offered at once.
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ env: {
      HTTPS_PROXY: model.url, HTTP_PROXY: model.url, https_proxy: model.url, http_proxy: model.url, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
      DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', ENABLE_TOOL_SEARCH: 'false',
      // The Agent Host always starts Claude Code with --allow-dangerously-skip-permissions, which Claude Code refuses
      // to root (`--dangerously-skip-permissions cannot be used with root/sudo privileges`) outside a declared
      // sandbox: this rig runs as root in a container.
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) } }));
    server = await startServer(agentHostServer(capi, hooksDir, {
      name: 'agenthost-claude',
      settings: { 'chat.agentHost.claudeAgent.enabled': true },
      env: { VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT: sdkRoot, HOME: home },
    }));
    mcp = teedZutMcp(server);
    // zut's MCP server for the project, as Claude Code reads it.
    fs.writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { zut: { type: 'stdio', command: mcp.command, args: mcp.args,
      env: { ZUT_HOOKS_DIR: hooksDir } } } }));
    fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.claude', 'settings.local.json'), JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ['mcp__zut__weather'] } }));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); await model?.close(); await capi?.close(); });

  it('zut-weather is offered once, runs for Paris, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + 2 * PICKER_TIMEOUT_MS + 60_000);
    // The Claude harness's models are Copilot's Anthropic models that speak /v1/messages: the scripted one, the only
    // one, which the new session starts on.
    const rounds = await harnessTurn(page, 'Claude', { modelName: CAPI_MODEL_NAME, prompt: 'What is the weather?', end: END, timeout: TURN_TIMEOUT_MS,
      shot: 'agenthost-claude', model, capi, log: claudeLog });
    assert.equal(rounds.length, 3, `three main-loop rounds (have ${rounds.length})`);
    assertOfferedOnce(rounds[0].body.tools.map((t) => t.name).filter((n) => n.startsWith('mcp__zut__')), ['mcp__zut__weather', 'mcp__zut__forecast', 'mcp__zut__skill']);
    assertWeatherCalls(rounds, (body, city) => resultOf(body, 'mcp__zut__weather', (i) => i?.city === city), mcp.toServer);
    // Every model request came through the Agent Host's Claude proxy, which names itself in the User-Agent it passes on
    // (agentHostMain.js: `vscode_claude_code/<Claude Code's version>`).
    assertThroughProxy(capi, ['/v1/messages'], 'vscode_claude_code/', 'Claude', 3);
    assertStayedLocal(model, capi);
  });
});
