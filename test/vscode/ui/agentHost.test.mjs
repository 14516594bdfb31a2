// @ts-check
// UI: agent turns in VS Code's Agent Host **Copilot harness** (the Copilot SDK runtime code-server 1.139 ships,
// @github/copilot-sdk 1.0.15), offline. The harness needs a GitHub token and Copilot's API: the workbench's
// `chat.agentHost.unsafeTestToken` (honoured only with the smoke-test driver, which the UI rig enables) stands in for
// the token, and a CAPI stand-in on 127.0.0.1 (test/vscode/lib/capi.mjs, reached through
// VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE, COPILOT_API_URL and COPILOT_DEBUG_GITHUB_API_URL, as VS Code's own agent-host
// e2e tests route them) serves the user, /models and /v1/messages from the scripted Anthropic model
// (test/agents/lib/model.mjs). zut's tools reach the session through the harness's own `$COPILOT_HOME/mcp-config.json`
// running the agent plugin's launcher script: in code-server the Agent Host cannot sync zut's agent plugin itself (it
// reads the plugin through the browser, which has no file://). Two `tee`s around the launcher record every JSON-RPC
// line between the harness and zut's MCP server. The workspace gets zut's Copilot CLI hooks from the project's own
// `node dist/cli.js hook install --agent copilot-cli --scope workspace` (.github/hooks/zut.json, running this
// checkout's dist/hook.js, which reaches the window's zut through $ZUT_HOOKS_DIR) and a logging preToolUse hook beside
// them (.github/hooks/log.json): the Agent Host creates its sessions with `enableFileHooks: true`, the SDK's switch for
// `.github/hooks/` (agentHostMain.js). Three turns of one session, checked:
// 1. the model is offered zut's tools, each once; it calls zut's `weather` with `rm -rf /`; the example guard's deny
//    comes back to the model as the tool result, from zut's MCP server (zut's Copilot hook leaves zut's own tools to
//    it); the chat shows the call failed and the model's last word;
// 2. `zut-weather` for Paris runs and its real result text reaches the model; `zut-skill` (zut's skill tool, whose
//    description lists the example `weather-briefing` skill) loads it and its SKILL.md reaches the model;
// 3. the harness's own shell tool (`bash`) with `rm -rf <dir>` is denied by the example guard through zut's
//    preToolUse hook: the directory stays and the model gets `Denied by preToolUse hook: blocked by guard: …`.
// MCP prompts (zut's skills as prompts/list entries): this harness does not surface them. Checked here: zut's
// `initialize` answer advertises `prompts`, yet over the two turns the harness sends zut's server no prompts/ request
// (observed: server/discover, initialize, notifications/initialized, tools/list and tools/call, nothing else); no
// system prompt names the skill; the chat's `/` menu (the Agent Host's slash commands are the runtime's
// `commands.list({ includeBuiltins, includeSkills, includeClientCommands })`, agentHostMain.js) filters the runtime's
// commands (`/ren` keeps /rename) and has no row for `/weather`. From the SDK's source (code-server's
// lib/vscode/node_modules/@github/copilot-sdk/dist/generated/rpc.d.ts and session-events.d.ts): its session.mcp.* RPC
// has list, listTools and resources.list/read/listTemplates but no prompt method; a skill's SkillSource is project,
// inherited, personal-copilot, personal-agents, plugin, custom, builtin or sdk (no MCP); a slash command's
// SlashCommandKind is builtin, skill or client (no MCP prompt). So zut's skills reach this harness's model through
// zut's `skill` tool only. What the Agent Host harness tests share (the server's settings and CAPI routing, the `tee`d
// MCP server, a turn, the checks of what the model got) is in agentHostTurn.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startModel } from '../../agents/lib/model.mjs';
import { logHookCommand, readHookLog } from '../../agents/lib/scenario.mjs';
import { CAPI_MODEL_NAME, startCapi } from '../lib/capi.mjs';
import { REPO } from '../lib/context.mjs';
import {
  DROPDOWN_TRY_MS, GUARD_DENY, PARIS, PICKER_TIMEOUT_MS, agentHostServer, assertOfferedOnce, assertStayedLocal, chatTurn, mainRounds,
  mcpMessages, openChat, resultOf, teedZutMcp, toolCalls,
} from './agentHostTurn.mjs';
import { chatInput, openWorkbench, retry, screenshot, startServer, tempDir, workspaceCopy } from './harness.mjs';

/** One turn: Agent Host start, session creation, the runtime's MCP start and two model rounds (observed: ~30 s). */
const TURN_TIMEOUT_MS = 120_000;
/** `zut-host hook install` (a Node start and one file written). */
const CLI_TIMEOUT_MS = 30_000;
/** The chat's `/` menu opens on the typed `/` (the runtime's command list is fetched once per session). */
const SUGGEST_TIMEOUT_MS = 15_000;
/** The `/` menu's filter follows the typed text within a frame or two; this long is ample before it is read. */
const SUGGEST_SETTLE_MS = 1_000;

/** The first line of the example `briefing` extension's `weather-briefing` SKILL.md body. */
const SKILL_HEADING = '# Weather briefing';

/** The final word of each turn, each its own so a turn's response is told from the one before. */
const END = ['first turn over', 'second turn over', 'third turn over'];

describe("agent host: Copilot-harness turns with zut's tools, skills and hooks", () => {
  // What before() starts and makes, for the tests and after(): `mcp`, zut's MCP server's recordings; `hookLog`, the
  // logging preToolUse hook's; `victim`, the directory the shell call is to remove.
  let server, page, model, capi, ws, mcp, hookLog, victim;
  // The main-loop steps, three turns; the harness names zut's MCP tools `zut-<tool>`.
  const script = [
    { tool: 'zut-weather', input: { city: 'rm -rf /' } }, { text: END[0] },
    { tool: 'zut-weather', input: { city: 'Paris' } }, { tool: 'zut-skill', input: { name: 'weather-briefing' } }, { text: END[1] },
    // Step 5's command is set in before() (the victim directory is in the workspace copy).
    { tool: 'bash', input: { command: '', description: 'scripted call' } }, { text: END[2] },
  ];

  /** Sends `prompt` and waits for the turn's response, which ends with END[n]; returns its text. */
  const turn = (prompt, n) => chatTurn(page, prompt, END[n], { timeout: TURN_TIMEOUT_MS, shot: `agenthost-turn-${n + 1}`, model, capi });

  before(async () => {
    model = await startModel(script);
    capi = await startCapi(model);
    const copilotHome = tempDir('copilot-home');
    const hooksDir = path.join(tempDir('zut-hooks'), 'hooks');
    ws = workspaceCopy();
    victim = path.join(ws, 'victim');
    fs.mkdirSync(victim);
    script[5] = { tool: 'bash', input: { command: `rm -rf ${victim}`, description: 'scripted call' } };
    // zut's Copilot CLI hooks as a person installs them, into the workspace; a logging preToolUse hook beside them.
    const install = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'hook', 'install', '--agent', 'copilot-cli', '--scope', 'workspace', '--cwd', ws],
      { cwd: ws, env: { PATH: process.env.PATH, HOME: tempDir('cli-home'), ZUT_HOOKS_DIR: hooksDir }, encoding: 'utf8', timeout: CLI_TIMEOUT_MS });
    assert.equal(install.status, 0, `hook install: ${install.stdout}\n${install.stderr}`);
    hookLog = path.join(tempDir('hook-log'), 'pre.log');
    fs.writeFileSync(path.join(ws, '.github', 'hooks', 'log.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: logHookCommand(hookLog, 'preToolUse'), timeoutSec: 10 }] } }));
    server = await startServer(agentHostServer(capi, hooksDir, { name: 'agenthost', env: { COPILOT_HOME: copilotHome } }));
    mcp = teedZutMcp(server);
    fs.writeFileSync(path.join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: { zut: { type: 'local', command: mcp.command, args: mcp.args, tools: ['*'] } } }));
    page = await openWorkbench(server, { folder: ws });
  });
  after(async () => { await server?.stop(); await model?.close(); await capi?.close(); });

  const main = () => mainRounds(model);

  it('zut-weather is offered once, runs, and the guard deny reaches the model', async function () {
    this.timeout(TURN_TIMEOUT_MS + PICKER_TIMEOUT_MS + 60_000);
    const inputPart = await openChat(page);
    // A new chat is a Copilot-harness session (chat.defaultToCopilotHarness); its model picker starts on "Auto", which
    // needs Copilot's auto-mode service: the scripted model is picked instead.
    const auto = inputPart.getByText('Auto', { exact: true }).first();
    await auto.waitFor({ timeout: PICKER_TIMEOUT_MS });
    assert.match(await inputPart.innerText(), /\bCopilot\b/, 'the session is the Copilot harness');
    // The picker lists "Auto" and an "Other Models" entry that shows the scripted model when clicked. The picker can
    // open before its list has settled (the Agent Host lists models again as the session starts and the widget
    // re-renders): each attempt opens it and picks the row, until the chat input shows the model.
    const dropdown = page.locator('.action-widget-dropdown').first();
    await retry(async () => {
      if (await dropdown.isVisible()) await page.keyboard.press('Escape');
      await auto.click();
      await dropdown.getByText('Other Models').first().click({ timeout: DROPDOWN_TRY_MS });
      const row = page.locator('.action-widget .monaco-list-row', { hasText: CAPI_MODEL_NAME }).last();
      await row.hover({ timeout: DROPDOWN_TRY_MS });   // the list's focus follows the mouse; End + Enter picks its last (only) row
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await inputPart.getByText(CAPI_MODEL_NAME).first().waitFor({ timeout: DROPDOWN_TRY_MS });
    }, { timeout: PICKER_TIMEOUT_MS });

    const text = await turn('What is the weather?', 0);
    assert.match(text, /"zut-weather" failed/, text);

    const rounds = main();
    assert.equal(rounds.length, 2, `two main-loop rounds (have ${rounds.length})`);
    const names = rounds[0].body.tools.map((t) => t.name);
    assertOfferedOnce(names.filter((n) => n.startsWith('zut-')), ['zut-weather', 'zut-forecast', 'zut-skill']);
    const last = rounds[1].body.messages.at(-1);
    const result = last.content.find((c) => c.type === 'tool_result');
    assert.ok(result, JSON.stringify(last));
    assert.match(JSON.stringify(result.content), /blocked by guard: refused: matches danger pattern \\"rm -rf\\"/);
    // zut's MCP server judged it: zut's preToolUse hook (which would word it "Denied by preToolUse hook") let it pass.
    assert.doesNotMatch(JSON.stringify(result.content), /Denied by preToolUse hook/);
    assertStayedLocal(model, capi);
  });

  it("zut-weather for Paris runs and its result reaches the model; zut-skill loads a zut extension's skill", async function () {
    this.timeout(TURN_TIMEOUT_MS + 30_000);
    await turn('And in Paris? Brief me.', 1);
    const rounds = main();
    assert.equal(rounds.length, 5, `five main-loop rounds so far (have ${rounds.length})`);
    const skillTool = rounds[2].body.tools.find((t) => t.name === 'zut-skill');
    assert.match(skillTool?.description ?? '', /weather-briefing/, "zut-skill's description lists the skill");
    const last = rounds[4].body;
    const paris = resultOf(last, 'zut-weather', (i) => i?.city === 'Paris');
    assert.ok(paris?.includes(PARIS), `the weather result reached the model: ${paris}`);
    const skill = resultOf(last, 'zut-skill', (i) => i?.name === 'weather-briefing');
    assert.ok(skill?.includes(SKILL_HEADING), `the skill's SKILL.md reached the model: ${skill?.slice(0, 300)}`);
    assert.deepEqual(toolCalls(mcp.toServer).map((p) => p?.name), ['weather', 'weather', 'skill'], 'the harness called zut\'s server for each');
  });

  it('MCP prompts: zut advertises them, the harness neither lists them nor offers them as skills or slash commands', async function () {
    this.timeout(SUGGEST_TIMEOUT_MS + 30_000);
    const init = mcpMessages(mcp.fromServer).find((m) => m.result?.serverInfo?.name === 'zut');
    assert.ok(init?.result.capabilities?.prompts, `zut's initialize answer advertises prompts: ${JSON.stringify(init)}`);
    const methods = [...new Set(mcpMessages(mcp.toServer).map((m) => m.method).filter(Boolean))];
    assert.ok(methods.includes('tools/call'), `the recording holds the session's calls: ${methods.join(', ')}`);
    assert.deepEqual(methods.filter((m) => m.startsWith('prompts/')), [], `the harness asked zut for prompts: ${methods.join(', ')}`);
    for (const r of main()) assert.ok(!JSON.stringify(r.body.system ?? '').includes('weather-briefing'), 'the system prompt names the skill');
    // The session's `/` menu: the runtime's commands, filtered by what follows the `/` — `/ren` keeps its built-in
    // /rename — and none for the skill: `/weather` leaves no row.
    const menu = page.locator('.suggest-widget.visible');
    const typeAfterSlash = async (word) => {
      await chatInput(page).focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('/');
      await menu.locator('.monaco-list-row', { hasText: '/rename' }).first().waitFor({ timeout: SUGGEST_TIMEOUT_MS });
      await page.keyboard.type(word);
      await page.waitForTimeout(SUGGEST_SETTLE_MS);
    };
    await typeAfterSlash('ren');
    assert.equal(await menu.locator('.monaco-list-row', { hasText: '/rename' }).count(), 1, 'the / menu filters to /rename');
    await typeAfterSlash('weather');
    await screenshot(page, 'agenthost-slash-weather');
    const rows = await menu.locator('.monaco-list-row').allInnerTexts();
    assert.deepEqual(rows, [], 'the / menu offers rows for /weather');
    await page.keyboard.press('Escape');
  });

  it("the harness's own shell tool: `rm -rf <dir>` is denied by the guard through zut's Copilot preToolUse hook", async function () {
    this.timeout(TURN_TIMEOUT_MS + 30_000);
    assert.ok(main()[0].body.tools.some((t) => t.name === 'bash'), 'the harness offers its bash tool');
    const text = await turn('Clean up.', 2);
    assert.ok(fs.existsSync(victim), 'the directory was removed');
    const back = resultOf(main().at(-1)?.body, 'bash', (i) => i?.command === `rm -rf ${victim}`);
    assert.equal(back, `Denied by preToolUse hook: ${GUARD_DENY}`);
    assert.ok(text.includes(GUARD_DENY), text);
    // The workspace's hook files ran for every tool call before it (the logging hook saw each zut call; observed: it
    // does not see the shell call, whose deny by zut's hook ends the preToolUse hooks).
    const logged = readHookLog(hookLog).map((c) => [c.payload?.toolName, c.payload?.cwd]).filter(([t]) => String(t).startsWith('zut-'));
    assert.deepEqual(logged, [['zut-weather', ws], ['zut-weather', ws], ['zut-skill', ws]]);
    assertStayedLocal(model, capi);
  });
});
