// @ts-check
// What the Agent Host harness tests share (agentHost.test.mjs: Copilot; agentHostClaude.agents.mjs and
// agentHostCodex.agents.mjs: Claude and Codex): the code-server's settings and CAPI routing, zut's MCP server between
// two `tee`s, the chat input's harness and model pickers, a turn waited for (and what to show when it times out), and
// reading and checking what the model and zut's server got.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chatInput, retry, screenshot, sendChat, tempDir } from './harness.mjs';

/** The harness picker and a harness's model list reach the chat input once the Agent Host has them (observed: the
 * model list ~20 s after restore). */
export const PICKER_TIMEOUT_MS = 60_000;
/** One attempt at a dropdown (it can open before its list has settled and be re-rendered). */
export const DROPDOWN_TRY_MS = 5_000;

/** The example weather extension's answer for Paris (examples/workspace/.zut/extensions/weather/weather.mjs). */
export const PARIS = 'Paris: 19°C, light rain, wind 9 km/h, humidity 74%';
/** The example guard's reason for anything with `rm -rf`, as zut words a block. */
export const GUARD_DENY = 'blocked by guard: refused: matches danger pattern "rm -rf"';

/**
 * startServer's options for an Agent Host harness test: zut's tools through its agent plugin, new chats on the
 * Copilot harness, `chat.agentHost.unsafeTestToken` as the GitHub token, MCP tool calls without VS Code's
 * confirmation (the harness's "allow-all" mode), Copilot's API at the CAPI stand-in (the Agent Host's
 * VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE, the Copilot SDK's COPILOT_API_URL and COPILOT_DEBUG_GITHUB_API_URL) and zut's
 * hooks directory; `settings` and `env` add the harness's own.
 * @param {{ url: string }} capi @param {string} hooksDir
 * @param {{ name: string, settings?: object, env?: object }} o
 */
export function agentHostServer(capi, hooksDir, { name, settings = {}, env = {} }) {
  return {
    name,
    settings: { 'zut.agentTools.via': 'plugin', 'chat.defaultToCopilotHarness': true, 'chat.agentHost.unsafeTestToken': 'zut-test-token',
      'chat.tools.global.autoApprove': true, ...settings },
    env: { VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE: capi.url, COPILOT_API_URL: capi.url, COPILOT_DEBUG_GITHUB_API_URL: capi.url,
      ZUT_HOOKS_DIR: hooksDir, ...env },
  };
}

/**
 * zut's MCP server as a harness is to start it: `command` with `args` runs the installed extension's agent-plugin
 * launcher (`zut-mcp --window`) between two `tee`s, which record each direction's newline-delimited JSON-RPC in
 * `toServer` and `fromServer`.
 * @param {{ dir: string }} server
 * @returns {{ command: string, args: string[], toServer: string, fromServer: string }}
 */
export function teedZutMcp(server) {
  const extensionsDir = path.join(server.dir, 'extensions');   // the rig's layout (lib/codeServer.mjs makeDirs)
  const ext = fs.readdirSync(extensionsDir).find((d) => d.startsWith('zut.zut-vscode-'));
  assert.ok(ext, `zut installed in ${extensionsDir}`);
  const dir = tempDir('mcp-log');
  const toServer = path.join(dir, 'to-server.jsonl');
  const fromServer = path.join(dir, 'from-server.jsonl');
  const launcher = path.join(extensionsDir, ext, 'agent-plugin', 'bin', 'zut-mcp');
  return { command: 'sh', args: ['-c', 'tee -a "$0" | sh "$1" --window | tee -a "$2"', toServer, launcher, fromServer], toServer, fromServer };
}

/** The JSON-RPC messages of one direction's recording, in order (a line that is not JSON fails the test). */
export const mcpMessages = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** The params of each tools/call request recorded going to zut's server (`toServer`), in order. */
export const toolCalls = (toServer) => mcpMessages(toServer).filter((m) => m.method === 'tools/call').map((m) => m.params);

/** The scripted model's main-loop requests so far. */
export const mainRounds = (model) => model.requests.filter((r) => r.main);

/**
 * The tool_result the model got for its `name` call whose input matches `input` (found in `body`'s history by the
 * tool_use id), as text (its text blocks joined); undefined when there is none. Anthropic's Messages API.
 * @param {any} body @param {string} name @param {(input: any) => boolean} [input]
 */
export function resultOf(body, name, input = () => true) {
  const blocks = (body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const use = blocks.find((b) => b.type === 'tool_use' && b.name === name && input(b.input));
  const result = use && blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === use.id);
  if (!result) return undefined;
  if (typeof result.content === 'string') return result.content;
  return (Array.isArray(result.content) ? result.content : []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/**
 * The output the model got (in `body`'s input) for its call of `name` whose arguments match `args`, as text (an
 * output of content items: their texts joined; observed for an MCP tool: `Wall time: … seconds\nOutput:`, then the
 * tool's text). The Responses API.
 * @param {any} body @param {string} name @param {(args: any) => boolean} args
 */
export function outputOf(body, name, args) {
  const items = Array.isArray(body?.input) ? body.input : [];
  const call = items.find((i) => i?.type === 'function_call' && i.name === name && args(JSON.parse(i.arguments ?? '{}')));
  const out = call && items.find((i) => i?.type === 'function_call_output' && i.call_id === call.call_id);
  if (!out) return undefined;
  if (typeof out.output === 'string') return out.output;
  return (Array.isArray(out.output) ? out.output : []).filter((c) => c?.type === 'input_text').map((c) => c.text).join('\n');
}

/**
 * The last lines of the server's logs that match `pattern` (a harness's lines of its Agent Host log), each cut to
 * `width` characters, for a failure's message.
 * @param {{ logsDir?: string } | undefined} server @param {RegExp} pattern @param {number} [width]
 */
export function agentHostLog(server, pattern, width = Infinity) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(...fs.readFileSync(p, 'utf8').split('\n').filter((l) => pattern.test(l)).map((l) => `${e.name}: ${l.slice(0, width)}`));
    }
  };
  if (server?.logsDir && fs.existsSync(server.logsDir)) walk(server.logsDir);
  return out.slice(-40).join('\n');
}

/** Opens the Chat view (Ctrl+Alt+I) and waits for its input; returns the chat input part (its pickers). */
export async function openChat(page) {
  await page.keyboard.press('Control+Alt+KeyI');
  await chatInput(page).waitFor();
  return page.locator('.interactive-input-part').first();
}

/**
 * Switches a new chat from the Copilot harness to `harness` in the chat input's harness picker (it shows the chat's
 * harness; its list has a row for each registered harness), then waits for the chat input to show `model` (the model
 * the harness's session starts on). Screenshots `<shot>-harness-picker`, `<shot>-picked`, and `<shot>-no-model` when
 * the model does not come; a failure's message adds `log()`.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} inputPart
 * @param {string} harness @param {string} model @param {{ shot: string, log: () => string }} o
 */
export async function pickHarness(page, inputPart, harness, model, { shot, log }) {
  const dropdown = page.locator('.action-widget-dropdown, .action-widget').first();
  await retry(async () => {
    if (await dropdown.isVisible()) await page.keyboard.press('Escape');
    await inputPart.getByText('Copilot', { exact: true }).first().click({ timeout: DROPDOWN_TRY_MS });
    await screenshot(page, `${shot}-harness-picker`);
    await page.locator('.action-widget .monaco-list-row', { hasText: new RegExp(`^\\s*${harness}\\b`) }).first().click({ timeout: DROPDOWN_TRY_MS });
    await inputPart.getByText(harness, { exact: true }).first().waitFor({ timeout: DROPDOWN_TRY_MS });
  }, { timeout: PICKER_TIMEOUT_MS }).catch((e) => { throw new Error(`${e.message}\n${log()}`); });
  await screenshot(page, `${shot}-picked`);
  await inputPart.getByText(model).first().waitFor({ timeout: PICKER_TIMEOUT_MS }).catch(async (e) => {
    await screenshot(page, `${shot}-no-model`);
    throw new Error(`${e.message}\n${log()}`);
  });
}

/**
 * Sends `prompt` and waits up to `timeout` ms for the turn's response, the last one that holds `end` (the model's
 * last word); screenshots it as `shot` and returns its text, white space folded. On timeout: a screenshot
 * `<shot>-timeout` and an error naming the model's requests, what the CAPI stand-in saw, and `log()`.
 * @param {import('playwright-core').Page} page @param {string} prompt @param {string} end
 * @param {{ timeout: number, shot: string, model: { requests: any[] }, capi: { seen: any[] }, log?: () => string }} o
 */
export async function chatTurn(page, prompt, end, { timeout, shot, model, capi, log = () => '' }) {
  await sendChat(page, prompt);
  const response = page.locator('.interactive-item-container.interactive-response', { hasText: end }).last();
  await response.waitFor({ timeout }).catch(async (e) => {
    await screenshot(page, `${shot}-timeout`);
    throw new Error(`${e.message}\nmodel requests: ${model.requests.map((r) => `${r.path}${r.main ? ' main' : ''}`).join(', ')}\ncapi: ${capi.seen.map((s) => `${s.method} ${s.path}`).join(', ')}\n${log()}`);
  });
  await screenshot(page, shot);
  return (await response.innerText()).replace(/[\s\u00a0]+/g, ' ');
}

/**
 * The Claude and Codex tests' turn: opens the Chat view, switches the new chat to `harness` and waits for its `modelName`
 * (pickHarness, screenshots `<shot>-…`), sends `prompt` and waits up to `timeout` ms for the response holding `end`
 * (chatTurn, screenshot `<shot>-turn`); returns the scripted model's main-loop requests.
 * @param {import('playwright-core').Page} page @param {string} harness
 * @param {{ modelName: string, prompt: string, end: string, timeout: number, shot: string, model: { requests: any[] },
 *   capi: { seen: any[] }, log: () => string }} o
 */
export async function harnessTurn(page, harness, { modelName, prompt, end, timeout, shot, model, capi, log }) {
  await pickHarness(page, await openChat(page), harness, modelName, { shot, log });
  await chatTurn(page, prompt, end, { timeout, shot: `${shot}-turn`, model, capi, log });
  return mainRounds(model);
}

/** zut's tools as the model was offered them (`zut`: their names as the harness gives them): none twice, each of
 * `expected` there. */
export function assertOfferedOnce(zut, expected) {
  assert.deepEqual(zut.filter((n, i) => zut.indexOf(n) !== i), [], `no zut tool offered twice: ${zut.join(', ')}`);
  for (const n of expected) assert.ok(zut.includes(n), `${n} offered (have: ${zut.join(', ')})`);
}

/**
 * The Claude and Codex turn's calls of zut's `weather`: the guard's deny for `rm -rf /` reached the model by its
 * second main-loop request (`rounds[1]`), the Paris answer by its third, and zut's server got exactly these two
 * tools/call requests.
 * @param {{ body: any }[]} rounds @param {(body: any, city: string) => string | undefined} resultFor the text the
 * model got in `body` for its `weather` call for `city` @param {string} toServer
 */
export function assertWeatherCalls(rounds, resultFor, toServer) {
  const denied = resultFor(rounds[1].body, 'rm -rf /');
  assert.ok(denied?.includes(GUARD_DENY), `the guard's deny reached the model: ${denied}`);
  const paris = resultFor(rounds[2].body, 'Paris');
  assert.ok(paris?.includes(PARIS), `the weather result reached the model: ${paris}`);
  assert.deepEqual(toolCalls(toServer).map((p) => p?.arguments?.city), ['rm -rf /', 'Paris'], "the harness called zut's server for each");
}

/**
 * Every model request of the turn (at least `min`; those of the CAPI stand-in's `paths`) came through the Agent Host's
 * `proxy`, which names itself in the User-Agent it passes on (starting `agent`).
 * @param {{ seen: { path: string, agent: string }[] }} capi @param {string[]} paths @param {string} agent
 * @param {string} proxy @param {number} min
 */
export function assertThroughProxy(capi, paths, agent, proxy, min) {
  const seen = capi.seen.filter((s) => paths.includes(s.path));
  assert.ok(seen.length >= min && seen.every((s) => s.agent.startsWith(agent)), `through the ${proxy} proxy: ${seen.map((s) => s.agent).join(', ')}`);
}

/** Neither the scripted model (as an HTTP(S) proxy) nor the CAPI stand-in (a CONNECT) saw a request for elsewhere. */
export function assertStayedLocal(model, capi) {
  assert.deepEqual([...model.escapes, ...capi.seen.filter((s) => s.method === 'CONNECT')], [], 'nothing tried to leave the machine');
}
