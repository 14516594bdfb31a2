// @ts-check
// Gemini CLI 0.61.0, the real CLI in `--yolo -p` mode against the scripted Gemini model (lib/geminiModel.mjs), with
// zut's hooks and MCP server written by the project's own `zut-host hook install --agent gemini --scope user
// --with-mcp` (~/.gemini/settings.json, entries running `node dist/hook.js hook --agent gemini EVENT`; BeforeTool's
// wrapped to fail closed) and the test guard in $ZUT_HOME (lib/sandbox.mjs). The workspace is trusted in
// ~/.gemini/trustedFolders.json as the user would (Gemini CLI runs no hooks in an untrusted folder). --yolo: Gemini
// CLI's own rules let every call run, so only the hook stands in the way. Each scenario asserts on what happened:
// files on disk, what the model received next, the guard's log.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { contractFixture } from './lib/fixtures.mjs';
import { afterFunctionCall, installGemini, prepareGeminiHome, runGemini } from './lib/geminiRun.mjs';
import { addBadGuard, killHookPreload } from './lib/geminiFaults.mjs';
import { logHookCommand, readHookLog } from './lib/scenario.mjs';

const shell = (command) => ({ tool: 'run_shell_command', input: { command, description: 'scripted call' } });
/** What the guard judged: [tool, command] of each tool_call interception. */
const judged = (sb) => sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call').map((l) => [l.tool_name, l.tool_args.command ?? l.tool_args.path]);
const evidence = (sb, r) => `\n${r.said}\nthe guard saw: ${JSON.stringify(sb.guardSaw().map((l) => [l.kind, l.event, l.tool_name]))}`;

describe('Gemini CLI: BeforeTool through zut', function () {
  const box = sandboxEach('gemini');

  it('run_shell_command `rm -rf <dir>` is denied by the guard: the directory stays, the model reads the reason', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'keep'), 'x');
    const r = await runGemini(sb, [shell(`rm -rf ${victim}`), { text: 'done' }]);
    assert.ok(fs.existsSync(path.join(victim, 'keep')), `the directory was removed${evidence(sb, r)}`);
    const back = afterFunctionCall(r.main);
    // Observed: functionResponse.response.error = "Tool execution blocked: blocked by hook-guard: no rm -rf here".
    assert.equal(back.text, `Tool execution blocked: blocked by ${GUARD_NAME}: no rm -rf here`, back.all.slice(0, 2000));
    assert.deepEqual(judged(sb), [['bash', `rm -rf ${victim}`]]);
  });

  it('control: without zut\'s hooks the same call runs (the directory is removed)', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    await runGemini(sb, [shell(`rm -rf ${victim}`), { text: 'done' }]);
    assert.ok(!fs.existsSync(victim), 'the directory is still there without the hook');
  });

  it('a harmless command runs (no opinion: nothing on stdout); the guard saw it, and its result (AfterTool)', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const made = path.join(sb.ws, 'harmless');
    const r = await runGemini(sb, [shell(`echo hello > ${made}`), { text: 'done' }]);
    assert.equal(fs.readFileSync(made, 'utf8'), 'hello\n', `the harmless command did not run${evidence(sb, r)}`);
    assert.deepEqual(judged(sb), [['bash', `echo hello > ${made}`]]);
    const result = sb.guardSaw().find((l) => l.kind === 'event' && l.event === 'tool_result');
    assert.equal(result?.tool_name, 'bash', 'no tool_result event for the call');
    assert.equal(result?.is_error ?? false, false);
  });

  it('run_shell_command `touch ZUT_REWRITE` runs as `touch rewritten` (hookSpecificOutput.tool_input); the model is told', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const r = await runGemini(sb, [shell(`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`), { text: 'done' }]);
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run${evidence(sb, r)}`);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), 'the original command ran');
    const back = afterFunctionCall(r.main);
    assert.match(back.all, /were modified by a hook before execution/, back.all.slice(-2000));
  });

  it('the guard\'s turn_start context reaches the model with the prompt (BeforeAgent additionalContext)', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const r = await runGemini(sb, [{ text: 'done' }]);
    assert.match(JSON.stringify(r.main[0].body.contents), /guard context/, `no context in the first request${evidence(sb, r)}`);
  });

  it('a prompt the guard blocks never reaches the model (BeforeAgent decision: deny)', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const r = await runGemini(sb, [{ text: 'should not be asked' }], { prompt: 'something forbidden', expectExit: undefined });
    assert.deepEqual(r.main, [], 'the model was asked');
    assert.match(r.run.stdout + r.run.stderr, /no forbidden prompts/);
  });
});

describe('Gemini CLI: zut\'s own MCP tool', function () {
  const box = sandboxEach('gemini');

  it('mcp_zut_guard_status runs through `zut-host mcp` (mcpServers.zut written by --with-mcp), judged once on the MCP path', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    installGemini(sb);
    const r = await runGemini(sb, [{ tool: 'mcp_zut_guard_status', input: {} }, { text: 'done' }]);
    const offered = r.main[0].body.tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
    assert.ok(offered.includes('mcp_zut_guard_status'), `the model was not offered mcp_zut_guard_status: ${offered.join(', ')}`);
    assert.match(afterFunctionCall(r.main).text, /up/);
    const saw = sb.guardSaw();
    const calls = saw.filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(calls.map((l) => l.tool_name), ['guard_status'], 'judged exactly once');
    const mcpGuard = saw.find((l) => l.kind === 'event' && l.event === 'session_start' && String(l.session?.id).startsWith('mcp-'));
    assert.equal(calls[0].pid, mcpGuard?.pid, 'judged by the MCP server\'s host, not a hook\'s');
  });
});

describe('Gemini CLI: fails closed', function () {
  const box = sandboxEach('gemini');

  /**
   * Runs `rm -rf <victim>` under zut's hooks with `env` and WITHOUT the test guard (which would deny it by itself);
   * asserts the victim stays and returns what the model read.
   */
  async function stillDenied(sb, env) {
    fs.rmSync(path.join(sb.zutHome, 'extensions', GUARD_NAME), { recursive: true });
    prepareGeminiHome(sb);
    installGemini(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'keep'), 'x');
    const r = await runGemini(sb, [shell(`rm -rf ${victim}`), { text: 'done' }], { env });
    assert.ok(fs.existsSync(path.join(victim, 'keep')), `the directory was removed${evidence(sb, r)}`);
    const back = afterFunctionCall(r.main);
    assert.match(back.text, /^Tool execution blocked: /, back.all.slice(-1500));
    return back.text;
  }

  it('the hook process killed before writing anything (SIGKILL): the wrapper turns it into a deny', async function () {
    const sb = box();
    const text = await stillDenied(sb, { NODE_OPTIONS: `--require ${killHookPreload(sb.root)}` });
    assert.match(text, /zut-host hook ended without answering: the tool call is denied \(fail closed\), exit 137/);
  });

  /** What the model reads per fault (observed). */
  const WHY = {
    crash: /^Tool execution blocked: blocked by zut: guard bad-guard could not judge this call \(extension bad-guard exited: exit status 3/,
    hang: /^Tool execution blocked: blocked by zut: zut-host hook: zut did not answer within \d+ s$/,
    // The host drops a line that is not JSON and an answer of the wrong shape: the guard has not answered.
    garbage: /^Tool execution blocked: blocked by zut: zut-host hook: zut did not answer within \d+ s$/,
  };
  for (const mode of ['crash', 'hang', 'garbage']) {
    it(`a guard that ${mode === 'crash' ? 'dies' : mode === 'hang' ? 'never answers' : 'answers garbage'} while judging: denied`, async function () {
      const sb = box();
      addBadGuard(sb);
      const text = await stillDenied(sb, { BAD_GUARD_MODE: mode, ZUT_HOOK_BUDGET_SECONDS: '4' });
      assert.match(text, WHY[mode]);
    });
  }
});

describe('Gemini CLI: payloads and the trust gate', function () {
  const box = sandboxEach('gemini');

  it('records its hook payloads (fixtures/gemini/) beside zut\'s own entries', async function () {
    const sb = box();
    prepareGeminiHome(sb);
    const log = path.join(sb.root, 'hooks.log');
    const events = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'];
    const settings = path.join(sb.home, '.gemini', 'settings.json');
    const json = JSON.parse(fs.readFileSync(settings, 'utf8'));
    json.hooks = Object.fromEntries(events.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: logHookCommand(log, e), timeout: 10_000 }] }]]));
    fs.writeFileSync(settings, JSON.stringify(json, null, 2));
    installGemini(sb);
    const made = path.join(sb.ws, 'made');
    await runGemini(sb, [shell(`touch ${made}`), { text: 'done' }]);
    assert.ok(fs.existsSync(made));
    const calls = readHookLog(log);
    assert.deepEqual([...new Set(calls.map((c) => c.event))], events);
    for (const e of events) contractFixture('gemini', e, calls.find((c) => c.event === e).payload, sb.root);
  });

  it('an untrusted workspace: `gemini -p` refuses to start (exit 55), and `doctor` names the folder and the line to add', async function () {
    const sb = box();
    prepareGeminiHome(sb, { trust: false });
    const out = installGemini(sb);
    assert.match(out, /Gemini CLI will not run it yet:/);
    assert.ok(out.includes(`${JSON.stringify(sb.ws)}: "TRUST_FOLDER"`), out);
    const doctor = spawnSync(process.execPath, [CLI, 'doctor'], { cwd: sb.ws, env: { PATH: process.env.PATH, HOME: sb.home, ...sb.zutEnv }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(doctor.status, 1, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, /Gemini CLI: hooks \(user\) NOT RUN, MCP server \(user\)/);
    assert.ok(doctor.stdout.includes(`Gemini CLI (user): Gemini CLI runs no hooks in a folder it does not trust, and ${sb.ws} is not trusted`), doctor.stdout);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runGemini(sb, [shell(`rm -rf ${victim}`), { text: 'done' }], { expectExit: 55 });
    assert.ok(fs.existsSync(victim));
    assert.deepEqual(r.main, []);
  });
});

describe('Gemini CLI: a zut extension\'s skill', function () {
  const box = sandboxEach('gemini');

  it('offers mcp_zut_skill and the SessionStart list (<hook_context>) up front, and the SKILL.md only when the model calls the tool', async function () {
    const sb = box();
    sb.addExample('weather');
    const skillFile = path.join(sb.addExample('briefing'), 'skills', 'weather-briefing', 'SKILL.md');
    prepareGeminiHome(sb);
    installGemini(sb);
    const r = await runGemini(sb, [{ tool: 'mcp_zut_skill', input: { name: 'weather-briefing' } }, { text: 'Here is your briefing.' }]);
    const first = r.main[0].body;
    const tool = first.tools.flatMap((t) => t.functionDeclarations ?? []).find((f) => f.name === 'mcp_zut_skill');
    assert.ok(tool, `the first request offers no mcp_zut_skill${evidence(sb, r)}`);
    assert.match(tool.description, /weather-briefing \(from briefing\)/);
    // Observed: Gemini CLI puts SessionStart's additionalContext before the prompt as <hook_context>…</hook_context>.
    const context = JSON.stringify(first.contents);
    assert.ok(context.includes('<hook_context>') && context.includes('weather-briefing (from briefing)') && context.includes(JSON.stringify(skillFile).slice(1, -1)), `no SessionStart context listing the skill: ${context.slice(0, 2000)}`);
    assert.ok(!context.includes('never guess the weather'), 'the SKILL.md\'s body was sent up front');
    const back = afterFunctionCall(r.main);
    assert.ok(back.text.includes('never guess the weather'), `the result lacks the SKILL.md: ${back.text.slice(0, 800)}`);
  });
});
