// @ts-check
// Qwen Code 0.24.4, the real agent (`qwen -p … --yolo --auth-type openai --output-format json`, run by a Node >= 22:
// lib/agents.mjs agentNode), offline against the scripted OpenAI-compatible model (lib/openaiChatModel.mjs through
// OPENAI_BASE_URL), with zut's hooks and MCP server written by the project's own `zut-host hook install --agent qwen
// --scope user --with-mcp` (~/.qwen/settings.json), the examples' guard and the test guard installed globally. zut's
// hook runs on the Node that runs the tests. Qwen Code's usage statistics are turned off in its settings; anything
// else trying to leave is refused by the proxy trap and fails the run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, agentNode, runAgent } from './lib/agents.mjs';
import { chatToolResults, startChatModel } from './lib/openaiChatModel.mjs';
import { sandboxEach } from './lib/sandbox.mjs';
import { contractFixture } from './lib/fixtures.mjs';
import { PROMPT, logHookCommand, readHookLog } from './lib/scenario.mjs';
import { BODY, CALL, HEAD, SKILL_LINE, addBriefing, chatToolTexts } from './lib/skills.mjs';

/** `zut-host hook install --agent qwen --scope user --with-mcp`, then usage statistics off. @param {import('./lib/sandbox.mjs').Sandbox} sb */
function install(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'qwen', '--scope', 'user', '--with-mcp']);
  assert.match(out, /hooks\.PreToolUse/);
  const file = path.join(sb.home, '.qwen', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.match(settings.hooks.PreToolUse[0].hooks[0].command, /hook --agent qwen PreToolUse <&3/);
  assert.ok(settings.mcpServers.zut, 'no zut MCP server');
  fs.writeFileSync(file, JSON.stringify({ ...settings, privacy: { usageStatisticsEnabled: false } }, null, 2));
}

/**
 * Qwen Code, once. @param {import('./lib/sandbox.mjs').Sandbox} sb @param {import('./lib/openaiChatModel.mjs').Step[]} script
 * @param {Record<string, string>} [extraEnv]
 */
async function runQwen(sb, script, extraEnv = {}) {
  const model = await startChatModel(script);
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: sb.home,
      ...sb.zutEnv,
      HTTPS_PROXY: model.url,
      HTTP_PROXY: model.url,
      NO_PROXY: '127.0.0.1,localhost',
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_API_KEY: 'sk-scripted',
      OPENAI_MODEL: 'scripted',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      ...extraEnv,
    };
    const node = /** @type {string} */ (agentNode('qwen'));
    const cli = fs.realpathSync(agentBin('qwen'));
    const run = await runAgent(node, [cli, '-p', PROMPT, '--yolo', '--auth-type', 'openai', '--output-format', 'json'], { cwd: sb.ws, env });
    const said = `exit ${run.code}\nstderr: ${run.stderr.slice(-1500)}\nstdout: ${run.stdout.slice(-1500)}`;
    assert.ok(!run.timedOut, `qwen did not finish:\n${said}`);
    assert.equal(run.code, 0, said);
    assert.deepEqual(model.escapes, [], 'something tried to leave the machine through the proxy');
    return { run, main: model.main(), said };
  } finally {
    await model.close();
  }
}

const shell = (/** @type {string} */ command) => ({ tool: 'run_shell_command', input: { command } });

describe('Qwen Code: zut hooks installed by hook install --agent qwen', function () {
  const box = sandboxEach('qwen');

  it('run_shell_command `rm -rf <victim>` is denied by the examples\' guard: the directory stays, the model reads the reason', async function () {
    const sb = box();
    sb.addExample('guard');
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runQwen(sb, [shell(`rm -rf ${victim}`), { text: 'done' }]);
    assert.ok(fs.existsSync(victim), `the directory was removed\n${r.said}`);
    const back = chatToolResults(r.main[1]?.body);
    assert.ok(back.some((t) => /blocked by [a-z-]+: .*rm -rf/.test(t)), `tool results: ${back.join(' | ')}`);
    // The examples' guard blocked it first (the chain stops there): the test guard saw no result of it.
    assert.ok(!sb.guardSaw().some((l) => l.kind === 'event' && l.event === 'tool_result'), 'a tool result was reported');
  });

  it('a harmless command runs and its output reaches the model; Qwen Code\'s payloads match the recorded fixtures', async function () {
    const sb = box();
    install(sb);
    // A logging entry of the user's beside ours (the installer kept the file's other entries).
    const log = path.join(sb.root, 'hooks.log');
    const file = path.join(sb.home, '.qwen', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const ev of ['PreToolUse', 'PostToolUse']) settings.hooks[ev].push({ matcher: '*', hooks: [{ type: 'command', command: logHookCommand(log, ev) }] });
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
    const r = await runQwen(sb, [shell('echo zut-was-here'), { text: 'done' }]);
    const back = chatToolResults(r.main[1]?.body);
    assert.ok(back.some((t) => t.includes('zut-was-here')), `tool results: ${back.join(' | ')}`);
    assert.ok(sb.guardSaw().some((l) => l.kind === 'event' && l.event === 'tool_result' && l.tool_name === 'bash'), 'no tool_result event for the guard');
    const saw = readHookLog(log);
    assert.deepEqual(saw.map((c) => [c.event, c.payload.tool_name]), [['PreToolUse', 'run_shell_command'], ['PostToolUse', 'run_shell_command']]);
    for (const c of saw) contractFixture('qwen', c.event, c.payload, sb.root);
  });

  it('a guard\'s rewrite is denied (Qwen Code\'s PreToolUse takes no changed input), naming the input to retry with', async function () {
    const sb = box();
    install(sb);
    const r = await runQwen(sb, [shell(`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`), { text: 'done' }]);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')) && !fs.existsSync(path.join(sb.ws, 'rewritten')), 'a command ran');
    const back = chatToolResults(r.main[1]?.body).join(' | ');
    assert.match(back, /would change this run_shell_command call's input, and Qwen Code cannot take a changed input/);
    assert.ok(back.includes(`touch ${path.join(sb.ws, 'rewritten')}`), back);
  });

  it('context: the guard\'s turn_start context reaches the model through UserPromptSubmit additionalContext', async function () {
    const sb = box();
    install(sb);
    const r = await runQwen(sb, [{ text: 'done' }]);
    assert.ok(JSON.stringify(r.main[0].body.messages).includes('guard context'), 'no guard context in the request');
  });

  it('mcp__zut__guard_status runs through zut\'s MCP server (settings.json mcpServers.zut), judged once', async function () {
    const sb = box();
    install(sb);
    const r = await runQwen(sb, [{ tool: 'mcp__zut__guard_status', input: {} }, { text: 'done' }]);
    // Qwen Code defers MCP tools behind its tool_search (their schemas are not in the first request); a call by name runs.
    assert.ok(r.main[0].body.tools.some((t) => t.function?.name === 'tool_search'));
    const back = chatToolResults(r.main[1]?.body);
    assert.ok(back.some((t) => t.includes('up')), `tool results: ${back.join(' | ')}`);
    assert.deepEqual(sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call').map((l) => l.tool_name), ['guard_status']);
  });
  it('skills: SessionStart lists the skill up front, tool_search gives mcp__zut__skill with it in its description, and the SKILL.md reaches the model only when it calls the tool', async function () {
    const sb = box();
    const skillFile = addBriefing(sb);
    install(sb);
    // Qwen Code defers MCP tools: its startup reminder names them with their descriptions cut at ~160 characters (the
    // skills' list is lost), and its tool_search gives the whole declaration. The model looks, then calls by name.
    const search = { tool: 'tool_search', input: { query: 'select:mcp__zut__skill' } };
    const r = await runQwen(sb, [search, { tool: 'mcp__zut__skill', input: CALL }, { text: 'Here is your briefing.' }]);
    const upFront = JSON.stringify(r.main[0].body.messages);
    // Observed: SessionStart's additionalContext is a <qwen:session-start-context> block in the first user message.
    assert.ok(upFront.includes('weather-briefing (from briefing)') && upFront.includes(`(${skillFile})`), `the SessionStart context does not list the skill with ${skillFile}:\n${upFront.slice(0, 3000)}`);
    assert.ok(r.main[0].body.tools.some((t) => t.function?.name === 'tool_search') && upFront.includes('\\"mcp__zut__skill\\"'), 'mcp__zut__skill is not among the deferred tools');
    const declared = chatToolTexts(r.main[1]?.body).map((t) => t.text).join('\n');
    assert.ok(declared.includes('mcp__zut__skill') && declared.includes(SKILL_LINE), `tool_search did not give mcp__zut__skill with the skill in its description:\n${declared.slice(0, 2000)}`);
    for (const line of BODY) assert.ok(!JSON.stringify(r.main[1].body.messages).includes(line), `the SKILL.md's body reached the model before the call ("${line}")`);
    const back = chatToolTexts(r.main[2]?.body).at(-1)?.text ?? '';
    assert.ok(back.startsWith(HEAD), `the tool result does not name the skill and its folder first:\n${back.slice(0, 800)}\n${r.said}`);
    for (const line of BODY) assert.ok(back.includes(line), `the tool result lacks the SKILL.md ("${line}"):\n${back.slice(0, 800)}`);
  });
});

describe('Qwen Code: zut fails closed', function () {
  const box = sandboxEach('qwen-fail');

  /** `rm -r` (the test guard lets it run: the control) under a failure; returns what the model got back. @param {import('./lib/sandbox.mjs').Sandbox} sb @param {Record<string, string>} env */
  async function rmUnder(sb, env) {
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runQwen(sb, [shell(`rm -r ${victim}`), { text: 'done' }], env);
    assert.ok(fs.existsSync(victim), `the command ran\n${r.said}`);
    return chatToolResults(r.main[1]?.body).join(' | ');
  }

  it('zut\'s hook process dies at start (the test Node exits 1 before a word): exit 2, denied', async function () {
    const sb = box();
    // Only the Node that runs zut's hook (this one) dies; Qwen Code's own Node does not.
    const crash = path.join(sb.root, 'crash.cjs');
    fs.writeFileSync(crash, `if (process.version === ${JSON.stringify(process.version)}) process.exit(1);\n`);
    const back = await rmUnder(sb, { NODE_OPTIONS: `--require ${crash}` });
    assert.match(back, /blocked by zut: zut-host hook failed or did not answer within 30 s \(exit 1\)/);
  });

  it('zut\'s hook process hangs: the command line\'s watchdog kills it at 30 s, denied (Qwen Code\'s own 60 s timeout would let it run)', async function () {
    this.timeout(150_000);
    const sb = box();
    const hang = path.join(sb.root, 'hang.cjs');
    // Only zut's PreToolUse hook hangs (its other events are plain commands Qwen Code waits 60 s for each, and zut's MCP server must start).
    fs.writeFileSync(hang, `if (process.version === ${JSON.stringify(process.version)} && process.argv.includes('PreToolUse')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n`);
    const back = await rmUnder(sb, { NODE_OPTIONS: `--require ${hang}` });
    assert.match(back, /blocked by zut: zut-host hook failed or did not answer within 30 s \(exit 137\)/);
  });

  it('a guard that never answers: denied within the hook budget', async function () {
    const sb = box();
    writeGuard(sb, 'hung', '');
    const back = await rmUnder(sb, {});
    assert.match(back, /blocked by/);
  });

  it('a guard answering garbage: denied', async function () {
    const sb = box();
    writeGuard(sb, 'garbage', `process.stdout.write('{"type":"event_intercept_response","id":' + JSON.stringify(msg.id) + ',"block":"yes please"\\n');`);
    const back = await rmUnder(sb, {});
    assert.match(back, /blocked by/);
  });

  it('control: the test guard alone lets `rm -r` run', async function () {
    const sb = box();
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    await runQwen(sb, [shell(`rm -r ${victim}`), { text: 'done' }]);
    assert.ok(!fs.existsSync(victim), 'rm -r was blocked');
  });
});

/** A global extension that intercepts tool_call and answers with `onIntercept` (JS using `msg`; '' = never). @param {import('./lib/sandbox.mjs').Sandbox} sb @param {string} name @param {string} onIntercept */
function writeGuard(sb, name, onIntercept) {
  const dir = path.join(sb.zutHome, 'extensions', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'g.mjs'),
    `import { createInterface } from 'node:readline';
const out = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
out({ type: 'hello', protocol_version: 2, name: ${JSON.stringify(name)}, version: '1.0.0', capabilities: [] });
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello_ack') { out({ type: 'subscribe', events: ['tool_call'], intercept: ['tool_call'] }); out({ type: 'ready' }); }
  if (msg.type === 'event_intercept') { ${onIntercept} }
  if (msg.type === 'shutdown') process.exit(0);
});
`,
  );
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, exec: process.execPath, args: [path.join(dir, 'g.mjs')] }));
}
