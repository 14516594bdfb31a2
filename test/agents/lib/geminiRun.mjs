// @ts-check
// Gemini CLI 0.61.0 runs for the scenarios (the recipe: shared/recipes/real-agents): `gemini --yolo -p <prompt>` in
// the sandbox's workspace against the scripted Gemini model (geminiModel.mjs, `GOOGLE_GEMINI_BASE_URL`), with a fresh
// HOME whose ~/.gemini/settings.json selects API-key auth (else exit 41) and turns usage statistics off, the model
// server as the only way out (HTTP(S)_PROXY), and the workspace trusted in ~/.gemini/trustedFolders.json (as the
// user would: zut never writes that file) unless the scenario says not to. Every run has a deadline (runAgent).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentBin, ensureAgents, runAgent } from './agents.mjs';
import { startGeminiModel } from './geminiModel.mjs';
import { PROMPT } from './scenario.mjs';

/**
 * The settings Gemini CLI needs to run offline here, written before zut's installer merges into them.
 * @param {import('./sandbox.mjs').Sandbox} sb @param {{ trust?: boolean }} [o]
 */
export function prepareGeminiHome(sb, o = {}) {
  sb.writeJson(path.join(sb.home, '.gemini', 'settings.json'), { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } });
  if (o.trust !== false) sb.writeJson(path.join(sb.home, '.gemini', 'trustedFolders.json'), { [sb.ws]: 'TRUST_FOLDER' });
}

/**
 * One run: `gemini --yolo -p PROMPT` (plus `args`), `env` over the offline environment. `expectExit` (default 0).
 * @param {import('./sandbox.mjs').Sandbox} sb @param {import('./geminiModel.mjs').Step[]} script
 * @param {{ args?: string[], env?: NodeJS.ProcessEnv, expectExit?: number, prompt?: string }} [o]
 */
export async function runGemini(sb, script, o = {}) {
  ensureAgents();
  const model = await startGeminiModel(script);
  try {
    /** @type {NodeJS.ProcessEnv} */
    const env = {
      PATH: process.env.PATH,
      HOME: sb.home,
      USER: 'zut-test',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: os.tmpdir(),
      HTTPS_PROXY: model.url,
      HTTP_PROXY: model.url,
      https_proxy: model.url,
      http_proxy: model.url,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: 'offline-test-key',
      ...sb.zutEnv,
      ...o.env,
    };
    const args = ['--yolo', '-p', o.prompt ?? PROMPT, ...(o.args ?? [])];
    const r = await runAgent(agentBin('gemini'), args, { cwd: sb.ws, env });
    const said = `gemini ${args.join(' ')}\nexit ${r.code} ${r.signal ?? ''} after ${r.ms} ms\nstderr: ${r.stderr.slice(-3000)}\nstdout: ${r.stdout.slice(-2000)}`;
    assert.ok(!r.timedOut, `Gemini CLI did not finish within its deadline:\n${said}`);
    assert.equal(r.code, o.expectExit ?? 0, `Gemini CLI's exit:\n${said}`);
    assert.deepEqual(model.escapes, [], 'something tried to leave the machine through the proxy');
    return { run: r, said, main: model.main(), requests: model.requests };
  } finally {
    await model.close();
  }
}

/**
 * What the model got back for its function call: the functionResponse of the main-loop request after the one that
 * asked for it, and its text (Gemini CLI's `response.output`, or `response.error`).
 * @param {{ body: any }[]} main @param {number} [step]
 */
export function afterFunctionCall(main, step = 0) {
  const next = main[step + 1];
  assert.ok(next, `Gemini CLI never came back to the model after its function call (${main.length} main-loop requests)`);
  const contents = next.body.contents ?? [];
  const part = contents
    .flatMap((c) => c.parts ?? [])
    .filter((p) => p.functionResponse)
    .at(-1);
  assert.ok(part, `the next request carries no functionResponse: ${JSON.stringify(contents.slice(-2)).slice(0, 1500)}`);
  const response = part.functionResponse.response ?? {};
  const text = typeof response.output === 'string' ? response.output : typeof response.error === 'string' ? response.error : JSON.stringify(response);
  return { response: part.functionResponse, text, all: JSON.stringify(contents) };
}

/** A `zut-host hook install --agent gemini --scope user --with-mcp` as a user runs it; returns its output. @param {import('./sandbox.mjs').Sandbox} sb */
export function installGemini(sb) {
  const out = sb.cli(['hook', 'install', '--agent', 'gemini', '--scope', 'user', '--with-mcp']);
  const settings = JSON.parse(fs.readFileSync(path.join(sb.home, '.gemini', 'settings.json'), 'utf8'));
  assert.equal(settings.security.auth.selectedType, 'gemini-api-key', 'the installer lost the user\'s settings');
  const commands = settings.hooks.BeforeTool.flatMap((e) => e.hooks.map((h) => h.command));
  assert.ok(commands.some((c) => /dist\/hook\.js' hook --agent gemini BeforeTool \|\| /.test(c)), `no zut entry: ${commands.join('; ')}`);
  return out;
}
