// @ts-check
// Codex CLI 0.169.0 offline (the recipe: shared/recipes/real-agents): a sandbox HOME whose ~/.codex/config.toml
// names the scripted Responses model (responsesModel.mjs) as its provider `fake` with analytics and plugins off; the
// model's address is given per run with `-c model_providers.fake.base_url=…`, so the rest of config.toml is what the
// test (or `zut-host hook install`) wrote. `codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox
// -C <ws> <prompt>` runs one turn; the model server is also the proxy (nothing may leave the machine). Also Codex's
// own view of its hooks (`codex app-server`, JSON-RPC `hooks/list`: each hook's key, currentHash and trustStatus).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { agentBin, agentsCache, runAgent } from './agents.mjs';
import { startResponsesModel } from './responsesModel.mjs';
import { PROMPT } from './scenario.mjs';

/** A model in Codex's own catalog (its tools include the freeform apply_patch; no "metadata not found" warning). */
export const CODEX_MODEL = 'gpt-5.5';
/** `codex app-server`'s deadline for `hooks/list`. */
const APP_SERVER_MS = 20_000;

/** The provider part of the sandbox's config.toml (root keys first, as TOML needs). */
export function codexConfig() {
  return [
    `model = "${CODEX_MODEL}"`,
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    'base_url = "http://127.0.0.1:9/v1"',
    'env_key = "ZUT_FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'tool_search = false',
    '',
  ].join('\n');
}

/** Writes ~/.codex/config.toml in the sandbox's HOME (before `hook install`, which adds to it); returns its path. */
export function prepareCodexHome(/** @type {import('./sandbox.mjs').Sandbox} */ sb) {
  const file = path.join(sb.home, '.codex', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, codexConfig());
  return file;
}

/** Codex's environment: the sandbox's HOME and zut's, the model as proxy, nothing of this machine's user. */
function codexEnv(sb, model, extra) {
  return {
    PATH: process.env.PATH,
    HOME: sb.home,
    USER: 'zut-test',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    ZUT_FAKE_OPENAI_KEY: 'sk-offline-test',
    HTTPS_PROXY: model.url,
    HTTP_PROXY: model.url,
    https_proxy: model.url,
    http_proxy: model.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...sb.zutEnv,
    ...extra,
  };
}

/**
 * One `codex exec` turn against a scripted model; must end by itself with exit 0, nothing leaving the machine.
 * @param {import('./sandbox.mjs').Sandbox} sb @param {import('./responsesModel.mjs').Step[]} script
 * `native` runs Codex's native binary rather than its npm launcher (a Node script), for an environment Node itself
 * cannot start in (NODE_OPTIONS naming a missing module: what a hook's Node dying at once looks like).
 * @param {{ prompt?: string, env?: NodeJS.ProcessEnv, args?: string[], native?: boolean }} [o]
 */
export async function runCodex(sb, script, o = {}) {
  const model = await startResponsesModel(script);
  try {
    const args = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-c', `model_providers.fake.base_url="${model.url}/v1"`, ...(o.args ?? []), '-C', sb.ws, o.prompt ?? PROMPT];
    const r = await runAgent(o.native ? codexNativeBin() : agentBin('codex'), args, { cwd: sb.ws, env: codexEnv(sb, model, o.env) });
    const said = `codex ${args.join(' ')}\nexit ${r.code} ${r.signal ?? ''} after ${r.ms} ms\nstderr: ${r.stderr.slice(-3000)}\nstdout: ${r.stdout.slice(-1000)}`;
    assert.ok(!r.timedOut, `Codex did not finish within its deadline:\n${said}`);
    assert.equal(r.code, 0, `Codex failed:\n${said}`);
    assert.deepEqual(model.escapes, [], 'something tried to leave the machine through the proxy');
    return { run: r, said, main: model.main(), requests: model.requests };
  } finally {
    await model.close();
  }
}

/** Codex's native binary in the agents' cache (`@openai/codex-<platform>/vendor/<triple>/bin/codex`). */
export function codexNativeBin() {
  const scope = path.join(agentsCache(), 'node_modules', '@openai');
  for (const pkg of fs.readdirSync(scope).filter((d) => d.startsWith('codex-'))) {
    const vendor = path.join(scope, pkg, 'vendor');
    for (const triple of fs.existsSync(vendor) ? fs.readdirSync(vendor) : []) {
      const bin = path.join(vendor, triple, 'bin', 'codex');
      if (fs.existsSync(bin)) return bin;
    }
  }
  throw new Error(`no native Codex binary under ${scope}`);
}

/**
 * Codex's own list of the hooks it would run in the workspace (`codex app-server`, `hooks/list`).
 * @param {import('./sandbox.mjs').Sandbox} sb
 * @returns {Promise<{ key: string, eventName: string, command: string, currentHash: string, trustStatus: string }[]>}
 */
export function codexHooksList(sb) {
  return new Promise((resolve, reject) => {
    const child = spawn(agentBin('codex'), ['app-server'], { cwd: sb.ws, env: { PATH: process.env.PATH, HOME: sb.home, ZUT_FAKE_OPENAI_KEY: 'x', NO_PROXY: '*' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codex app-server: no hooks/list answer within ${APP_SERVER_MS} ms`));
    }, APP_SERVER_MS);
    const send = (o) => child.stdin.write(JSON.stringify(o) + '\n');
    child.stdout.on('data', (d) => {
      buf += d;
      for (const line of buf.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === 1) {
          send({ jsonrpc: '2.0', method: 'initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [sb.ws] } });
        } else if (m.id === 2) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          if (m.error) reject(new Error(`hooks/list: ${JSON.stringify(m.error)}`));
          else resolve(m.result.data[0].hooks);
        }
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    child.on('error', reject);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'zut-test', version: '1' } } });
  });
}
