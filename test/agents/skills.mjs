#!/usr/bin/env node
// @ts-check
// Real agents, offline: Claude Code and Copilot CLI with `zut-host mcp` as an MCP server (and, for Claude Code, the
// SessionStart hook `zut-host hook --agent claude SessionStart`) over the example `briefing` extension, against a
// scripted Anthropic Messages server on 127.0.0.1 that records every request. Shows what each agent is offered up
// front (the `skill` tool's description; Claude's SessionStart context) and that the SKILL.md reaches the model only
// when the model asks for it (the tool_result of the second request). Not part of `npm test`: it needs the agents
// installed outside the repository (see /work/shared/recipes/real-agents/README.md, or any machine with them):
//
//   ZUT_AGENTS=~/.cache/zut-agents node test/agents/skills.mjs      (after `npm run build`; ZUT_AGENTS_KEEP=1 keeps
//                                                                  each sandbox and its requests.json)
//
// ZUT_AGENTS is the npm prefix holding @anthropic-ai/claude-code and @github/copilot (their binaries in
// node_modules/.bin). Exit 0 when every check passed; each check is printed with what it saw.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const AGENTS = path.resolve((process.env.ZUT_AGENTS ?? path.join(os.homedir(), '.cache', 'zut-agents')).replace(/^~/, os.homedir()));
const BIN = (name) => path.join(AGENTS, 'node_modules', '.bin', name);
const RUN_MS = 120_000;
const SKILL_LINE = "- weather-briefing (from briefing): Write a short travel weather briefing for one or more cities with the weather extension's tools.";

let failures = 0;
function check(what, ok, seen) {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}${ok ? '' : `\n     saw: ${seen}`}`);
  if (!ok) failures++;
}

/** A scripted Anthropic Messages server: a tool_use of the skill tool first, then text once the result is back. */
function modelServer() {
  /** @type {any[]} */
  const requests = [];
  const proxied = [];
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/')) {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(403).end();
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url.includes('count_tokens')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
      if (!req.url.startsWith('/v1/messages')) return void res.writeHead(404).end();
      const json = JSON.parse(body || '{}');
      requests.push(json);
      const tools = (json.tools ?? []).map((t) => t.name);
      const skillTool = tools.find((n) => /zut/.test(n) && /skill$/.test(n));
      const results = JSON.stringify(json.messages ?? []).includes('tool_result');
      const blocks = skillTool && !results
        ? [{ type: 'tool_use', id: `toolu_${requests.length}`, name: skillTool, input: { name: 'weather-briefing' } }]
        : [{ type: 'text', text: results ? 'Here is your briefing.' : 'ok' }];
      sse(res, json.model ?? 'claude-sonnet-4-5', blocks);
    });
  });
  server.on('connect', (req, socket) => {
    proxied.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, proxied, port: /** @type {any} */ (server.address()).port })));
}

/** Writes a streamed Messages response with `blocks`. */
function sse(res, model, blocks) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    send('content_block_stop', { index });
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

/** Runs `cmd args` with `env` in `cwd`; resolves with its output once it exits (killed after RUN_MS). */
function run(cmd, args, env, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A fresh home with the example briefing and weather extensions as global zut extensions, and a workspace. */
function sandbox(name) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `zut-agent-${name}-`));
  const home = path.join(base, 'home');
  const zutHome = path.join(base, 'zut-home');
  const workspace = path.join(base, 'workspace');
  for (const ext of ['briefing', 'weather']) fs.cpSync(path.join(ROOT, 'examples', 'workspace', '.zut', 'extensions', ext), path.join(zutHome, 'extensions', ext), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  const mcp = { command: process.execPath, args: [CLI, 'mcp', '--cwd', workspace], env: { ZUT_HOME: zutHome } };
  return { base, home, zutHome, workspace, mcp, skillFile: fs.realpathSync(path.join(zutHome, 'extensions', 'briefing', 'skills', 'weather-briefing', 'SKILL.md')) };
}

const text = (v) => JSON.stringify(v);
/** The tool_result text the model got back for the skill call (any request after the first). */
const skillResult = (requests) => requests.map((r) => text(r.messages)).find((m) => m.includes('tool_result') && m.includes('Weather briefing')) ?? '';

async function claude(model) {
  const s = sandbox('claude');
  // The SessionStart hook, as "Zut: Guard Agent Tools…" writes it for the workspace (here the CLI bundle itself).
  fs.mkdirSync(path.join(s.workspace, '.claude'), { recursive: true });
  const hook = `"${process.execPath}" "${CLI}" hook --agent claude SessionStart`;
  fs.writeFileSync(path.join(s.workspace, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook }] }] } }));
  fs.writeFileSync(path.join(s.base, 'mcp.json'), JSON.stringify({ mcpServers: { zut: s.mcp } }));
  const env = {
    PATH: process.env.PATH, HOME: s.home, ZUT_HOME: s.zutHome,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${model.port}`, ANTHROPIC_API_KEY: 'test', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ENABLE_TOOL_SEARCH: 'false',
    HTTPS_PROXY: `http://127.0.0.1:${model.port}`, HTTP_PROXY: `http://127.0.0.1:${model.port}`, NO_PROXY: '127.0.0.1,localhost',
  };
  const r = await run(BIN('claude'), ['-p', 'Brief me on the weather for a trip to Paris.', '--output-format', 'json', '--mcp-config', path.join(s.base, 'mcp.json'), '--strict-mcp-config', '--allowedTools', 'mcp__zut__skill'], env, s.workspace);
  const main = model.requests.filter((q) => (q.tools ?? []).some((t) => t.name === 'mcp__zut__skill'));
  const first = main[0];
  const tool = first?.tools.find((t) => t.name === 'mcp__zut__skill');
  check('Claude Code: the first request offers mcp__zut__skill, the skill listed in its description', Boolean(tool?.description?.includes(SKILL_LINE)), tool ? tool.description : `no such tool (exit ${r.code}): ${r.out.slice(-800)}`);
  const context = text(first?.messages ?? []) + text(first?.system ?? '');
  check('Claude Code: the SessionStart hook put the skill and its SKILL.md path in the context', context.includes('weather-briefing (from briefing)') && context.includes(s.skillFile.replace(/\\/g, '\\\\')), context.slice(0, 1500));
  check('Claude Code: no SKILL.md body in the first request (progressive disclosure)', !context.includes('Weather briefing\\n') && !context.includes('# Weather briefing'), 'the body was sent up front');
  const result = skillResult(main);
  check('Claude Code: the skill call came back with the SKILL.md (its folder named first)', result.includes('Skill \\"weather-briefing\\" of the zut extension briefing') && result.includes('# Weather briefing'), result.slice(0, 800) || `exit ${r.code}: ${r.out.slice(-800)}`);
  return s;
}

async function copilot(model) {
  const s = sandbox('copilot');
  fs.writeFileSync(path.join(s.base, 'mcp.json'), JSON.stringify({ mcpServers: { zut: { type: 'local', ...s.mcp, tools: ['*'] } } }));
  const env = {
    PATH: process.env.PATH, HOME: s.home, ZUT_HOME: s.zutHome, COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${model.port}`, COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_PROVIDER_API_KEY: 'test', COPILOT_MODEL: 'claude-sonnet-4.5',
    HTTPS_PROXY: `http://127.0.0.1:${model.port}`, HTTP_PROXY: `http://127.0.0.1:${model.port}`, NO_PROXY: '127.0.0.1,localhost',
  };
  const r = await run(BIN('copilot'), ['-p', 'Brief me on the weather for a trip to Paris.', '--allow-all-tools', '--trust-folder', '--output-format', 'json', '--disable-client-telemetry', '--additional-mcp-config', `@${path.join(s.base, 'mcp.json')}`], env, s.workspace);
  const main = model.requests.filter((q) => (q.tools ?? []).some((t) => /zut/.test(t.name) && /skill$/.test(t.name)));
  const tool = main[0]?.tools.find((t) => /zut/.test(t.name) && /skill$/.test(t.name));
  check(`Copilot CLI: the first request offers the skill tool (${tool?.name ?? 'none'}), the skill listed in its description`, Boolean(tool?.description?.includes(SKILL_LINE)), tool ? tool.description : `no zut skill tool (exit ${r.code}; tools: ${(model.requests.at(-1)?.tools ?? []).map((t) => t.name).join(', ')}): ${r.out.slice(-800)}`);
  check('Copilot CLI: no SKILL.md body in the first request', main[0] ? !text(main[0].messages).includes('# Weather briefing') : false, 'no request');
  const result = skillResult(main);
  check('Copilot CLI: the skill call came back with the SKILL.md', result.includes('# Weather briefing'), result.slice(0, 800) || `exit ${r.code}: ${r.out.slice(-800)}`);
  return s;
}

if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
for (const agent of [['claude', claude], ['copilot', copilot]]) {
  const [name, fn] = /** @type {[string, (m: any) => Promise<{ base: string }>]} */ (agent);
  if (!fs.existsSync(BIN(name))) {
    check(`${name} installed under ${AGENTS}`, false, 'not found');
    continue;
  }
  const model = await modelServer();
  let s;
  try {
    s = await fn(model);
    check(`${name}: nothing left the machine`, model.proxied.length === 0, model.proxied.join(', '));
  } finally {
    model.server.close();
    // ZUT_AGENTS_KEEP=1 keeps the sandbox and the recorded requests (requests.json) to read.
    if (s && process.env.ZUT_AGENTS_KEEP) {
      fs.writeFileSync(path.join(s.base, 'requests.json'), JSON.stringify(model.requests, null, 2));
      console.log(`kept ${s.base}`);
    } else if (s) fs.rmSync(s.base, { recursive: true, force: true });
  }
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
