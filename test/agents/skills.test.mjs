// @ts-check
// A zut extension's skill as the real agents see it: Claude Code and Copilot CLI with `zut-host mcp` as the MCP
// server `zut` (and, for Claude Code, zut's hooks written by `zut-host hook install --agent claude --scope workspace`,
// SessionStart among them) over the example `briefing` extension (its skill weather-briefing) beside `weather`, as
// global zut extensions. Each agent must offer its model the skill up front (the `skill` tool's description; Claude's
// SessionStart context with the SKILL.md's path) but not the SKILL.md itself, which must reach the model only when the
// model calls the tool (the tool_result of its next request). Cline CLI's and Qwen Code's skills scenarios are in
// cline.test.mjs and qwen.test.mjs (they need those files' runs); the skill's expected text is in lib/skills.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { requestText } from './lib/model.mjs';
import { sandboxEach } from './lib/sandbox.mjs';
import { BODY, CALL, HEAD, SKILL_LINE, addBriefing } from './lib/skills.mjs';
import { afterToolCall, runClaude, runCopilot } from './lib/scenario.mjs';

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
