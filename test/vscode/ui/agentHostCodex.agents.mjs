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
// The rig, the picker, the turn and the checks it shares with the other Agent Host harness tests: agentHostTurn.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { startResponsesModel } from '../../agents/lib/responsesModel.mjs';
import { ensureCodexSdk } from '../lib/agentSdks.mjs';
import { CAPI_RESPONSES_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import {
  PICKER_TIMEOUT_MS, agentHostLog, agentHostServer, assertOfferedOnce, assertThroughProxy, assertWeatherCalls, harnessTurn,
  outputOf, teedZutMcp,
} from './agentHostTurn.mjs';
import { openWorkbench, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** The turn: the app-server's start, its MCP servers' start and three model rounds (observed: ~5 s, the test ~20 s). */
const TURN_TIMEOUT_MS = 150_000;
/** How much of a Codex log line a failure's message shows. */
const LOG_LINE_CHARS = 400;

/** The model's last word. */
const END = 'codex turn over';

describe("agent host: a Codex-harness turn with zut's tools", () => {
  // What before() starts, for the test and after(): `anthropic`, the CAPI stand-in's Messages model, has no script.
  let server, page, anthropic, model, capi, mcp;
  const script = [
    { tool: 'weather', namespace: 'mcp__zut', input: { city: 'rm -rf /' } },
    { tool: 'weather', namespace: 'mcp__zut', input: { city: 'Paris' } },
    { text: END },
  ];
  /** The Codex harness's lines of the Agent Host log. */
  const codexLog = () => agentHostLog(server, /Codex/, LOG_LINE_CHARS);

  before(async () => {
    const sdkRoot = ensureCodexSdk((l) => console.log(`      ${l}`));
    anthropic = await startModel([]);
    model = await startResponsesModel(script);
    capi = await startCapi(anthropic, model);
    const home = tempDir('codex-home');
    const hooksDir = path.join(tempDir('zut-hooks'), 'hooks');
    const ws = workspaceCopy();
    server = await startServer(agentHostServer(capi, hooksDir, {
      name: 'agenthost-codex',
      // An editor window lists the Agent Host's Codex harness only with chat.editor.codex.preferAgentHost (workbench.js:
      // `case "codex": return config.getValue(isSessionsWindow ? "chat.agentHost.codexAgent.enabled" : "chat.editor.codex.preferAgentHost") === true`).
      settings: { 'chat.agentHost.codexAgent.enabled': true, 'chat.editor.codex.preferAgentHost': true },
      env: { VSCODE_AGENT_HOST_CODEX_SDK_ROOT: sdkRoot, VSCODE_AGENT_HOST_CODEX_AGENT_ENABLED: '1', HOME: home },
    }));
    mcp = teedZutMcp(server);
    const q = (v) => JSON.stringify(v);
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codex', 'config.toml'), [
      '[analytics]', 'enabled = false', '', '[features]', 'plugins = false', 'tool_search = false', '',
      '[mcp_servers.zut]', `command = ${q(mcp.command)}`, `args = [${mcp.args.map(q).join(', ')}]`,
      `cwd = ${q(ws)}`, `env = { ZUT_HOOKS_DIR = ${q(hooksDir)} }`, '',
    ].join('\n'));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); await model?.close(); await anthropic?.close(); await capi?.close(); });

  it('zut-weather is offered once, runs for Paris, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + 2 * PICKER_TIMEOUT_MS + 60_000);
    const rounds = await harnessTurn(page, 'Codex', { modelName: CAPI_RESPONSES_MODEL_NAME, prompt: 'What is the weather?', end: END, timeout: TURN_TIMEOUT_MS,
      shot: 'agenthost-codex', model, capi, log: codexLog });
    assert.equal(rounds.length, 3, `three main-loop rounds (have ${rounds.length})`);
    const ns = rounds[0].body.tools.filter((t) => t.type === 'namespace' && t.name === 'mcp__zut');
    assert.equal(ns.length, 1, `one mcp__zut namespace: ${JSON.stringify(rounds[0].body.tools.map((t) => t.name))}`);
    assertOfferedOnce(ns[0].tools.map((t) => t.name), ['weather', 'forecast', 'skill']);
    assertWeatherCalls(rounds, (body, city) => outputOf(body, 'weather', (a) => a?.city === city), mcp.toServer);
    assertThroughProxy(capi, ['/responses', '/v1/responses'], 'vscode_codex', 'Codex', 3);
  });
});
