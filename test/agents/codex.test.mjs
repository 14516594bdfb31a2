// @ts-check
// Codex CLI 0.169.0, the real CLI (`codex exec`) against the scripted Responses model (lib/responsesModel.mjs), with
// zut's hooks and MCP server written by the project's own `zut-host hook install --agent codex --scope user
// --with-mcp` into the sandbox's ~/.codex (hooks.json, and in config.toml the hooks' trust and [mcp_servers.zut]) and
// the test guard in $ZUT_HOME (lib/sandbox.mjs). Codex refuses a literal `rm -f`/`rm -rf` itself AFTER its PreToolUse
// hooks ("rm -f style commands are not permitted"), so the failure cases use `rm -r`, which it runs (the control).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { contractFixture } from './lib/fixtures.mjs';
import { callOutput } from './lib/responsesModel.mjs';
import { CLI, GUARD_NAME, sandboxEach } from './lib/sandbox.mjs';
import { logHookCommand, readHookLog } from './lib/scenario.mjs';
import { codexConfig, codexHooksList, prepareCodexHome, runCodex } from './lib/codex.mjs';

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'];
const DIED = 'zut-host hook ended without an answer: the call is blocked (fail closed)';
const shell = (cmd) => ({ tool: 'exec_command', input: { cmd } });

/**
 * `zut-host hook install --agent codex --scope user --with-mcp` as a user runs it; returns config.toml's path.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb
 */
function install(sb) {
  const config = prepareCodexHome(sb);
  const out = sb.cli(['hook', 'install', '--agent', 'codex', '--scope', 'user', '--with-mcp']);
  assert.match(out, /\.codex\/hooks\.json:/);
  assert.match(out, /trusted_hash = "sha256:/);
  assert.doesNotMatch(out, /will not run it yet/);
  return config;
}

/** What the model got back for its first call, with Codex's run for a failing assertion. */
const back = (r) => {
  const text = callOutput(r.main[1]?.body);
  assert.ok(text !== undefined, `the model never got its call's output back\n${r.said}`);
  return text;
};

describe('Codex CLI: install and trust', function () {
  const box = sandboxEach('codex');

  it('hook install writes hooks Codex itself lists as trusted (codex app-server hooks/list), and keeps the user\'s TOML', async function () {
    const sb = box();
    const config = install(sb);
    const hooks = (await codexHooksList(sb)).filter((h) => h.command.includes('--agent codex'));
    assert.deepEqual(hooks.map((h) => h.eventName).sort(), ['permissionRequest', 'postToolUse', 'preToolUse', 'sessionStart', 'stop', 'userPromptSubmit']);
    for (const h of hooks) assert.equal(h.trustStatus, 'trusted', `${h.key}: ${h.trustStatus}`);
    const text = fs.readFileSync(config, 'utf8');
    assert.ok(text.startsWith('model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'), 'the user\'s part changed');
    for (const h of hooks) assert.ok(text.includes(`[hooks.state."${h.key}"]\ntrusted_hash = "${h.currentHash}"`), `no trust for ${h.key}`);
    // Uninstalling takes out exactly ours: the file is byte for byte the user's again.
    sb.cli(['hook', 'uninstall', '--agent', 'codex', '--scope', 'user', '--with-mcp']);
    assert.equal(fs.readFileSync(config, 'utf8'), codexConfig());
    assert.ok(!fs.existsSync(path.join(sb.home, '.codex', 'hooks.json')));
  });

  it('a stale trusted_hash: Codex does not run the hook (hooks/list says so) and doctor reports it', async function () {
    const sb = box();
    const config = install(sb);
    const key = (await codexHooksList(sb)).find((h) => h.eventName === 'stop')?.key;
    const text = fs.readFileSync(config, 'utf8');
    const at = text.indexOf(`[hooks.state."${key}"]\ntrusted_hash = "sha256:`) + `[hooks.state."${key}"]\ntrusted_hash = "sha256:`.length;
    fs.writeFileSync(config, text.slice(0, at) + '0'.repeat(64) + text.slice(at + 64));
    assert.notEqual((await codexHooksList(sb)).find((h) => h.key === key)?.trustStatus, 'trusted');
    const doctor = spawnSync(process.execPath, [CLI, 'doctor'], { cwd: sb.ws, env: { PATH: process.env.PATH, HOME: sb.home, ...sb.zutEnv }, encoding: 'utf8', timeout: 30_000 });
    assert.match(doctor.stdout, /Codex CLI: hooks \(user\) NOT RUN/);
    assert.ok(doctor.stdout.includes(`Codex CLI (user): the hook ${key} is trusted for other content (stale trusted_hash)`), doctor.stdout);
  });
});

describe('Codex CLI: PreToolUse', function () {
  const box = sandboxEach('codex');

  it('`rm -rf <dir>` is denied by the guard: the directory stays, the model reads the reason; context reached the model', async function () {
    const sb = box();
    install(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runCodex(sb, [shell(`rm -rf ${victim}`), { text: 'done' }]);
    assert.ok(fs.existsSync(victim), 'the directory was removed');
    assert.equal(back(r), `Command blocked by PreToolUse hook: blocked by ${GUARD_NAME}: no rm -rf here. Command: rm -rf ${victim}`);
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => [l.tool_name, l.tool_args.command]), [['bash', `rm -rf ${victim}`]]);
    // The guard's turn_start context (UserPromptSubmit → additionalContext) is in what the model received.
    assert.ok(JSON.stringify(r.main[0].body.input).includes('guard context'), 'no guard context in the first request');
  });

  it('a harmless command runs (the guard judged it as bash)', async function () {
    const sb = box();
    install(sb);
    const r = await runCodex(sb, [shell('echo hi > ran.txt'), { text: 'done' }]);
    assert.equal(fs.readFileSync(path.join(sb.ws, 'ran.txt'), 'utf8'), 'hi\n', r.said);
    assert.ok(sb.guardSaw().some((l) => l.kind === 'intercept' && l.tool_name === 'bash' && l.tool_args.command === 'echo hi > ran.txt'));
  });

  it('a rewrite is a deny carrying the rewritten command (never an allow past Codex\'s own rules): nothing runs', async function () {
    const sb = box();
    install(sb);
    const r = await runCodex(sb, [shell('touch ZUT_REWRITE'), { text: 'done' }]);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'ZUT_REWRITE')) && !fs.existsSync(path.join(sb.ws, 'rewritten')), r.said);
    assert.equal(
      back(r),
      `Command blocked by PreToolUse hook: zut: the guard ${GUARD_NAME} rewrote this Bash call (not run); issue it as rewritten: touch rewritten. Command: touch ZUT_REWRITE`,
    );
  });

  it('apply_patch reaches the guard as one write per file (a "secret" path is denied, the file not written)', async function () {
    const sb = box();
    install(sb);
    const patch = '*** Begin Patch\n*** Add File: secret.txt\n+x\n*** End Patch\n';
    const r = await runCodex(sb, [{ custom: 'apply_patch', input: patch }, { text: 'done' }]);
    assert.ok(!fs.existsSync(path.join(sb.ws, 'secret.txt')), r.said);
    assert.match(back(r), new RegExp(`blocked by ${GUARD_NAME}: no secrets`));
    assert.ok(sb.guardSaw().some((l) => l.kind === 'intercept' && l.tool_name === 'write' && l.tool_args.path === 'secret.txt'));
  });

  it('a zut tool runs over MCP (mcp__zut namespace; the hook leaves our own tool to the MCP path)', async function () {
    const sb = box();
    const config = install(sb);
    // Codex passes MCP servers only the variables env_vars names: the test guard also needs its log's.
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('"XDG_STATE_HOME"]', '"XDG_STATE_HOME", "GUARD_LOG"]'));
    // gpt-5 (not in Codex's catalog): MCP tools offered directly, not behind tool_search.
    const r = await runCodex(sb, [{ tool: 'guard_status', namespace: 'mcp__zut', input: {} }, { text: 'done' }], { args: ['-c', 'model="gpt-5"'] });
    const offered = r.main[0].body.tools.find((t) => t.type === 'namespace' && t.name === 'mcp__zut');
    assert.ok(offered?.tools.some((t) => t.name === 'guard_status'), `zut's MCP tools were not offered\n${r.said}`);
    const out = back(r);
    assert.ok(out.includes('up') && !/blocked|unsupported call/.test(out), out);
    // Judged once, on the MCP path (zut's name `guard_status`): the hook left `mcp__zut__guard_status` to it.
    const judged = sb.guardSaw().filter((l) => l.kind === 'intercept' && l.event === 'tool_call');
    assert.deepEqual(judged.map((l) => l.tool_name), ['guard_status']);
  });

  it('a prompt the guard blocks (UserPromptSubmit decision "block") never reaches the model', async function () {
    const sb = box();
    install(sb);
    const r = await runCodex(sb, [{ text: 'should not be asked' }], { prompt: 'a forbidden prompt' });
    assert.equal(r.main.length, 0, `the model was asked\n${r.said}`);
    // `codex exec` prints only that the hook blocked it (the reason is the hook's, for an interactive session).
    assert.match(r.run.stderr, /hook: UserPromptSubmit Blocked/);
  });
});

describe('Codex CLI: fails closed', function () {
  const box = sandboxEach('codex');

  /** `rm -r <victim>` (which Codex runs by itself) under zut's installed hooks with `env`; the victim must survive. */
  async function victimSurvives(sb, env, extra = () => undefined, native = false) {
    install(sb);
    extra();
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    const r = await runCodex(sb, [shell(`rm -r ${victim}`), { text: 'done' }], { env, native });
    assert.ok(fs.existsSync(victim), `the directory was removed\n${r.said}`);
    return back(r);
  }

  it('control: without zut\'s hooks `rm -r <dir>` runs', async function () {
    const sb = box();
    prepareCodexHome(sb);
    const victim = path.join(sb.ws, 'victim');
    fs.mkdirSync(victim);
    await runCodex(sb, [shell(`rm -r ${victim}`), { text: 'done' }]);
    assert.ok(!fs.existsSync(victim));
  });

  it('our hook process dies before answering (Node cannot start): the wrapper turns it into Codex\'s deny', async function () {
    const sb = box();
    const out = await victimSurvives(sb, { NODE_OPTIONS: `--require ${path.join(sb.root, 'missing.cjs')}` }, undefined, true);
    // Codex shows the command's whole stderr: Node's own error, then the wrapper's line.
    assert.ok(out.startsWith('Command blocked by PreToolUse hook: ') && out.includes(DIED), out);
  });

  it('a guard that hangs: zut answers deny at its budget, before Codex\'s timeout', async function () {
    const sb = box();
    const guard = path.join(sb.root, 'hang.mjs');
    const out = await victimSurvives(sb, { ZUT_HOOK_BUDGET_SECONDS: '3' }, () => {
      fs.writeFileSync(guard, "process.stdout.write(JSON.stringify({type:'hello',protocol_version:2,name:'hang',version:'1',capabilities:[]})+'\\n');process.stdin.on('data',d=>{if(String(d).includes('hello_ack'))process.stdout.write(JSON.stringify({type:'subscribe',events:[],intercept:['tool_call']})+'\\n'+JSON.stringify({type:'ready'})+'\\n')});process.stdin.on('end',()=>process.exit(0));");
      sb.writeJson(path.join(sb.zutHome, 'extensions', 'hang', 'extension.json'), { name: 'hang', exec: process.execPath, args: [guard] });
    });
    // Observed: "… blocked by zut: zut-host hook: zut did not answer within 2 s. Command: rm -r …".
    assert.match(out, /^Command blocked by PreToolUse hook: blocked by zut: zut-host hook: zut did not answer within \d+ s\. Command: rm -r /);
  });

  it('a guard that answers garbage: the call is denied', async function () {
    const sb = box();
    const guard = path.join(sb.root, 'garbage.mjs');
    const out = await victimSurvives(sb, {}, () => {
      fs.writeFileSync(guard, "process.stdout.write(JSON.stringify({type:'hello',protocol_version:2,name:'garbage',version:'1',capabilities:[]})+'\\n');process.stdin.on('data',d=>{const s=String(d);if(s.includes('hello_ack'))process.stdout.write(JSON.stringify({type:'subscribe',events:[],intercept:['tool_call']})+'\\n'+JSON.stringify({type:'ready'})+'\\n');else if(s.includes('event_intercept'))process.stdout.write('}}garbage{{\\n')});");
      sb.writeJson(path.join(sb.zutHome, 'extensions', 'garbage', 'extension.json'), { name: 'garbage', exec: process.execPath, args: [guard] });
    });
    // The guard's garbage is no answer: the door denies when the guard cannot be heard in time.
    assert.match(out, /^Command blocked by PreToolUse hook: blocked by zut: guard garbage did not answer in time\. Command: rm -r /);
  });
});

describe('Codex CLI: hook payloads (fixtures)', function () {
  const box = sandboxEach('codex');

  it('captures every event\'s stdin, trusted through the hash Codex reports', async function () {
    const sb = box();
    const config = prepareCodexHome(sb);
    const log = path.join(sb.root, 'hooks.log');
    const file = path.join(sb.home, '.codex', 'hooks.json');
    const tool = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse']);
    sb.writeJson(file, { hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ ...(tool.has(e) && { matcher: '*' }), hooks: [{ type: 'command', command: logHookCommand(log, e), timeout: 30 }] }]])) });
    const listed = await codexHooksList(sb);
    fs.appendFileSync(config, listed.map((h) => `\n[hooks.state."${h.key}"]\ntrusted_hash = "${h.currentHash}"\n`).join(''));
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n';
    await runCodex(sb, [shell('echo hi'), { custom: 'apply_patch', input: patch }, { text: 'done' }]);
    const calls = readHookLog(log);
    for (const e of ['SessionStart', 'UserPromptSubmit', 'Stop']) contractFixture('codex', e, calls.find((c) => c.event === e)?.payload, sb.root);
    const pre = calls.filter((c) => c.event === 'PreToolUse').map((c) => c.payload);
    contractFixture('codex', 'PreToolUse', pre.find((p) => p.tool_name === 'Bash'), sb.root);
    contractFixture('codex', 'PreToolUse.apply_patch', pre.find((p) => p.tool_name === 'apply_patch'), sb.root);
    contractFixture('codex', 'PostToolUse', calls.find((c) => c.event === 'PostToolUse')?.payload, sb.root);
    assert.deepEqual(pre.map((p) => [p.tool_name, p.tool_input]), [['Bash', { command: 'echo hi' }], ['apply_patch', { command: patch }]]);
  });
});

describe('Codex CLI: skills', function () {
  const box = sandboxEach('codex');

  it("offers zut's skill tool and SessionStart's list of skills up front, and the SKILL.md only when the model calls it", async function () {
    const sb = box();
    const config = install(sb);
    sb.addExample('weather');
    const skillFile = path.join(sb.addExample('briefing'), 'skills', 'weather-briefing', 'SKILL.md');
    const body = ['# Weather briefing', 'never guess the weather'];
    for (const b of body) assert.ok(fs.readFileSync(skillFile, 'utf8').includes(b));
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('"XDG_STATE_HOME"]', '"XDG_STATE_HOME", "GUARD_LOG"]'));
    const r = await runCodex(sb, [{ tool: 'skill', namespace: 'mcp__zut', input: { name: 'weather-briefing' } }, { text: 'Here is your briefing.' }], { args: ['-c', 'model="gpt-5"'] });
    const first = r.main[0].body;
    const tool = first.tools.find((t) => t.type === 'namespace' && t.name === 'mcp__zut')?.tools.find((t) => t.name === 'skill');
    assert.ok(tool?.description.includes('- weather-briefing (from briefing): '), `no skill tool listing the skill\n${r.said}`);
    // zut's SessionStart hook lists the skill with its SKILL.md's path (additionalContext), not its body.
    const upFront = JSON.stringify(first.input);
    assert.ok(upFront.includes('weather-briefing (from briefing)') && upFront.includes(JSON.stringify(skillFile).slice(1, -1)), `no SessionStart context listing the skill: ${upFront.slice(0, 2000)}`);
    for (const b of body) assert.ok(!upFront.includes(b), `"${b}" reached the model up front`);
    const out = back(r);
    for (const b of body) assert.ok(out.includes(b), `"${b}" is not in the tool's output: ${out.slice(0, 500)}`);
  });
});
