/**
 * The checks (agents/types.ts `SetupCheck`) of the agents set up through the older path (hookInstall.ts,
 * claudeMcp.ts) rather than a row: Claude Code, Copilot CLI and VS Code's agent — which hook files of ours are in
 * place, and whether their MCP configuration names zut's server — for "Where zut reaches" (ui-model/reach.ts).
 * VS Code-free.
 */
import { findClaudeMcp } from './claudeMcp';
import { copilotMcpNamesZut } from './copilotMcp';
import { copilotCliFound } from './copilotHome';
import { installedCount, planInstall, type HookScope, type Installation } from './hookInstall';
import { agentOnMachine } from './agents/found';
import type { SetupCheck } from './agents/types';

const SCOPES: readonly HookScope[] = ['user', 'workspace'];

/** The hook files holding zut's entries for `agent` (VS Code's agent, Copilot CLI or Claude Code), each with its scope. */
export async function ownHookFiles(inst: Installation, agent: 'vscode' | 'copilot-cli' | 'claude'): Promise<{ scope: HookScope; file: string }[]> {
  const out: { scope: HookScope; file: string }[] = [];
  for (const scope of SCOPES) {
    const plan = planInstall(inst, agent, scope);
    if ((await installedCount(plan)) > 0) out.push({ scope, file: plan.file });
  }
  return out;
}

/** Claude Code's check for `scope`: its hooks of ours (either kind) and a `zut` server where it would find one. */
export async function claudeCodeCheck(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const hooksInstalled = (await installedCount(planInstall(inst, 'claude', scope))) > 0;
  const mcpInstalled = (await findClaudeMcp(inst, scope)) !== undefined;
  return { agent: 'claude', found: agentOnMachine('claude', ['.claude'], inst.home), hooksInstalled, mcpInstalled, ...(hooksInstalled && { hooksRun: true }), problems: [] };
}

/**
 * Copilot CLI's check for `scope`: its hooks of ours (`$COPILOT_HOME/hooks/zut.json`, default `~/.copilot`, or `.github/hooks/zut.json`); its
 * MCP configuration is the user's `$COPILOT_HOME/mcp-config.json` (copilotMcp.ts) only (the workspace scope's check
 * never counts it).
 */
export async function copilotCliCheck(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const hooksInstalled = (await installedCount(planInstall(inst, 'copilot-cli', scope))) > 0;
  const mcpInstalled = scope === 'user' && (await copilotMcpNamesZut(inst.home));
  return { agent: 'copilot-cli', found: copilotCliFound(inst.home), hooksInstalled, mcpInstalled, ...(hooksInstalled && { hooksRun: true }), problems: [] };
}
