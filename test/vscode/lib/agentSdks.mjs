// @ts-check
// The agent SDKs VS Code's Agent Host loads for its Claude harness, pinned and installed with npm into a cache OUTSIDE
// the repository (the agents' cache, $ZUT_AGENTS_CACHE, default ~/.cache/zut-vscode-agents; never in package.json).
// VS Code downloads the SDK itself only when its product.json names `agentSdks` (code-server's has none); its
// VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT names a folder holding node_modules/@anthropic-ai/claude-agent-sdk instead
// (agentHostMain.js: `<root>/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs`). The package carries Claude Code's
// native binary as an optional dependency (…-linux-x64 and the like) and runs no install script.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { agentsCache } from '../../agents/lib/agents.mjs';

/** The Claude Agent SDK's version (its CLI: Claude Code 2.1.328, as test:agents pins). */
export const CLAUDE_AGENT_SDK = '@anthropic-ai/claude-agent-sdk@0.3.328';
/** The npm install's deadline (the SDK and a ~370 MB native binary). */
const INSTALL_MS = 10 * 60_000;

/**
 * The SDK root for VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT, installed first when missing or another version.
 * @param {(line: string) => void} [log]
 */
export function ensureClaudeAgentSdk(log = () => undefined) {
  const root = path.join(agentsCache(), 'claude-sdk');
  const name = CLAUDE_AGENT_SDK.slice(0, CLAUDE_AGENT_SDK.lastIndexOf('@'));
  const version = CLAUDE_AGENT_SDK.slice(CLAUDE_AGENT_SDK.lastIndexOf('@') + 1);
  const pkg = path.join(root, 'node_modules', name, 'package.json');
  const installed = fs.existsSync(pkg) ? JSON.parse(fs.readFileSync(pkg, 'utf8')).version : undefined;
  if (installed !== version) {
    fs.mkdirSync(root, { recursive: true });
    log(`installing ${CLAUDE_AGENT_SDK} into ${root} (once)`);
    // Free of the outer `npm run`'s npm_* variables, so this install is not taken for a part of the repository's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k)));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--prefix', root, '--no-audit', '--no-fund', '--save-exact', CLAUDE_AGENT_SDK], { env, stdio: 'inherit', timeout: INSTALL_MS });
    if (r.status !== 0) throw new Error(`npm install --prefix ${root} ${CLAUDE_AGENT_SDK} failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  return root;
}
