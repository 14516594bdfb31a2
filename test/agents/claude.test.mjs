// @ts-check
// Claude Code 2.1.328, the real CLI in `-p` mode against the scripted model, with zut's hooks written by the
// project's own `zut-host hook install --agent claude --scope workspace` (.claude/settings.local.json, entries running
// `node dist/hook.js hook --agent claude EVENT`) and the test guard in $ZUT_HOME (lib/sandbox.mjs). Each scenario
// asserts on what really happened: files on disk, the next request the model received, the guard's log.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, evidence, logHookCommand, readHookLog, runClaude } from './lib/scenario.mjs';

const REWRITE_NOTE = `zut: the input of this Bash call was rewritten by the guard ${GUARD_NAME} before it ran; the result is that of the rewritten call.`;

/**
 * `zut-host hook install --agent claude --scope workspace` in the sandbox's workspace; returns the file it wrote.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb
 */
function installHooks(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'claude', '--scope', 'workspace', '--cwd', sb.ws]);
  const file = path.join(sb.ws, '.claude', 'settings.local.json');
  assert.match(out, /Merging into .*\.claude\/settings\.local\.json/);
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  const commands = settings.hooks.PreToolUse.flatMap((e) => e.hooks.map((h) => h.command));
  assert.ok(commands.some((c) => /dist\/hook\.js' hook --agent claude PreToolUse$/.test(c)), `no zut entry: ${commands.join('; ')}`);
  return file;
}

const bash = (command) => ({ tool: 'Bash', input: { command, description: 'scripted call' } });

describe('Claude Code: PreToolUse deny', function () {
  const box = sandboxEach('claude');

  it('Bash `rm -rf <dir>` is blocked by the guard: the directory stays, the model reads the reason in its tool_result', async function () {
    const sb = box();
    installHooks(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    // --allowedTools Bash: Claude Code's own rules let the call run; only the hook stands in its way.
    const r = await runClaude(sb, [bash(`rm -rf ${victim}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.ok(fs.existsSync(victim), `the directory was removed${evidence(sb, r)}`);
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error, true);
    // Observed: "PreToolUse:Bash hook error: blocked by hook-guard: no rm -rf here".
    assert.ok(back.text.includes(`blocked by ${GUARD_NAME}: no rm -rf here`), `tool_result: ${back.text}`);
    assert.deepEqual(r.result.permission_denials.map((d) => d.tool_name), ['Bash']);
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `rm -rf ${victim}`]]);
  });

  it('control: without zut\'s hooks the same call runs (the directory is removed)', async function () {
    const sb = box();
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runClaude(sb, [bash(`rm -rf ${victim}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.ok(!fs.existsSync(victim), 'the directory is still there without the hook');
    assert.equal(afterToolCall(r.main).result.is_error, false);
  });
});

describe('Claude Code: PreToolUse rewrite', function () {
  const box = sandboxEach('claude');

  it('Bash `touch ZUT_REWRITE` runs as `touch rewritten` (--allowedTools Bash); the model gets the guard\'s note', async function () {
    const sb = box();
    installHooks(sb);
    const r = await runClaude(sb, [bash(`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run${evidence(sb, r)}`);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), `the original command ran${evidence(sb, r)}`);
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error, false);
    // Observed: the additionalContext comes after the tool_result as a message of role "system" whose text is
    // "PreToolUse:Bash hook additional context: <note>".
    assert.ok(back.after.includes(REWRITE_NOTE), `no rewrite note after the tool_result: ${back.after.slice(0, 2000)}`);
    const note = back.messages.find((m) => JSON.stringify(m.content).includes(REWRITE_NOTE));
    assert.equal(note.role, 'system');
    assert.deepEqual(r.result.permission_denials, []);
  });

  it('default permission mode (no --allowedTools): Claude Code\'s own rule still judges the rewritten call and denies it in -p', async function () {
    const sb = box();
    installHooks(sb);
    const r = await runClaude(sb, [bash(`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`), { text: 'done' }]);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'rewritten')), 'the rewritten call ran without permission');
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), 'the original call ran');
    // The agent's own rules stay in charge: the denial names the REWRITTEN input (the hook gave no decision).
    assert.deepEqual(r.result.permission_denials.map((d) => d.tool_input.command), [`touch ${path.join(sb.ws, 'rewritten')}`]);
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error, true);
    assert.match(back.text, /needs approval/);
    assert.ok(back.after.includes(REWRITE_NOTE), 'the note reaches the model with the denial too');
  });
});

describe('Claude Code: zut\'s own MCP tool', function () {
  const box = sandboxEach('claude');

  it('mcp__zut__guard_status runs through `zut-host mcp`, its result reaches the model, the guard judges it once (MCP path)', async function () {
    const sb = box();
    // A logging PreToolUse entry beside zut's (the installer merges, keeping it): proves the hook path saw the call.
    const hookLog = path.join(sb.root, 'pre.log');
    sb.writeJson(path.join(sb.ws, '.claude', 'settings.local.json'), { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: logHookCommand(hookLog, 'PreToolUse') }] }] } });
    installHooks(sb);
    const mcpConfig = sb.mcpConfig('claude');
    // In -p an MCP tool needs allowing like any other ("Claude requested permissions to use … but you haven't
    // granted it yet" otherwise); ENABLE_TOOL_SEARCH=false (lib/agents.mjs) puts MCP tools in the request's tools.
    const r = await runClaude(sb, [{ tool: 'mcp__zut__guard_status', input: {} }, { text: 'done' }], { args: ['--mcp-config', mcpConfig, '--allowedTools', 'mcp__zut__guard_status'] });
    assert.ok(r.main[0].body.tools.some((t) => t.name === 'mcp__zut__guard_status'), 'the model was not offered mcp__zut__guard_status');
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error ?? false, false);
    assert.equal(back.text, 'up');
    assert.deepEqual(readHookLog(hookLog).map((c) => c.payload.tool_name), ['mcp__zut__guard_status'], 'the PreToolUse hooks ran for it');
    const saw = sb.guardSaw();
    const judged = saw.filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => l.tool_name), ['guard_status'], 'judged exactly once');
    // …by the guard process of the MCP server's host (its session is the MCP server's `mcp-…`), not a hook's.
    const mcpGuard = saw.find((l) => l.kind === 'event' && l.event === 'session_start' && String(l.session?.id).startsWith('mcp-'));
    assert.ok(mcpGuard, 'the MCP server\'s host never started a session');
    assert.equal(judged[0].pid, mcpGuard.pid);
    assert.ok(saw.some((l) => l.kind === 'event' && l.event === 'tool_result' && l.tool_name === 'guard_status' && l.pid === mcpGuard.pid));
  });
});
