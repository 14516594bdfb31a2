// @ts-check
// opencode (opencode-ai 1.18.33, its Linux binary from the package's optional dependency, which npm put in place
// as bin/opencode.exe: `opencode --version` runs without the postinstall) run once in a sandbox: `opencode run
// PROMPT` against the scripted Chat Completions model (openaiChatModel.mjs) as an "OpenAI-compatible" provider written
// into the workspace's opencode.json, with a fresh HOME and the model server as its HTTP(S) proxy. opencode installs
// `@opencode-ai/plugin` into each configuration folder it reads (`~/.config/opencode`, the project's `.opencode`) in
// the background, from npm — that would leave the machine (and waits 16 s for the refusal): each folder is marked as
// installed (a node_modules folder and a package-lock naming it), as it is on a machine where opencode once ran
// online; zut's plugin imports nothing from it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, runAgent } from './agents.mjs';
import { startChatModel } from './openaiChatModel.mjs';

/** The prompt every run gives (the scripted model ignores it). */
const PROMPT = 'Do what the test says.';

/** Marks opencode's configuration folder `dir` as having its plugin package (no npm install at start). */
export function markPluginInstalled(dir) {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const lock = path.join(dir, 'package-lock.json');
  if (!fs.existsSync(lock)) fs.writeFileSync(lock, JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } }));
}

/**
 * Runs opencode once in `sb.ws` with `script`; the run must end by itself with exit 0, and nothing may try to leave.
 * @param {import('./sandbox.mjs').Sandbox} sb @param {import('./model.mjs').Step[]} script
 * @param {{ env?: NodeJS.ProcessEnv, model?: string, prompt?: string, allowFailure?: boolean }} [o] (`allowFailure`: opencode may exit non-zero)
 */
export async function runOpencode(sb, script, o = {}) {
  const model = await startChatModel(script);
  try {
    const config = path.join(sb.ws, 'opencode.json');
    const own = fs.existsSync(config) ? JSON.parse(fs.readFileSync(config, 'utf8')) : {};
    const id = o.model ?? 'scripted';
    fs.writeFileSync(
      config,
      JSON.stringify({
        ...own,
        model: `fake/${id}`,
        autoupdate: false,
        share: 'disabled',
        provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${model.url}/v1`, apiKey: 'sk-offline-test' }, models: { [id]: { name: id, tool_call: true } } } },
      }),
    );
    for (const dir of [path.join(sb.home, '.config', 'opencode'), path.join(sb.ws, '.opencode')]) markPluginInstalled(dir);
    const env = {
      PATH: process.env.PATH,
      HOME: sb.home,
      USER: 'zut-test',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      HTTPS_PROXY: model.url,
      HTTP_PROXY: model.url,
      https_proxy: model.url,
      http_proxy: model.url,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_SHARE: '1',
      ...sb.zutEnv,
      ...o.env,
    };
    const r = await runAgent(agentBin('opencode'), ['run', '--print-logs', o.prompt ?? PROMPT], { cwd: sb.ws, env });
    const said = `opencode run\nexit ${r.code} ${r.signal ?? ''} after ${r.ms} ms\nstderr: ${r.stderr.slice(-3000)}\nstdout: ${r.stdout.slice(-1500)}`;
    assert.ok(!r.timedOut, `opencode did not finish within its deadline:\n${said}`);
    if (!o.allowFailure) assert.equal(r.code, 0, `opencode failed:\n${said}`);
    assert.deepEqual(model.escapes, [], `something tried to leave the machine through the proxy:\n${said}`);
    return { run: r, main: model.main(), requests: model.requests, said };
  } finally {
    await model.close();
  }
}

/** What the model got back for its tool call of main-loop step `step`: the tool message of the next request. */
export function toolAnswer(main, step = 0) {
  const next = main[step + 1];
  assert.ok(next, `opencode never came back to the model after its tool call (${main.length} main-loop requests)`);
  const tools = (next.body.messages ?? []).filter((m) => m.role === 'tool');
  assert.ok(tools.length > 0, 'the next request carries no tool message');
  const c = tools.at(-1).content;
  return typeof c === 'string' ? c : JSON.stringify(c);
}
