// @ts-check
// Claude Code 2.1.328's `mcp_tool` hooks answered by zut's MCP server (`zut-host hook install --agent claude
// --with-mcp`: .mcp.json + mcp_tool entries calling its `zut_hook` tool): a deny, a rewrite (`updatedInput`) with its
// note (`additionalContext`), a turn_start guard's context and its block of a prompt (UserPromptSubmit), each judged by
// the guard in the MCP server's process; the server gone; each tool call guarded exactly once with a project MCP server
// beside a global command hook host; and what PreToolUse through mcp_tool costs per tool call against a bare
// `node -e 0` command hook, measured in the real agent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, EXAMPLES, GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, evidence, runClaude } from './lib/scenario.mjs';

const bash = (command) => ({ tool: 'Bash', input: { command, description: 'scripted call' } });
/** The note the guard's rewrite comes with (dialects/types.ts rewriteNote), as claude.test.mjs has it. */
const REWRITE_NOTE = `zut: the input of this Bash call was rewritten by the guard ${GUARD_NAME} before it ran; the result is that of the rewritten call.`;
/** Tool calls per run in the timing scenario. */
const TIMED_CALLS = 8;

/** @param {import('./lib/sandbox.mjs').Sandbox} sb @param {string[]} flags */
const install = (sb, flags) => sb.cli(['hook', 'install', '--agent', 'claude', '--scope', 'workspace', '--cwd', sb.ws, ...flags]);

/**
 * What the guard intercepted of `event`, each asserted to come from the one guard process started by zut's MCP server
 * (its parent's command line `… dist/cli.js mcp --cwd <ws>`, which the guard logs at its start), not by a hook host
 * (SessionStart stays a command with a host of its own).
 * @param {import('./lib/sandbox.mjs').Sandbox} sb @param {string} event @param {string} more
 */
function judgedByMcpServer(sb, event, more) {
  const saw = sb.guardSaw();
  const starts = saw.filter((l) => l.kind === 'start');
  const server = starts.filter((l) => l.parent === `${process.execPath} ${CLI} mcp --cwd ${sb.ws}`);
  assert.equal(server.length, 1, `guards started by zut's MCP server: ${server.length}; by: ${starts.map((l) => `${l.pid} ${l.parent}`).join('; ')}${more}`);
  const judged = saw.filter((l) => l.kind === 'intercept' && l.event === event);
  assert.deepEqual(judged.map((l) => l.pid).filter((pid) => pid !== server[0].pid), [], `${event} intercepted outside zut's MCP server (pid ${server[0].pid})${more}`);
  return judged;
}

describe('Claude Code: mcp_tool hooks through zut\'s MCP server', function () {
  const box = sandboxEach('mcphook');

  it('Bash `rm -rf` is denied by the guard in zut\'s MCP server; the model is never offered zut_hook', async function () {
    const sb = box();
    assert.match(install(sb, ['--with-mcp']), /the hooks call it \(mcp_tool\)/);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runClaude(sb, [bash(`rm -rf ${victim}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.ok(fs.existsSync(victim), `the directory was removed${evidence(sb, r)}`);
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error, true);
    assert.ok(back.text.includes(`blocked by ${GUARD_NAME}: no rm -rf here`), `tool_result: ${back.text}`);
    const tools = r.main[0].body.tools.map((t) => t.name);
    assert.ok(tools.includes('mcp__zut__guard_status'), `zut's MCP server is not connected: ${tools.join(', ')}`);
    assert.ok(!tools.some((t) => t.includes('zut_hook')), 'the model was offered the hook tool');
    // The guard that judged it runs in the MCP server (one process for the session), not in a hook host.
    const judged = judgedByMcpServer(sb, 'tool_call', evidence(sb, r));
    assert.deepEqual(judged.map((l) => l.tool_name), ['bash']);
  });

  it('a guard\'s rewrite answered through zut_hook is applied: Bash `touch ZUT_REWRITE` runs as `touch rewritten`; its note reaches the model as PreToolUse additional context', async function () {
    const sb = box();
    install(sb, ['--with-mcp']);
    const original = path.join(sb.ws, 'ZUT_REWRITE');
    const r = await runClaude(sb, [bash(`touch ${original}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    const more = evidence(sb, r);
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run${more}`);
    assert.ok(!fs.existsSync(original), `the original command ran${more}`);
    const back = afterToolCall(r.main);
    assert.equal(back.result.is_error, false, `tool_result: ${back.text}`);
    // The guard's additionalContext, after the tool_result as a message of role "system" (as for a command hook).
    const note = back.messages.find((m) => JSON.stringify(m.content).includes(`PreToolUse:Bash hook additional context: ${REWRITE_NOTE}`));
    assert.ok(note, `no rewrite note after the tool_result: ${back.after.slice(0, 2000)}`);
    assert.equal(note.role, 'system');
    assert.deepEqual(r.result.permission_denials, []);
    const judged = judgedByMcpServer(sb, 'tool_call', more);
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `touch ${original}`]]);
  });

  it('UserPromptSubmit through zut_hook: a turn_start guard\'s context reaches the model with the prompt', async function () {
    const sb = box();
    install(sb, ['--with-mcp']);
    const r = await runClaude(sb, [{ text: 'done' }]);
    const more = evidence(sb, r);
    assert.ok(r.main[0], `the model was never asked${more}`);
    const first = JSON.stringify(r.main[0].body.messages);
    // The guard answers turn_start with { context: 'guard context' } (test/unit/fixtures/hooks/guard.mjs), labelled with
    // its name. Observed: in the first request's user message, a line "UserPromptSubmit hook additional context:
    // [hook-guard]" and "guard context" on the next.
    const context = JSON.stringify(`UserPromptSubmit hook additional context: [${GUARD_NAME}]\nguard context`).slice(1, -1);
    assert.ok(first.includes(context), `no guard context in the first request: ${first.slice(-3000)}${more}`);
    const judged = judgedByMcpServer(sb, 'turn_start', more);
    assert.equal(judged.length, 1, `turn_start intercepted ${judged.length} times${more}`);
  });

  it('UserPromptSubmit through zut_hook: a turn_start guard\'s block stops the prompt before the model is asked', async function () {
    const sb = box();
    install(sb, ['--with-mcp']);
    const r = await runClaude(sb, [{ text: 'should not be asked' }], { prompt: 'a forbidden prompt' });
    const more = evidence(sb, r);
    assert.deepEqual(r.main, [], `the model was asked${more}`);
    // The guard blocks turn_start while the prompt contains "forbidden". Observed (-p, exit 0): the result
    // "UserPromptSubmit operation blocked by hook:\nblocked by hook-guard: no forbidden prompts\n\nOriginal prompt: …".
    assert.equal(r.result.num_turns, 0);
    assert.ok(r.result.result.startsWith(`UserPromptSubmit operation blocked by hook:\nblocked by ${GUARD_NAME}: no forbidden prompts`), `result: ${r.result.result}${more}`);
    const judged = judgedByMcpServer(sb, 'turn_start', more);
    assert.equal(judged.length, 1, `turn_start intercepted ${judged.length} times${more}`);
  });

  it('with zut\'s MCP server gone, PreToolUse blocks each call, naming zut\'s server; --command-hooks restores the calls', async function () {
    const sb = box();
    install(sb, ['--with-mcp']);
    fs.rmSync(path.join(sb.ws, '.mcp.json'));
    const ran = path.join(sb.ws, 'ran');
    const r = await runClaude(sb, [bash(`touch ${ran}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.equal(fs.existsSync(ran), false);
    const back = afterToolCall(r.main).text;
    // Observed: `PreToolUse:Bash hook error: [zut/zut_hook]: failed; blocking because onFailure is "block" and the hook
    // got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server's
    // state) or ask whoever manages the hook; …\nMCP server 'zut' not connected`.
    assert.match(back, /\[zut\/zut_hook\]: failed; blocking because onFailure is "block"/);
    assert.match(back, /MCP server 'zut' not connected/);
    install(sb, ['--command-hooks']);
    await runClaude(sb, [bash(`touch ${ran}`), { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.equal(fs.existsSync(ran), true, 'the call did not run under command hooks');
  });

  it('a project MCP server (--allow-project) beside a global command hook host: `weather` is guarded once', async function () {
    const sb = box();
    fs.cpSync(path.join(EXAMPLES, 'weather'), path.join(sb.ws, '.zut', 'extensions', 'weather'), { recursive: true });
    install(sb, ['--command-hooks']); // the hook host: global extensions only (the guard)
    const mcp = path.join(sb.root, 'mcp.json');
    sb.writeJson(mcp, { mcpServers: { zut: { command: process.execPath, args: [CLI, 'mcp', '--cwd', sb.ws, '--allow-project'] } } });
    const r = await runClaude(sb, [{ tool: 'mcp__zut__weather', input: { city: 'Paris' } }, { text: 'done' }], { args: ['--allowedTools', 'mcp__zut__weather', '--mcp-config', mcp] });
    const back = afterToolCall(r.main);
    assert.notEqual(back.result.is_error, true, `tool_result: ${back.text}${evidence(sb, r)}`);
    const heard = sb.guardSaw().filter((l) => l.event === 'tool_call' && /weather/.test(l.tool_name ?? ''));
    // Once: the event and the interception in one process (the MCP server's), never again by the hook host.
    assert.deepEqual(heard.map((l) => `${l.kind} ${l.tool_name}`), ['event weather', 'intercept weather'], `guarded other than once${evidence(sb, r)}`);
    assert.equal(new Set(heard.map((l) => l.pid)).size, 1);
  });

  it(`PreToolUse through mcp_tool adds less per tool call than a bare \`node -e 0\` command hook (${TIMED_CALLS} calls each)`, async function () {
    const sb = box();
    install(sb, ['--with-mcp']);
    const settingsFile = path.join(sb.ws, '.claude', 'settings.local.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    const mcpTool = settings.hooks.PreToolUse;
    const script = [...Array.from({ length: TIMED_CALLS }, () => bash('true')), { text: 'done' }];
    /** The median gap between the model's consecutive main-loop requests: one tool call, its hooks included. */
    const perCall = async (/** @type {unknown} */ preToolUse) => {
      sb.writeJson(settingsFile, { ...settings, hooks: preToolUse ? { PreToolUse: preToolUse } : {} });
      const r = await runClaude(sb, script, { args: ['--allowedTools', 'Bash'] });
      const at = r.main.map((q) => q.at ?? 0);
      const gaps = at.slice(1).map((t, i) => t - at[i]).sort((a, b) => a - b);
      return gaps[Math.floor(gaps.length / 2)];
    };
    const none = await perCall(undefined);
    const viaMcp = await perCall(mcpTool);
    const viaNode = await perCall([{ matcher: '*', hooks: [{ type: 'command', command: `${process.execPath} -e 0`, timeout: 30 }] }]);
    const added = { mcp_tool: viaMcp - none, 'node -e 0': viaNode - none };
    console.log(`      per tool call: no hook ${none} ms; PreToolUse mcp_tool adds ${added.mcp_tool} ms, node -e 0 adds ${added['node -e 0']} ms (medians of ${TIMED_CALLS})`);
    assert.ok(added.mcp_tool < added['node -e 0'], `mcp_tool added ${added.mcp_tool} ms, node -e 0 ${added['node -e 0']} ms`);
  });
});
