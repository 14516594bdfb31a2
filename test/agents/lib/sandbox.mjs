// @ts-check
// One scenario's private world: a temp directory holding the agent's workspace, a fresh HOME, a $ZUT_HOME whose
// extensions/ has the test guard (test/unit/fixtures/hooks/guard.mjs, logging every event to $GUARD_LOG), an empty
// $ZOT_HOME, and an empty private $ZUT_HOOKS_DIR (so a hook never asks a zut-vscode window running on this machine:
// a window whose folder is a parent of the sandbox would otherwise answer for it); helpers to run the project's own
// CLI (dist/cli.js: `hook install`, `mcp`) there, to add the repository's example extensions, to write an agent's
// MCP config for `zut-host mcp` and to read the guard's log. Removed at the end unless the test failed or
// ZUT_AGENTS_KEEP=1.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');
export const GUARD = path.join(REPO, 'test', 'unit', 'fixtures', 'hooks', 'guard.mjs');
export const GUARD_NAME = 'hook-guard';
/** The example workspace's zut extensions (examples/workspace/.zut/extensions/<name>). */
export const EXAMPLES = path.join(REPO, 'examples', 'workspace', '.zut', 'extensions');
/** `zut-host hook install`'s deadline. */
const CLI_MS = 30_000;

/** @typedef {ReturnType<typeof sandbox>} Sandbox */

/**
 * A fresh sandbox.
 * @param {string} name
 */
export function sandbox(name) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `zut-agents-${name}-`)));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const zutHome = path.join(root, 'zut-home');
  const guardLog = path.join(root, 'guard.log');
  const hooksDir = path.join(root, 'zut-hooks');
  for (const d of [ws, home, path.join(root, 'no-zot')]) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(hooksDir, { mode: 0o700 });
  const guardDir = path.join(zutHome, 'extensions', GUARD_NAME);
  fs.mkdirSync(guardDir, { recursive: true });
  fs.writeFileSync(path.join(guardDir, 'extension.json'), JSON.stringify({ name: GUARD_NAME, exec: process.execPath, args: [GUARD] }));
  /** What zut's hook and MCP server need in the agent's environment (they inherit it). */
  const zutEnv = { ZUT_HOME: zutHome, ZOT_HOME: path.join(root, 'no-zot'), ZUT_HOOKS_DIR: hooksDir, GUARD_LOG: guardLog };
  /** Writes a JSON file (directories made). */
  const writeJson = (/** @type {string} */ file, /** @type {unknown} */ value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  };
  return {
    root,
    ws,
    home,
    zutHome,
    guardLog,
    zutEnv,
    /** Runs the project's CLI (`node dist/cli.js …`) with this sandbox's HOME and ZUT_HOME; throws unless it exits 0. */
    cli(/** @type {string[]} */ args) {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ws, env: { PATH: process.env.PATH, HOME: home, ...zutEnv }, encoding: 'utf8', timeout: CLI_MS });
      if (r.status !== 0) throw new Error(`zut-host ${args.join(' ')}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    },
    /** The guard's log: one object per event or interception it got. */
    guardSaw() {
      const text = fs.existsSync(guardLog) ? fs.readFileSync(guardLog, 'utf8') : '';
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    },
    /** Copies the example extension `name` into $ZUT_HOME/extensions (a global zut extension); returns its folder. */
    addExample(/** @type {string} */ name) {
      const dir = path.join(zutHome, 'extensions', name);
      fs.cpSync(path.join(EXAMPLES, name), dir, { recursive: true });
      return dir;
    },
    /**
     * Writes `<root>/mcp.json` naming `zut-host mcp --cwd <ws>` as the MCP server `zut`, in the form `agent` reads
     * (Claude Code's --mcp-config; Copilot CLI's --additional-mcp-config @file, every tool allowed); returns its path.
     * The server inherits the agent's environment (zutEnv).
     * @param {'claude' | 'copilot'} agent
     */
    mcpConfig(agent) {
      const file = path.join(root, 'mcp.json');
      const server = { command: process.execPath, args: [CLI, 'mcp', '--cwd', ws] };
      writeJson(file, { mcpServers: { zut: agent === 'copilot' ? { type: 'local', ...server, tools: ['*'] } : server } });
      return file;
    },
    /** Writes a JSON file (directories made). */
    writeJson,
    /** Stops the warm hook hosts the hooks started here, then removes the sandbox (or keeps it when `keep` or ZUT_AGENTS_KEEP=1). */
    dispose(keep = false) {
      spawnSync(process.execPath, [CLI, 'hook', 'host', 'stop'], { cwd: ws, env: { PATH: process.env.PATH, HOME: home, ...zutEnv }, timeout: CLI_MS });
      // A warm host still starting (its rendezvous not written yet: a hook an agent ran detached, late) is not found by
      // `stop`: ended by SIGTERM, which it answers with its orderly shutdown (its extensions reaped).
      endLateHosts(root);
      if (keep || process.env.ZUT_AGENTS_KEEP === '1') console.log(`      (kept ${root})`);
      else fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh sandbox for each test of the calling suite (mocha hooks: call it inside `describe`, not at a file's top
 * level, where the hooks would run for every test of the run), kept when the test failed; returns the current one.
 * @param {string} name
 */
export function sandboxEach(name) {
  /** @type {Sandbox} */
  let current;
  beforeEach(function () {
    current = sandbox(name);
  });
  afterEach(function () {
    current.dispose(this.currentTest?.state === 'failed');
  });
  return () => current;
}

/** SIGTERMs the warm hook hosts (`… hook host …`) started with `root` in their environment that are still running (Linux /proc). */
function endLateHosts(root) {
  if (process.platform !== 'linux') return;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const line = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (/ hook host( |$)/.test(line) && fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(root)) process.kill(Number(pid), 'SIGTERM');
    } catch {
      /* gone, or not ours */
    }
  }
}
