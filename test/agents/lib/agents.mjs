// @ts-check
// The real agent CLIs, pinned, and how a scenario runs them offline: Claude Code and GitHub Copilot CLI installed with
// npm into a cache OUTSIDE the repository ($ZUT_AGENTS_CACHE, default ~/.cache/zut-vscode-agents; never in
// package.json), then run in prompt mode (`-p`) against the scripted model (model.mjs) with a fresh HOME, no sign-in,
// no telemetry or update check, and the model server as their HTTP(S) proxy so anything that tries to leave the
// machine is refused and recorded. Every run has a deadline; the agent's whole process group is killed at its end.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLAUDE_CODE = '@anthropic-ai/claude-code@2.1.328';
export const COPILOT_CLI = '@github/copilot@1.0.102';
/** One agent run's deadline (a scripted run takes 1–10 s here). */
export const AGENT_RUN_MS = 90_000;
/** The npm install's deadline (about 570 MB of two native binaries). */
const INSTALL_MS = 15 * 60_000;

/** Process groups of agents running now (each run is a group of its own: the agent, its hooks, its MCP servers). */
const live = new Set();

/** Kills every agent run still going, with all it started (the runner's Ctrl+C). */
export function killAgentsSync() {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  live.clear();
}

/** The cache the agents are installed into. */
export function agentsCache() {
  return path.resolve(process.env.ZUT_AGENTS_CACHE || path.join(os.homedir(), '.cache', 'zut-vscode-agents'));
}

const bin = (name) => path.join(agentsCache(), 'node_modules', '.bin', name);
const installedVersion = (pkg) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(agentsCache(), 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

/**
 * The pinned agents: npm package spec and the binary it puts in node_modules/.bin. One row per agent; a scenario
 * file of an agent reads its binary with `agentBin(name)`.
 */
export const AGENT_PACKAGES = [
  { spec: CLAUDE_CODE, bin: 'claude' },
  { spec: COPILOT_CLI, bin: 'copilot' },
  { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
  { spec: 'opencode-ai@1.18.33', bin: 'opencode' },
  { spec: '@openai/codex@0.169.0', bin: 'codex' },
  { spec: 'cline@3.0.65', bin: 'cline' },
  // Qwen Code needs Node >= 22 (`node`: the major it needs; scenarios run it with such a Node, lib/agents.mjs agentNode).
  { spec: '@qwen-code/qwen-code@0.24.4', bin: 'qwen', node: 22 },
];

const nameOf = (spec) => spec.slice(0, spec.lastIndexOf('@'));
const versionOf = (spec) => spec.slice(spec.lastIndexOf('@') + 1);

/** The binary `name` of an installed agent (ensureAgents has run). */
export const agentBin = (name) => bin(name);

/**
 * Installs the pinned agents into the cache when any is missing or another version; returns their binaries and
 * versions (`versions`: package name → version).
 * @param {(line: string) => void} [log]
 */
export function ensureAgents(log = () => undefined) {
  const wanted = AGENT_PACKAGES.map((a) => a.spec);
  const missing = AGENT_PACKAGES.filter((a) => installedVersion(nameOf(a.spec)) !== versionOf(a.spec) || !fs.existsSync(bin(a.bin))).map((a) => a.spec);
  if (missing.length) {
    const cache = agentsCache();
    fs.mkdirSync(cache, { recursive: true });
    log(`installing ${missing.join(' ')} into ${cache} (once; about 570 MB)`);
    // Free of the outer `npm run`'s npm_* variables, so this install is not taken for a part of the repository's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k)));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--prefix', cache, '--no-audit', '--no-fund', '--save-exact', ...wanted], { env, stdio: 'inherit', timeout: INSTALL_MS });
    if (r.status !== 0) throw new Error(`npm install --prefix ${cache} ${wanted.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  const versions = Object.fromEntries(AGENT_PACKAGES.map((a) => [nameOf(a.spec), installedVersion(nameOf(a.spec))]));
  return { claude: bin('claude'), copilot: bin('copilot'), claudeVersion: installedVersion('@anthropic-ai/claude-code'), copilotVersion: installedVersion('@github/copilot'), versions };
}

/** The environment both agents share: nothing of this machine's user, the model server as the only way out. */
function baseEnv(home, model, extra) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { PATH: process.env.PATH, HOME: home, USER: 'zut-test', LANG: 'C.UTF-8', TERM: 'dumb', TMPDIR: os.tmpdir() };
  Object.assign(env, { HTTPS_PROXY: model.url, HTTP_PROXY: model.url, https_proxy: model.url, http_proxy: model.url, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' });
  return { ...env, ...extra };
}

/**
 * The environment of Claude Code against `model` (the recipe: shared/recipes/real-agents).
 * @param {string} home @param {{ url: string }} model @param {NodeJS.ProcessEnv} [extra]
 */
export function claudeEnv(home, model, extra = {}) {
  return baseEnv(home, model, {
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-ant-offline-test',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ENABLE_TOOL_SEARCH: 'false',
    ...extra,
  });
}

/**
 * Readies a fresh HOME for Copilot CLI: it unpacks itself (~235 MB) into $XDG_CACHE_HOME/copilot/pkg on its first
 * run; that one folder is shared through the agents' cache (a link), so it happens once per cache rather than once
 * per scenario (5–8 s a run here). Everything else it caches (MCP tool lists, ids) stays in the fresh HOME.
 * @param {string} home
 */
export function prepareCopilotHome(home) {
  const shared = path.join(agentsCache(), 'copilot-pkg');
  fs.mkdirSync(shared, { recursive: true });
  fs.mkdirSync(path.join(home, '.cache', 'copilot'), { recursive: true });
  fs.symlinkSync(shared, path.join(home, '.cache', 'copilot', 'pkg'));
}

/**
 * The environment of Copilot CLI against `model` (a HOME readied by prepareCopilotHome).
 * @param {string} home @param {{ url: string }} model @param {NodeJS.ProcessEnv} [extra]
 */
export function copilotEnv(home, model, extra = {}) {
  return baseEnv(home, model, {
    XDG_CACHE_HOME: path.join(home, '.cache'),
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: model.url,
    COPILOT_PROVIDER_TYPE: 'anthropic',
    COPILOT_PROVIDER_API_KEY: 'sk-offline-test',
    COPILOT_MODEL: 'claude-sonnet-4.5',
    COPILOT_AUTO_UPDATE: 'false',
    ...extra,
  });
}

/**
 * Runs `file args` in `cwd` to its end (or the deadline, then its whole process group is killed).
 * @param {string} file @param {string[]} args @param {{ cwd: string, env: NodeJS.ProcessEnv, timeoutMs?: number }} o
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string, ms: number, timedOut: boolean }>}
 */
export function runAgent(file, args, o) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid) live.add(child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, o.timeoutMs ?? AGENT_RUN_MS);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // hooks or MCP servers it left behind
      live.delete(child.pid);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** Claude Code's `--output-format json` result (the last JSON line of stdout). */
export function claudeResult(stdout) {
  const lines = stdout.trim().split('\n').filter((l) => l.startsWith('{'));
  return lines.length ? JSON.parse(lines[lines.length - 1]) : undefined;
}

/** Copilot CLI's `--output-format json` events (one JSON object per line). */
export function copilotEvents(stdout) {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/**
 * The Node to run agent `binName` with, when its row names the major it needs (`node`): this Node when new enough,
 * else $ZUT_AGENTS_NODE, else a Node 22+ under ~/.cache/zut-vscode-tools (code-server's, fetched by the VS Code
 * suites); undefined when the row needs none. Throws, naming what to set, when none is found. zut's own hook and MCP
 * server keep running on the Node that runs the tests.
 * @param {string} binName
 */
export function agentNode(binName) {
  const row = AGENT_PACKAGES.find((a) => a.bin === binName);
  const need = row && 'node' in row ? Number(row.node) : 0;
  if (!need) return undefined;
  const major = (/** @type {string} */ v) => Number(v.replace(/^v/, '').split('.')[0]);
  if (major(process.version) >= need) return process.execPath;
  const candidates = [process.env.ZUT_AGENTS_NODE ?? ''];
  const tools = path.join(os.homedir(), '.cache', 'zut-vscode-tools');
  if (fs.existsSync(tools)) for (const d of fs.readdirSync(tools)) candidates.push(path.join(tools, d, 'node_modules', 'node', 'bin', 'node'));
  for (const c of candidates.filter(Boolean)) {
    const r = fs.existsSync(c) ? spawnSync(c, ['--version'], { encoding: 'utf8', timeout: 10_000 }) : undefined;
    if (r?.status === 0 && major(r.stdout.trim()) >= need) return c;
  }
  throw new Error(`${row?.spec} needs Node >= ${need} (this is ${process.version}): set ZUT_AGENTS_NODE to one`);
}
