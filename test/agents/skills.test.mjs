// @ts-check
// A zut extension's skill as the real agents see it: Claude Code and Copilot CLI with `zut-host mcp` as the MCP
// server `zut` (and, for Claude Code, zut's hooks written by `zut-host hook install --agent claude --scope workspace`,
// SessionStart among them) over the example `briefing` extension (its skill weather-briefing) beside `weather`, as
// global zut extensions. Each agent must offer its model the skill up front (the `skill` tool's description; Claude's
// SessionStart context with the SKILL.md's path) but not the SKILL.md itself, which must reach the model only when the
// model calls the tool (the tool_result of its next request).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { requestText } from './lib/model.mjs';
import { sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, runClaude, runCopilot } from './lib/scenario.mjs';

/** The skill's line in the `skill` tool's description (src/host/chat/skills.ts). */
const SKILL_LINE = "- weather-briefing (from briefing): Write a short travel weather briefing for one or more cities with the weather extension's tools.";
/**
 * Lines of the SKILL.md's body (not its front matter): none may reach the model before it calls the tool, and each must
 * be in the tool_result after (so the "not up front" checks look for text the agents do carry).
 */
const BODY = ['# Weather briefing', 'never guess the weather'];
/** What the tool_result starts with: the skill, its extension and its folder, before the SKILL.md. */
const HEAD = 'Skill "weather-briefing" of the zut extension briefing. Paths in it are relative to ';
const CALL = { name: 'weather-briefing' };

/**
 * The example extensions in the sandbox's $ZUT_HOME; returns the SKILL.md's path there.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb
 */
function addBriefing(sb) {
  sb.addExample('weather');
  const dir = sb.addExample('briefing');
  return path.join(dir, 'skills', 'weather-briefing', 'SKILL.md');
}

/** The tool `name` the request offers the model. */
const offered = (body, name) => (Array.isArray(body?.tools) ? body.tools.find((t) => t.name === name) : undefined);
const toolNames = (body) => (Array.isArray(body?.tools) ? body.tools.map((t) => t.name).join(', ') : '(none)');

describe('Skills: Claude Code', function () {
  const box = sandboxEach('skills-claude');

  it('offers mcp__zut__skill and the SessionStart list up front, and the SKILL.md only when the model calls the tool', async function () {
    const sb = box();
    const skillFile = addBriefing(sb);
    // zut's hooks as "Zut: Guard Agent Tools…" writes them for the workspace: SessionStart lists the skills.
    sb.cli(['hook', 'install', '--agent', 'claude', '--scope', 'workspace', '--cwd', sb.ws]);
    const settings = JSON.parse(fs.readFileSync(path.join(sb.ws, '.claude', 'settings.local.json'), 'utf8'));
    const sessionStart = (settings.hooks.SessionStart ?? []).flatMap((e) => e.hooks.map((h) => h.command));
    assert.ok(sessionStart.some((c) => /dist\/hook\.js' hook --agent claude SessionStart$/.test(c)), `no zut SessionStart entry: ${sessionStart.join('; ')}`);

    const r = await runClaude(sb, [{ tool: 'mcp__zut__skill', input: CALL }, { text: 'Here is your briefing.' }], {
      args: ['--mcp-config', sb.mcpConfig('claude'), '--strict-mcp-config', '--allowedTools', 'mcp__zut__skill'],
    });
    const first = r.main[0].body;
    const tool = offered(first, 'mcp__zut__skill');
    assert.ok(tool, `the first request offers no mcp__zut__skill: ${toolNames(first)}\nstderr: ${r.run.stderr.slice(-1000)}`);
    assert.ok(tool.description.includes(SKILL_LINE), `the skill is not in the tool's description:\n${tool.description}`);

    // Observed: the hook's additionalContext is a system reminder in the first user message.
    const context = requestText(first);
    const quoted = JSON.stringify(skillFile).slice(1, -1);
    assert.ok(context.includes('weather-briefing (from briefing)') && context.includes(quoted), `the SessionStart context does not list the skill with ${skillFile}:\n${context.slice(0, 3000)}`);
    for (const line of BODY) assert.ok(!context.includes(line), `the SKILL.md's body was sent up front ("${line}")`);

    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error ?? false, false, `the skill call failed: ${back.text}`);
    assert.ok(back.text.startsWith(HEAD), `the tool_result does not name the skill and its folder first:\n${back.text.slice(0, 800)}`);
    for (const line of BODY) assert.ok(back.text.includes(line), `the tool_result lacks the SKILL.md ("${line}"):\n${back.text.slice(0, 800)}`);
    assert.equal(r.result?.result, 'Here is your briefing.');
  });
});

describe('Skills: Copilot CLI', function () {
  const box = sandboxEach('skills-copilot');

  it('offers zut-skill with the skill in its description up front, and the SKILL.md only when the model calls the tool', async function () {
    const sb = box();
    addBriefing(sb);
    const r = await runCopilot(sb, [{ tool: 'zut-skill', input: CALL }, { text: 'Here is your briefing.' }], {
      args: ['--allow-all-tools', '--trust-folder', '--additional-mcp-config', `@${sb.mcpConfig('copilot')}`, '--disable-builtin-mcps'],
    });
    const first = r.main[0].body;
    // Copilot CLI names an MCP tool `<server>-<tool>`.
    const tool = offered(first, 'zut-skill');
    assert.ok(tool, `the first request offers no zut-skill: ${toolNames(first)}\nstderr: ${r.run.stderr.slice(-1000)}`);
    assert.ok(tool.description.includes(SKILL_LINE), `the skill is not in the tool's description:\n${tool.description}`);
    const context = requestText(first);
    for (const line of BODY) assert.ok(!context.includes(line), `the SKILL.md's body was sent up front ("${line}")`);

    const back = afterToolCall(r.main);
    assert.ok(back.text.startsWith(HEAD), `the tool_result does not name the skill and its folder first:\n${back.text.slice(0, 800)}`);
    for (const line of BODY) assert.ok(back.text.includes(line), `the tool_result lacks the SKILL.md ("${line}"):\n${back.text.slice(0, 800)}`);
    const done = r.events.find((e) => e.type === 'tool.execution_complete');
    assert.equal(done?.data.success, true, `Copilot CLI's tool event: ${JSON.stringify(done)}`);
  });
});
