// @ts-check
// Cline CLI 3.0.65, the real agent (`cline --json <prompt>`, act mode, auto-approve), offline against the scripted
// OpenAI-compatible model (lib/openaiChatModel.mjs; `cline auth -p openai -b <url>`: Cline takes a base URL only for
// OpenAI-compatible providers), with zut's hooks and MCP server written by the project's own `zut-host hook install
// --agent cline --scope user --with-mcp` (hook files in ~/.cline/hooks, the server in
// ~/.cline/data/settings/cline_mcp_settings.json), the examples' guard and the test guard installed globally
// ($ZUT_HOME/extensions). The Cline binary is a compiled Bun program (no Node of its own), so NODE_OPTIONS reaches
// only zut's hook (run by the system Node) and MCP server. Cline's own telemetry and update check try to leave:
// the proxy trap refuses them (they are listed and must be only Cline's own hosts). Each scenario asserts on what
// happened: files on disk, the requests the model received, the guard's log, the payloads Cline gave the hook.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, runAgent } from './lib/agents.mjs';
import { contractFixture } from './lib/fixtures.mjs';
import { chatToolResults, startChatModel } from './lib/openaiChatModel.mjs';
import { GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { PROMPT, logHookCommand, readHookLog } from './lib/scenario.mjs';
import { BODY, CALL, HEAD, SKILL_LINE, addBriefing, chatToolTexts } from './lib/skills.mjs';

/** The hosts Cline CLI itself calls (telemetry, its update check): refused by the trap, never reached. */
const CLINE_OWN_HOSTS = /^(otel\.cline\.bot|data\.cline\.bot|api\.cline\.bot|registry\.npmjs\.org):443$/;
/** The watchdog of the PreToolUse script we install (HOOK_TIMEOUT_SECONDS) plus Cline's run: the hung case's deadline. */
const HUNG_RUN_MS = 80_000;
/** How long a run waits for Cline's detached hook processes to end: their scripts' watchdog (HOOK_TIMEOUT_SECONDS) and a margin. */
const HOOK_SCRIPT_END_MS = 35_000;

/** The Cline binary (node_modules/.bin/cline links to @cline/cli-<platform>-<arch>/bin/cline, a compiled Bun program). */
const clineBinary = () => fs.realpathSync(agentBin('cline'));

/** `zut-host hook install --agent cline --scope user --with-mcp`, as a user runs it. @param {import('./lib/sandbox.mjs').Sandbox} sb */
function install(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'cline', '--scope', 'user', '--with-mcp']);
  assert.match(out, /wrote PreToolUse/);
  const pre = fs.readFileSync(path.join(sb.home, '.cline', 'hooks', 'PreToolUse'), 'utf8');
  assert.match(pre, /hook --agent cline PreToolUse/);
  assert.equal(fs.statSync(path.join(sb.home, '.cline', 'hooks', 'PreToolUse')).mode & 0o777, 0o755);
  const mcp = JSON.parse(fs.readFileSync(path.join(sb.home, '.cline', 'data', 'settings', 'cline_mcp_settings.json'), 'utf8'));
  assert.ok(mcp.mcpServers.zut, 'no zut MCP server');
}

/**
 * Cline, once: configures the scripted model, runs the prompt, returns what happened.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb @param {import('./lib/openaiChatModel.mjs').Step[]} script
 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [o]
 */
async function runCline(sb, script, o = {}) {
  const model = await startChatModel(script);
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: sb.home,
      ...sb.zutEnv,
      HTTPS_PROXY: model.url,
      HTTP_PROXY: model.url,
      NO_PROXY: '127.0.0.1,localhost',
      CLINE_NO_AUTO_UPDATE: '1',
      ...o.env,
    };
    const bin = clineBinary();
    const auth = await runAgent(bin, ['auth', '-p', 'openai', '-k', 'sk-scripted', '-m', 'scripted', '-b', model.url], { cwd: sb.ws, env });
    assert.equal(auth.code, 0, `cline auth failed: ${auth.stderr}`);
    const run = await runAgent(bin, ['--json', '-c', sb.ws, PROMPT], { cwd: sb.ws, env, timeoutMs: o.timeoutMs });
    assert.ok(!run.timedOut, `cline did not finish:\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`);
    const strange = model.escapes.filter((e) => !CLINE_OWN_HOSTS.test(e.url));
    assert.deepEqual(strange, [], 'something other than Cline\'s own telemetry/update check tried to leave the machine');
    return { run, main: model.main(), escapes: model.escapes, said: run.stdout + run.stderr };
  } finally {
    await model.close();
    endHubDaemons(sb.ws);
    // Cline's detached events (TaskStart, UserPromptSubmit) may still be answering, and may start a warm hook host
    // after the sandbox's `hook host stop`: let them end first (their scripts' watchdog bounds them).
    for (const end = Date.now() + HOOK_SCRIPT_END_MS; hookProcessesOf(sb.root).length > 0 && Date.now() < end; ) await new Promise((done) => setTimeout(done, 200));
  }
}

/**
 * Ends the hub daemon Cline starts for a folder (`cline --cline-hub-daemon --cwd <ws>`): it leaves the run's process
 * group, so the run's end does not reach it (Linux /proc).
 */
function endHubDaemons(ws) {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.includes('--cline-hub-daemon') && argv[argv.indexOf('--cwd') + 1] === ws) process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* gone, or not ours */
    }
  }
}

const commands = (/** @type {string[]} */ list) => ({ tool: 'run_commands', input: { commands: list } });

describe('Cline CLI: zut hooks installed by hook install --agent cline', function () {
  const box = sandboxEach('cline');

  it('run_commands `rm -rf <victim>` is cancelled by the examples\' guard: the directory stays, the run ends aborted', async function () {
    const sb = box();
    sb.addExample('guard');
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'keep'), 'x');
    const r = await runCline(sb, [commands([`rm -rf ${victim}`]), { text: 'done' }]);
    assert.ok(fs.existsSync(path.join(victim, 'keep')), `the directory was removed\n${r.said.slice(-2000)}`);
    // Cline's cancel stops the whole run, and Cline 3.0.65 shows it as an abort: neither the model nor the person
    // reads the reason (observed: `"finishReason":"aborted"`, `[abort] aborted by another client` without --json).
    assert.match(r.said, /"type":"run_result","finishReason":"aborted"/);
    assert.equal(r.main.length, 1, 'the model was asked again after the cancel');
    // The examples' guard blocked it first (the chain stops there): the test guard saw no result of it.
    assert.ok(!sb.guardSaw().some((l) => l.kind === 'event' && l.event === 'tool_result'), 'a tool result was reported');
  });

  it('a harmless command runs and its result reaches the model; Cline\'s payloads match the recorded fixtures', async function () {
    const sb = box();
    install(sb);
    // A logging hook beside ours (a user's own, of another name: Cline runs PreToolUse.sh too).
    const log = path.join(sb.root, 'hooks.log');
    for (const ev of ['PreToolUse', 'PostToolUse']) fs.writeFileSync(path.join(sb.home, '.cline', 'hooks', `${ev}.sh`), `#!/bin/sh\n${logHookCommand(log, ev)}\n`, { mode: 0o755 });
    const ok = path.join(sb.ws, 'ok.txt');
    const r = await runCline(sb, [commands([`echo hello > ${ok}`]), { text: 'done' }]);
    assert.equal(fs.readFileSync(ok, 'utf8'), 'hello\n', r.said.slice(-2000));
    assert.equal(r.main.length, 2);
    const saw = readHookLog(log);
    for (const c of saw) contractFixture('cline', c.event, c.payload, sb.root);
    assert.deepEqual(saw.map((c) => [c.event, c.payload.tool_call?.name ?? c.payload.tool_result?.name]), [['PreToolUse', 'run_commands'], ['PostToolUse', 'run_commands']]);
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `echo hello > ${ok}`]]);
    assert.ok(sb.guardSaw().some((l) => l.kind === 'event' && l.event === 'tool_result' && l.tool_name === 'bash'), 'no tool_result event for the guard');
  });

  it('a guard\'s rewrite is overrideInput: `touch ZUT_REWRITE` runs as `touch rewritten`; the model gets the note (contextModification)', async function () {
    const sb = box();
    install(sb);
    const r = await runCline(sb, [commands([`touch ${path.join(sb.ws, 'ZUT_REWRITE')}`]), { text: 'done' }]);
    assert.ok(fs.existsSync(path.join(sb.ws, 'rewritten')), `the rewritten command did not run\n${r.said.slice(-1500)}`);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')), 'the original command ran');
    const note = `zut: the input of this run_commands call was rewritten by the guard ${GUARD_NAME} before it ran`;
    assert.ok(JSON.stringify(r.main[1]?.body.messages ?? []).includes(note), 'the model did not get the rewrite note');
  });

  it('zut__guard_status runs through zut\'s MCP server (cline_mcp_settings.json), judged once on the MCP path', async function () {
    const sb = box();
    install(sb);
    const r = await runCline(sb, [{ tool: 'zut__guard_status', input: {} }, { text: 'done' }]);
    assert.ok(r.main[0].body.tools.some((t) => t.function?.name === 'zut__guard_status'), `the model was not offered zut__guard_status: ${r.main[0].body.tools.map((t) => t.function?.name).join(', ')}`);
    const back = chatToolResults(r.main[1]?.body);
    assert.ok(back.some((t) => t.includes('up')), `tool results: ${back.join(' | ')}\n${r.said.slice(-1500)}`);
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => l.tool_name), ['guard_status'], 'judged exactly once');
  });
  it('skills: zut__skill is offered with the skill in its description, and the SKILL.md reaches the model only when it calls the tool', async function () {
    const sb = box();
    addBriefing(sb);
    install(sb);
    const r = await runCline(sb, [{ tool: 'zut__skill', input: CALL }, { text: 'Here is your briefing.' }]);
    const tool = r.main[0].body.tools.find((t) => t.function?.name === 'zut__skill');
    assert.ok(tool, `the model was not offered zut__skill: ${r.main[0].body.tools.map((t) => t.function?.name).join(', ')}`);
    assert.ok(tool.function.description.includes(SKILL_LINE), `the skill is not in the tool's description:\n${tool.function.description}`);
    // No list up front: Cline runs TaskStart (zut's SessionStart) detached and never reads its output.
    const upFront = JSON.stringify(r.main[0].body.messages);
    assert.ok(!upFront.includes('weather-briefing (from briefing)'), 'a skill list reached the model up front');
    for (const line of BODY) assert.ok(!upFront.includes(line), `the SKILL.md's body was sent up front ("${line}")`);
    // Cline hands the model the MCP result's JSON as the tool message's text.
    const back = chatToolTexts(r.main[1]?.body);
    assert.equal(back.length, 1, `tool results: ${JSON.stringify(back).slice(0, 1500)}\n${r.said.slice(-1500)}`);
    assert.equal(back[0].isError, false, back[0].text);
    assert.ok(back[0].text.startsWith(HEAD), `the tool result does not name the skill and its folder first:\n${back[0].text.slice(0, 800)}`);
    for (const line of BODY) assert.ok(back[0].text.includes(line), `the tool result lacks the SKILL.md ("${line}"):\n${back[0].text.slice(0, 800)}`);
  });
});

/** Our hook processes (dist/hook.js or cli.js `hook`) still running with `root` in their environment (Linux /proc). */
function hookProcessesOf(root) {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const line = cmd.replaceAll('\0', ' ');
      return / hook /.test(line) && !/ hook host /.test(line) && fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(root);
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

describe('Cline CLI: zut fails closed', function () {
  const box = sandboxEach('cline-fail');

  /** @param {import('./lib/sandbox.mjs').Sandbox} sb @param {Record<string, string>} env @param {number} [timeoutMs] */
  async function rmUnder(sb, env, timeoutMs) {
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'keep'), 'x');
    // `rm -r` (not -rf): the test guard lets it run (the control below); only the failure can stop it.
    const r = await runCline(sb, [commands([`rm -r ${victim}`]), { text: 'done' }], { env, timeoutMs });
    assert.ok(fs.existsSync(path.join(victim, 'keep')), `the command ran\n${r.said.slice(-2000)}`);
    return r;
  }

  it('zut\'s hook process dies at start (node exits 1 before a word): Cline\'s run is cancelled', async function () {
    const sb = box();
    const crash = path.join(sb.root, 'crash.cjs');
    fs.writeFileSync(crash, 'process.exit(1);\n');
    const r = await rmUnder(sb, { NODE_OPTIONS: `--require ${crash}` });
    assert.match(r.said, /"finishReason":"aborted"/);
  });

  it('zut\'s hook process hangs: the script\'s watchdog kills it and Cline\'s run is cancelled', async function () {
    this.timeout(HUNG_RUN_MS + 30_000);
    const sb = box();
    const hang = path.join(sb.root, 'hang.cjs');
    fs.writeFileSync(hang, 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n');
    const started = Date.now();
    const r = await rmUnder(sb, { NODE_OPTIONS: `--require ${hang}` }, HUNG_RUN_MS);
    assert.match(r.said, /"finishReason":"aborted"/);
    assert.ok(Date.now() - started >= 30_000, 'cancelled before the watchdog: not the hang that stopped it');
    // Cline runs TaskStart detached and never ends it: its hung hook process is ended by its script's watchdog too.
    await new Promise((done) => setTimeout(done, 2_000));
    assert.deepEqual(hookProcessesOf(sb.root), [], 'a hook process of this run outlived it');
  });

  it('a guard answering garbage: denied', async function () {
    const sb = box();
    const dir = path.join(sb.zutHome, 'extensions', 'garbage');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'g.mjs'),
      `import { createInterface } from 'node:readline';
const out = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
out({ type: 'hello', protocol_version: 2, name: 'garbage', version: '1.0.0', capabilities: [] });
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello_ack') { out({ type: 'subscribe', events: ['tool_call'], intercept: ['tool_call'] }); out({ type: 'ready' }); }
  if (msg.type === 'event_intercept') process.stdout.write('{"type":"event_intercept_response","id":' + JSON.stringify(msg.id) + ',"block":"yes please"\\n');
  if (msg.type === 'shutdown') process.exit(0);
});
`,
    );
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'garbage', exec: process.execPath, args: [path.join(dir, 'g.mjs')] }));
    const r = await rmUnder(sb, {});
    assert.match(r.said, /"finishReason":"aborted"/);
    assert.ok(!sb.guardSaw().some((l) => l.kind === 'event' && l.event === 'tool_result'), 'a tool result was reported');
  });

  it('control: the test guard alone lets `rm -r` run (what the failures above stopped)', async function () {
    const sb = box();
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    await runCline(sb, [commands([`rm -r ${victim}`]), { text: 'done' }]);
    assert.ok(!fs.existsSync(victim), `${GUARD_NAME} blocked rm -r`);
  });
});
