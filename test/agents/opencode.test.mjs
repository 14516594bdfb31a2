// @ts-check
// opencode 1.18.33, the real CLI (`opencode run`) against the scripted Chat Completions model, with zut's plugin
// written by the project's own `zut-host hook install --agent opencode --scope user --with-mcp`
// (~/.config/opencode/plugins/zut-guard.js running `node dist/hook.js hook --agent opencode EVENT`; mcp.zut in
// ~/.config/opencode/opencode.json) and the test guard in $ZUT_HOME (lib/sandbox.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { runOpencode, toolAnswer } from './lib/opencode.mjs';
import { contractFixture } from './lib/fixtures.mjs';
import { readHookLog } from './lib/scenario.mjs';

const LOG_HOOK = path.join(path.dirname(new URL(import.meta.url).pathname), 'lib', 'logHook.mjs');

/** @param {import('./lib/sandbox.mjs').Sandbox} sb */
function install(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'opencode', '--scope', 'user', '--with-mcp']);
  const plugin = path.join(sb.home, '.config', 'opencode', 'plugins', 'zut-guard.js');
  assert.match(out, /zut-guard\.js:/);
  assert.ok(fs.existsSync(plugin), out);
  return plugin;
}

/** Replaces the installed plugin's command (its `const COMMAND = …` line) or timeout: a hook that fails on purpose. */
function sabotage(plugin, command, timeoutMs) {
  let text = fs.readFileSync(plugin, 'utf8').replace(/^const COMMAND = .*$/m, () => `const COMMAND = ${JSON.stringify(command)};`);
  if (timeoutMs !== undefined) text = text.replace(/^const TIMEOUT_MS = .*$/m, () => `const TIMEOUT_MS = ${timeoutMs};`);
  fs.writeFileSync(plugin, text);
}

const bash = (command) => ({ tool: 'bash', input: { command, description: 'scripted call' } });

describe('opencode: zut plugin', function () {
  const box = sandboxEach('opencode');

  it('bash `rm -rf <dir>` is blocked by the guard: the directory stays, the model reads the reason', async function () {
    const sb = box();
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runOpencode(sb, [bash(`rm -rf ${victim}`), { text: 'done' }]);
    assert.ok(fs.existsSync(victim), `the directory was removed\n${r.said}`);
    assert.match(toolAnswer(r.main), new RegExp(`blocked by ${GUARD_NAME}: no rm -rf here`));
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `rm -rf ${victim}`]]);
  });

  it('a harmless command runs; `ZUT_REWRITE` runs rewritten and the model is told', async function () {
    const sb = box();
    install(sb);
    const r = await runOpencode(sb, [bash(`touch ${path.join(sb.ws, 'ran')}`), bash(`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`), { text: 'done' }]);
    assert.ok(fs.existsSync(path.join(sb.ws, 'ran')), `the harmless command did not run\n${r.said}`);
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run\n${r.said}`);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), 'the original command ran');
    assert.match(toolAnswer(r.main, 1), /rewritten by the guard hook-guard/);
  });

  it("zut's MCP tool zut_guard_status runs through `zut-host mcp`, judged once (the plugin skips it)", async function () {
    const sb = box();
    install(sb);
    const r = await runOpencode(sb, [{ tool: 'zut_guard_status', input: {} }, { text: 'done' }]);
    assert.ok(r.main[0].body.tools.some((t) => t.function?.name === 'zut_guard_status'), 'the model was not offered zut_guard_status');
    assert.match(toolAnswer(r.main), /up/);
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => l.tool_name), ['guard_status'], 'judged exactly once');
  });

  it("SessionStart's context (the extensions' skills) reaches the system prompt; zut_skill gives the SKILL.md", async function () {
    const sb = box();
    install(sb);
    sb.addExample('weather');
    sb.addExample('briefing');
    const r = await runOpencode(sb, [{ tool: 'zut_skill', input: { name: 'weather-briefing' } }, { text: 'done' }]);
    const system = JSON.stringify(r.main[0].body.messages.filter((m) => m.role === 'system'));
    assert.ok(system.includes('weather-briefing (from briefing)'), `the system prompt does not list the skill:\n${system.slice(0, 2000)}\n${r.said}`);
    assert.ok(!system.includes('never guess the weather'), "the SKILL.md's body was sent up front");
    assert.match(toolAnswer(r.main), /never guess the weather/);
  });

  it("a prompt: the examples' guard's turn context joins the system prompt; a prompt the guard blocks is not sent", async function () {
    const sb = box();
    install(sb);
    sb.addExample('guard');
    const r = await runOpencode(sb, [{ text: 'done' }]);
    const system = JSON.stringify(r.main[0].body.messages.filter((m) => m.role === 'system'));
    assert.ok(system.includes('Project policy (from guard): never run destructive shell commands'), `no turn context in the system prompt:\n${system.slice(0, 1500)}\n${r.said}`);
    const blocked = await runOpencode(sb, [{ text: 'done' }], { prompt: 'please do the forbidden thing', allowFailure: true });
    assert.deepEqual(blocked.main, [], 'the blocked prompt reached the model');
    assert.match(blocked.run.stderr + blocked.run.stdout, /blocked by hook-guard/);
  });

  it('what the plugin sends, captured (fixtures/opencode: UserPromptSubmit, PreToolUse, PostToolUse, SessionStart)', async function () {
    const sb = box();
    const log = path.join(sb.root, 'plugin.log');
    // The plugin's command as a recorder: `sh -c … x hook --agent opencode EVENT` logs stdin under EVENT ($4), answers nothing.
    sabotage(install(sb), ['/bin/sh', '-c', `exec "${process.execPath}" "${LOG_HOOK}" "${log}" "$4"`, 'x']);
    const ran = path.join(sb.ws, 'ran');
    await runOpencode(sb, [bash(`touch ${ran}`), { text: 'done' }]);
    assert.ok(fs.existsSync(ran), 'the command did not run with no answer (no opinion)');
    const calls = readHookLog(log);
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'SessionStart']) {
      const call = calls.find((c) => c.event === event);
      assert.ok(call, `no ${event} call: ${calls.map((c) => c.event).join(', ')}`);
      contractFixture('opencode', event, call.payload, sb.root);
    }
    assert.equal(calls.filter((c) => c.event === 'SessionStart').length, 1, 'SessionStart asked more than once for one session');
  });

  const FAILURES = [
    { name: 'a hook process killed before it answers', command: ['/bin/sh', '-c', 'kill -9 $$'], says: /blocked by zut: zut-host hook was killed \(SIGKILL\)/ },
    { name: 'a hook that answers garbage', command: ['/bin/sh', '-c', 'echo "{not json"'], says: /blocked by zut: zut's answer is not JSON/ },
    { name: 'a hook that hangs past the plugin\'s timeout', command: ['/bin/sh', '-c', 'sleep 30'], timeoutMs: 2000, says: /blocked by zut: zut did not answer within 2 s/ },
    { name: 'a hook command that cannot start', command: ['/nonexistent/zut-hook'], says: /blocked by zut: cannot run \/nonexistent\/zut-hook/ },
  ];
  for (const f of FAILURES) {
    it(`${f.name}: rm -rf is still blocked`, async function () {
      const sb = box();
      sabotage(install(sb), f.command, f.timeoutMs);
      const victim = path.join(sb.ws, 'victim');
      fs.mkdirSync(victim);
      const r = await runOpencode(sb, [bash(`rm -rf ${victim}`), { text: 'done' }]);
      assert.ok(fs.existsSync(victim), `the directory was removed\n${r.said}`);
      assert.match(toolAnswer(r.main), f.says);
    });
  }

  it('a guard that does not answer within zut\'s budget: zut denies (its own deadline)', async function () {
    const sb = box();
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runOpencode(sb, [bash(`rm -rf ${victim}`), { text: 'done' }], { env: { GUARD_LATE_MS: '8000', ZUT_HOOK_BUDGET_SECONDS: '2' } });
    assert.ok(fs.existsSync(victim), `the directory was removed\n${r.said}`);
    assert.match(toolAnswer(r.main), /blocked by/);
  });
});
