/** "Where zut reaches" facts for tests (test/unit/reach*.test.ts): the route computed as the window computes it, the rows' surfaces. */
import { agentToolsRoute, readHarnessSettings, type AgentToolsVia, type HarnessSettings } from '../../src/ui-model/agentRoute';
import type { AgentScopeCheck, ReachFacts, ReachRow, TerminalAgentFacts } from '../../src/ui-model/reach';

export const DEFAULTS: HarnessSettings = readHarnessSettings(() => undefined);

/** The facts with the route computed as the window computes it (agentToolsRoute), and nothing installed. */
export function facts(o: { enabled?: boolean; via?: AgentToolsVia; harness?: Partial<HarnessSettings>; pluginsSupported?: boolean; remoteAgentHost?: boolean; platform?: NodeJS.Platform } & Partial<Pick<ReachFacts, 'vscodeHooks' | 'copilotCliHooks' | 'agents'>> = {}): ReachFacts {
  const harness = { ...DEFAULTS, ...o.harness };
  const via = o.via ?? 'auto';
  const pluginsSupported = o.pluginsSupported ?? true;
  const platform = o.platform ?? 'linux';
  return {
    route: agentToolsRoute(o.enabled ?? true, via, harness, pluginsSupported, platform),
    via,
    harness,
    pluginsSupported,
    platform,
    vscodeHooks: o.vscodeHooks ?? [],
    copilotCliHooks: o.copilotCliHooks ?? [],
    agents: o.agents ?? [],
    ...(o.remoteAgentHost !== undefined && { remoteAgentHost: o.remoteAgentHost }),
  };
}

export const row = (rows: ReachRow[], surface: string): ReachRow => {
  const r = rows.find((x) => x.surface === surface);
  if (!r) throw new Error(`no row ${surface}: ${rows.map((x) => x.surface).join(', ')}`);
  return r;
};
export const LOCAL = 'VS Code: Local harness';
export const COPILOT = 'VS Code: Copilot harness';
export const CLAUDE = 'VS Code: Claude harness';
export const CODEX = 'VS Code: Codex harness';
export const AGENT_HOST = [COPILOT, CLAUDE, CODEX];

export const check = (o: Partial<AgentScopeCheck> = {}): AgentScopeCheck => ({ scope: 'user', found: true, hooksInstalled: false, mcpInstalled: false, problems: [], ...o });
export const agent = (id: string, label: string, checks: AgentScopeCheck[]): TerminalAgentFacts => ({ agent: id, label, checks });
