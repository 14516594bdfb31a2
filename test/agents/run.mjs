#!/usr/bin/env node
// @ts-check
// `npm run test:agents`: zut-vscode's agent hooks and MCP server as the REAL agents use them — Claude Code 2.1.328 and
// GitHub Copilot CLI 1.0.102, run offline against a scripted model on 127.0.0.1 (lib/model.mjs).
//   node test/agents/run.mjs [--grep REGEX] [--no-build] [--keep]
// Builds dist/ (the hooks run `node dist/hook.js`, the MCP server `node dist/cli.js mcp`), installs the pinned agents
// into $ZUT_AGENTS_CACHE (default ~/.cache/zut-vscode-agents) when missing, runs test/agents/*.test.mjs with mocha
// one at a time, prints a line per scenario and `N passed, M failed`, exits non-zero on any failure (a skipped
// scenario counts as one). Not part of `npm test`. --keep (ZUT_AGENTS_KEEP=1) keeps each scenario's temp directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Mocha from 'mocha';
import { agentsCache, ensureAgents, killAgentsSync } from './lib/agents.mjs';
import { REPO } from './lib/sandbox.mjs';

/** Each scenario's deadline (a few agent runs of 1–15 s each). */
const SCENARIO_MS = 180_000;
/** The build's deadline. */
const BUILD_MS = 5 * 60_000;

const { values: opts } = parseArgs({ options: { grep: { type: 'string' }, 'no-build': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } } });
if (opts.keep) process.env.ZUT_AGENTS_KEEP = '1';

const t0 = Date.now();
const secs = (since = t0) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

for (const [sig, code] of /** @type {[NodeJS.Signals, number][]} */ ([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]])) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping the agents`);
    killAgentsSync();
    process.exit(code);
  });
}

if (!opts['no-build']) {
  const t = Date.now();
  const r = spawnSync(process.execPath, [path.join(REPO, 'esbuild.mjs')], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: BUILD_MS });
  if (r.status !== 0) {
    console.error(`test:agents: the build failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(1);
  }
  console.log(`built dist/ in ${secs(t)}`);
}

let agents;
try {
  const t = Date.now();
  agents = ensureAgents((s) => console.log(s));
  console.log(`agents in ${agentsCache()}: ${Object.entries(agents.versions).map(([p, v]) => `${p} ${v}`).join(', ')} (${secs(t)})`);
} catch (e) {
  console.error(`test:agents: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

const dir = path.join(REPO, 'test', 'agents');
// The rig's own checks (offline.test.mjs) first, then the scenarios in name order.
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .sort((a, b) => Number(b === 'offline.test.mjs') - Number(a === 'offline.test.mjs') || a.localeCompare(b))
  .map((f) => path.join(dir, f));
const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: SCENARIO_MS, ...(opts.grep ? { grep: opts.grep } : {}) });
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
let passed = 0;
let failed = 0;
const runner = mocha.run();
runner.on('pass', () => passed++);
runner.on('fail', () => failed++);
runner.on('pending', (t) => {
  failed++;
  console.error(`  skipped (counts as a failure): ${t.fullTitle()}`);
});
runner.on('end', () => {
  killAgentsSync();
  console.log(`test:agents: ${passed} passed, ${failed} failed in ${secs()}`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
});
