// @ts-check
// The agent SDKs VS Code's Agent Host loads for its Claude and Codex harnesses, pinned and installed with npm into a
// cache OUTSIDE the repository (the agents' cache, $ZUT_AGENTS_CACHE, default ~/.cache/zut-vscode-agents; never in
// package.json), one folder each. VS Code downloads an SDK itself only when its product.json names `agentSdks`
// (code-server's has none); VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT / VSCODE_AGENT_HOST_CODEX_SDK_ROOT name such a folder
// instead (agentHostMain.js: `<root>/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs`;
// `<root>/node_modules/@openai/codex-<platform>-<arch>/vendor/<target triple>/bin/codex`). Each package carries its
// native binary as an optional dependency (…-linux-x64 and the like) and runs no install script.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { agentsCache } from '../../agents/lib/agents.mjs';

/** The Claude Agent SDK's version (its CLI: Claude Code 2.1.328, as test:agents pins). */
export const CLAUDE_AGENT_SDK = '@anthropic-ai/claude-agent-sdk@0.3.328';
/** Codex CLI, as test:agents pins it (its platform package holds the `codex` app-server binary). */
export const CODEX_SDK = '@openai/codex@0.169.0';
/** The npm install's deadline (an SDK and its native binary, up to ~370 MB). */
const INSTALL_MS = 10 * 60_000;

/**
 * `spec` installed into the agents' cache's folder `folder` (first when missing or another version); returns the folder.
 * @param {string} spec @param {string} folder @param {(line: string) => void} log
 */
function ensureInstalled(spec, folder, log) {
  const root = path.join(agentsCache(), folder);
  const name = spec.slice(0, spec.lastIndexOf('@'));
  const version = spec.slice(spec.lastIndexOf('@') + 1);
  const pkg = path.join(root, 'node_modules', name, 'package.json');
  const installed = fs.existsSync(pkg) ? JSON.parse(fs.readFileSync(pkg, 'utf8')).version : undefined;
  if (installed !== version) {
    fs.mkdirSync(root, { recursive: true });
    log(`installing ${spec} into ${root} (once)`);
    // Free of the outer `npm run`'s npm_* variables, so this install is not taken for a part of the repository's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k)));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--prefix', root, '--no-audit', '--no-fund', '--save-exact', spec], { env, stdio: 'inherit', timeout: INSTALL_MS });
    if (r.status !== 0) throw new Error(`npm install --prefix ${root} ${spec} failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  return root;
}

/** Says nothing. @type {(line: string) => void} */
const quiet = () => undefined;
/** The SDK root for VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT, installed first when missing or another version. */
export const ensureClaudeAgentSdk = (log = quiet) => ensureInstalled(CLAUDE_AGENT_SDK, 'claude-sdk', log);
/** The SDK root for VSCODE_AGENT_HOST_CODEX_SDK_ROOT, installed first when missing or another version. */
export const ensureCodexSdk = (log = quiet) => ensureInstalled(CODEX_SDK, 'codex-sdk', log);
