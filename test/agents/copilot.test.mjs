// @ts-check
// GitHub Copilot CLI 1.0.102, the real CLI in `-p` mode against the scripted model (COPILOT_PROVIDER_TYPE=anthropic),
// with zut's hooks written by the project's own `zut-host hook install --agent copilot-cli --scope workspace`
// (.github/hooks/zut.json, camelCase events, `bash` commands running `node dist/hook.js hook --agent copilot-cli
// EVENT`; loaded in prompt mode only with --trust-folder) and the test guard in $ZUT_HOME (lib/sandbox.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, evidence, logHookCommand, readHookLog, runCopilot } from './lib/scenario.mjs';

/**
 * `zut-host hook install --agent copilot-cli --scope workspace` in the sandbox's workspace.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb
 */
function installHooks(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'copilot-cli', '--scope', 'workspace', '--cwd', sb.ws]);
  assert.match(out, /Merging into .*\.github\/hooks\/zut\.json/);
  const file = JSON.parse(fs.readFileSync(path.join(sb.ws, '.github', 'hooks', 'zut.json'), 'utf8'));
  assert.match(file.hooks.preToolUse[0].bash, /dist\/hook\.js' hook --agent copilot-cli preToolUse$/);
}

const ALLOW = ['--allow-all-tools', '--trust-folder'];
const bash = (command) => ({ tool: 'bash', input: { command, description: 'scripted call' } });
/** Copilot CLI's JSON event of one kind for the scripted tool call. */
const event = (events, type) => events.find((e) => e.type === type);

describe('Copilot CLI: preToolUse', function () {
  const box = sandboxEach('copilot');

  it('bash `rm -rf <dir>` is denied by the guard: the directory stays, the model reads the reason', async function () {
    const sb = box();
    installHooks(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runCopilot(sb, [bash(`rm -rf ${victim}`), { text: 'done' }], { args: ALLOW });
    assert.ok(fs.existsSync(victim), `the directory was removed${evidence(sb, r)}`);
    const back = afterToolCall(r.main);
    assert.equal(back.text, `Denied by preToolUse hook: blocked by ${GUARD_NAME}: no rm -rf here`);
    assert.deepEqual(event(r.events, 'tool.execution_complete')?.data.error, { message: back.text, code: 'denied' });
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `rm -rf ${victim}`]]);
  });

  it('bash `touch ZUT_REWRITE` runs as `touch rewritten` (modifiedArgs)', async function () {
    const sb = box();
    installHooks(sb);
    const asked = `touch ${path.join(sb.ws, 'ZUT_REWRITE')}`;
    const r = await runCopilot(sb, [bash(asked), { text: 'done' }], { args: ALLOW });
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run${evidence(sb, r)}`);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), `the original command ran${evidence(sb, r)}`);
    assert.equal(event(r.events, 'tool.execution_complete')?.data.success, true);
    // Observed: Copilot CLI's own events and the model's history keep the ORIGINAL arguments; camelCase preToolUse
    // has no context channel, so the model is not told of the rewrite.
    assert.equal(event(r.events, 'tool.execution_start')?.data.arguments.command, asked);
    const back = afterToolCall(r.main);
    assert.match(back.text, /completed with exit code 0/);
    assert.ok(!back.after.includes('rewritten by the guard'));
    const tool = sb.guardSaw().filter((l) => l.event === 'tool_call' && l.kind === 'intercept');
    assert.deepEqual(tool.map((l) => l.tool_args.command), [asked]);
  });

  it('zut\'s own MCP tool zut-guard_status runs through `zut-host mcp`, judged once (MCP path, the hook skips it)', async function () {
    const sb = box();
    installHooks(sb);
    // A logging preToolUse entry in a second hooks file: proves the hook path saw the call.
    const hookLog = path.join(sb.root, 'pre.log');
    sb.writeJson(path.join(sb.ws, '.github', 'hooks', 'log.json'), { version: 1, hooks: { preToolUse: [{ type: 'command', bash: logHookCommand(hookLog, 'preToolUse'), timeoutSec: 10 }] } });
    const mcpConfig = sb.mcpConfig('copilot');
    const r = await runCopilot(sb, [{ tool: 'zut-guard_status', input: {} }, { text: 'done' }], { args: [...ALLOW, '--additional-mcp-config', `@${mcpConfig}`, '--disable-builtin-mcps'] });
    // Copilot CLI names an MCP tool `<server>-<tool>` (src/hooks/tools.ts counts on it).
    assert.ok(r.main[0].body.tools.some((t) => t.name === 'zut-guard_status'), 'the model was not offered zut-guard_status');
    assert.equal(afterToolCall(r.main).text, 'up');
    const { toolName, mcpServerName, mcpToolName } = event(r.events, 'tool.execution_start')?.data ?? {};
    assert.deepEqual({ toolName, mcpServerName, mcpToolName }, { toolName: 'zut-guard_status', mcpServerName: 'zut', mcpToolName: 'guard_status' });
    assert.deepEqual(readHookLog(hookLog).map((c) => c.payload.toolName), ['zut-guard_status'], 'the preToolUse hooks ran for it');
    const saw = sb.guardSaw();
    const judged = saw.filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => l.tool_name), ['guard_status'], 'judged exactly once');
    const mcpGuard = saw.find((l) => l.kind === 'event' && l.event === 'session_start' && String(l.session?.id).startsWith('mcp-'));
    assert.equal(judged[0].pid, mcpGuard?.pid, 'judged by the MCP server\'s host, not a hook\'s');
  });
});
