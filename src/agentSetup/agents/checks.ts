/**
 * Every set-up row's check (types.ts `SetupCheck`) for both scopes, as doctor lines: the agents found on this machine
 * or with something of ours installed, whether zut's hooks and MCP server are there, and — the worst outcome, a guard
 * silently skipped — installed hooks the agent will not run, as problems. VS Code-free.
 */
import type { HookScope, Installation } from '../hookInstall';
import { SETUP_ROWS } from './index';
import type { AgentSetupRow, SetupCheck } from './types';

export interface AgentChecks {
  /** One line per agent found or set up ("Codex CLI: hooks (user) ✓ trusted; MCP (user) ✓"). */
  lines: string[];
  /** Installed hooks that will not run, and why (doctor's "agent hooks that cannot work"). */
  problems: string[];
}

const SCOPES: readonly HookScope[] = ['user', 'workspace'];

export async function agentChecks(inst: Installation, rows: readonly AgentSetupRow[] = SETUP_ROWS): Promise<AgentChecks> {
  const lines: string[] = [];
  const problems: string[] = [];
  for (const row of rows) {
    const checks: [HookScope, SetupCheck][] = [];
    for (const scope of SCOPES.filter((s) => row.scopes.includes(s))) {
      const c = await row.check(inst, scope).catch((e: unknown): SetupCheck => ({ agent: row.agent, found: false, hooksInstalled: false, mcpInstalled: false, problems: [`cannot be checked: ${e instanceof Error ? e.message : String(e)}`] }));
      checks.push([scope, c]);
    }
    const found = checks.some(([, c]) => c.found);
    const any = checks.some(([, c]) => c.hooksInstalled || c.mcpInstalled || c.problems.length > 0);
    if (!found && !any) continue;
    const parts = checks.flatMap(([scope, c]) => [
      ...(c.hooksInstalled ? [`hooks (${scope})${c.hooksRun === false ? ' NOT RUN' : ''}`] : []),
      ...(c.mcpInstalled ? [`MCP server (${scope})`] : []),
    ]);
    lines.push(`${row.label}: ${parts.length > 0 ? parts.join(', ') : `nothing of zut's installed (zut-host hook install --agent ${row.agent} --scope user --with-mcp)`}`);
    for (const [scope, c] of checks) problems.push(...c.problems.map((p) => `${row.label} (${scope}): ${p}`));
  }
  return { lines, problems };
}
