/**
 * Where zut reaches: per VS Code harness and per terminal agent, whether zut's tools, skills, guards and events get
 * there now, how, and the one action that fixes a gap. The facts (VS Code 1.139): the Local harness (deprecated; gone
 * in February 2027) runs extension MCP servers and VS Code's agent hooks; the Copilot harness (Agent Host, Copilot
 * CLI's engine) reads Copilot CLI's hooks (~/.copilot/hooks, .github/hooks) and ~/.copilot/mcp-config.json; the
 * Claude and Codex harnesses (Agent Host, each behind a setting). VS Code's MCP migration matrix (microsoft/vscode#332782)
 * marks extension-contributed MCP servers green on Local only and partial on the Agent Host harnesses, a plugin's MCP
 * servers green everywhere; the Agent Host does not discover plugin hooks (microsoft/vscode#330114). Skills come from
 * the same MCP server as the tools (its prompts and its `skill` tool); events come through the same hooks as guards.
 * Windows: the plugin's server needs `sh`, so the route is the provider there (agentRoute.ts `pluginBlockedBy`), said in
 * the Agent Host harnesses' cells. Two `zut` servers on the Copilot harness (Copilot CLI's file and the plugin's): VS
 * Code 1.139's Agent Host hands the engine a desktop plugin's servers through `pluginDirectories` and lets it discover
 * `mcp-config.json` itself (agentHostMain.js), both under the one name `zut`; the SDK documents plugin sources above
 * personal ones, so one should shadow the other rather than both running (not run here), and which one a session gets
 * is the engine's, not the user's: the row warns, with removing Copilot CLI's as the fix (`duplicateWarning`).
 * Text is plain (no markdown, no codicons): the surfaces (src/vscode/reach.ts: a quick pick, doctor lines) dress it.
 * VS Code-free: the adapter gathers the facts.
 */
import { agentHostInUse, HARNESS_SETTING_KEYS, pluginBlockedBy, type AgentToolsRoute, type AgentToolsVia, type HarnessSettings } from './agentRoute';

export type ReachState = 'reached' | 'not-reached' | 'unknown';
export const CAPABILITIES = ['tools', 'skills', 'guards', 'events'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** A VS Code command that fixes a gap: "Guard Agent Tools…", "Copy MCP Client Configuration…", or a setting opened. */
export interface ReachFix {
  label: string;
  command: string;
  args?: unknown[];
}

export interface ReachCell {
  state: ReachState;
  /** How it reaches, or why not / why nobody can tell. */
  how: string;
  fix?: ReachFix;
}

export interface ReachRow {
  surface: string;
  /** What to know about the surface itself ("not enabled", "not found on this machine"). */
  note?: string;
  /** Something set up that works against the user (two `zut` servers on one harness), with the fix that removes it. */
  warning?: { text: string; fix: ReachFix };
  /** False for a terminal agent neither found on this machine nor set up: its cells say so, with no fix. */
  present: boolean;
  tools: ReachCell;
  skills: ReachCell;
  guards: ReachCell;
  events: ReachCell;
}

/** One scope's check of a terminal agent: the shape of agentSetup's `SetupCheck` (src/agentSetup/agents/types.ts). */
export interface AgentScopeCheck {
  scope: 'user' | 'workspace';
  found: boolean;
  hooksInstalled: boolean;
  mcpInstalled: boolean;
  /** The agent will run the hooks installed (undefined when none are). */
  hooksRun?: boolean;
  problems: string[];
}

export interface TerminalAgentFacts {
  /** Its HookAgent id (`claude`, `copilot-cli`, `codex`, …): what the fixes pass to the commands. */
  agent: string;
  label: string;
  checks: AgentScopeCheck[];
  /** How its MCP configuration is written when it is not: a row's writer, or a fix of its own (Claude Code's). */
  mcpFix?: ReachFix;
}

export interface ReachFacts {
  /** `agentToolsRoute(…)` now. */
  route: AgentToolsRoute;
  /** `zut.agentTools.via` as set. */
  via: AgentToolsVia;
  harness: HarnessSettings;
  /** This VS Code reads `contributes.chatPlugins`. */
  pluginsSupported: boolean;
  /** The extension host's platform (where VS Code starts the plugin's server): the plugin needs `sh`, not on Windows. */
  platform: NodeJS.Platform;
  /**
   * The Agent Host is not on the machine of the window's UI (a web workbench: code-server, Codespaces…), which is where
   * it reads a plugin's files from: in code-server 1.139.1 it cannot ("Access to file:///…/agent-plugin is not granted",
   * test/vscode/ui/agentHost.test.mjs).
   */
  remoteAgentHost?: boolean;
  /** Where VS Code's agent hooks of ours are installed (`~/.copilot/hooks/zut.json`, `.github/hooks/zut.json`), if anywhere. */
  vscodeHooks: string[];
  /** Where Copilot CLI's hooks of ours are installed (the same files, Copilot CLI's form), if anywhere. */
  copilotCliHooks: string[];
  /** Every terminal agent: Claude Code, Copilot CLI and each set-up row's. */
  agents: TerminalAgentFacts[];
}

export const REACH_COMMAND = 'zut.showReach';
const GUARD = 'zut.guardAgentTools';
const COPY_MCP = 'zut.copyMcpConfig';
const OPEN_SETTINGS = 'workbench.action.openSettings';

/** Copilot CLI's MCP configuration written (`$COPILOT_HOME/mcp-config.json`) by "Copy MCP Client Configuration…". */
export const COPILOT_CLI_MCP_FIX: ReachFix = { label: "Copy MCP Client Configuration… (Copilot CLI: writes zut's server into ~/.copilot/mcp-config.json)", command: COPY_MCP, args: [{ client: 'copilot-cli' }] };
/** Copilot CLI's `zut` server taken out of its MCP configuration (the duplicate warning's fix). */
export const COPILOT_CLI_MCP_REMOVE_FIX: ReachFix = { label: 'Copy MCP Client Configuration… (Copilot CLI: remove zut from ~/.copilot/mcp-config.json)', command: COPY_MCP, args: [{ client: 'copilot-cli', action: 'remove' }] };
/** Claude Code's MCP server is written by Guard Agent Tools… (its mcp_tool hooks need it), not by a snippet. */
export const CLAUDE_MCP_FIX: ReachFix = { label: "Guard Agent Tools… (Claude Code, through zut's MCP server: writes the server too)", command: GUARD, args: [{ agent: 'claude', kind: 'mcp' }] };

const openSetting = (key: string, label: string): ReachFix => ({ label, command: OPEN_SETTINGS, args: [key] });
const guardFix = (agent: string, label: string): ReachFix => ({ label: `Guard Agent Tools… (${label})`, command: GUARD, args: [{ agent }] });
/** The fix of an agent whose MCP configuration does not name zut: its own, or the Copy command's pick. */
const mcpFixOf = (a: TerminalAgentFacts): ReachFix => a.mcpFix ?? { label: `Copy MCP Client Configuration… (${a.label})`, command: COPY_MCP, args: [{ client: a.agent }] };

const cell = (state: ReachState, how: string, fix?: ReachFix): ReachCell => ({ state, how, ...(fix && { fix }) });

type Harness = 'local' | 'copilot' | 'claude' | 'codex';

/** Copilot CLI's user MCP configuration names zut's server (the Copilot harness reads it, whatever the route). */
const copilotCliMcp = (f: ReachFacts): boolean => f.agents.find((a) => a.agent === 'copilot-cli')?.checks.some((c) => c.scope === 'user' && c.mcpInstalled) ?? false;

/** Why the provider serves though the plugin was asked for (`via` plugin, or `auto` with an Agent Host in use), or ''. */
function providerInstead(f: ReachFacts): string {
  if (f.via === 'plugin' && !f.harness.pluginsEnabled) return ' (zut.agentTools.via is plugin, but chat.plugins.enabled is off: the provider serves instead)';
  if (f.via === 'plugin' && !f.pluginsSupported) return ' (zut.agentTools.via is plugin, but this VS Code has no agent plugins: the provider serves instead)';
  const blocked = pluginBlockedBy(f.platform);
  if (blocked && (f.via === 'plugin' || (f.via === 'auto' && agentHostInUse(f.harness)))) return ` (zut.agentTools.via is ${f.via}, but ${blocked}: the provider serves instead)`;
  return '';
}

/** Tools (and, from the same server, skills) on one harness, by the route. */
function toolsOn(h: Harness, f: ReachFacts, what: string): ReachCell {
  if (f.route === 'off') return cell('not-reached', `zut.agentTools.enabled is off: VS Code's agent gets no ${what} of zut's`, openSetting('zut.agentTools.enabled', 'Enable zut.agentTools.enabled'));
  // Copilot CLI's own MCP configuration: the Copilot harness runs Copilot CLI's engine and reads it, whatever the route.
  if (h === 'copilot' && copilotCliMcp(f)) {
    const also = f.route === 'plugin' ? "; so does zut's agent plugin: two servers named zut (see the warning)" : '';
    return cell('reached', `Copilot CLI's ~/.copilot/mcp-config.json names zut's server, and the Copilot harness reads it${also}`);
  }
  if (f.route === 'plugin' && h !== 'local' && f.remoteAgentHost) {
    const how = "zut's agent plugin, but this window's Agent Host runs on another machine than its UI and may not read the plugin's files (code-server 1.139: not granted)";
    return h === 'copilot' ? cell('unknown', how, COPILOT_CLI_MCP_FIX) : cell('unknown', how);
  }
  if (f.route === 'plugin') return cell('reached', `zut's agent plugin (its MCP server runs zut-host mcp; a plugin's MCP servers reach every harness, microsoft/vscode#332782)`);
  const why = providerInstead(f);
  if (h === 'local') return cell('reached', `the MCP server provider, served by this window${why}`);
  const how = `the MCP server provider${why}: extension MCP servers are partial on Agent Host harnesses (microsoft/vscode#332782)`;
  const blocked = pluginBlockedBy(f.platform);
  // Windows: no plugin to offer; the Copilot harness can still read Copilot CLI's own configuration.
  if (blocked) return cell('unknown', `${how}; ${blocked}, so it is not offered`, h === 'copilot' ? COPILOT_CLI_MCP_FIX : undefined);
  if (!f.pluginsSupported) return cell('unknown', `${how}; this VS Code has no agent plugins (contributes.chatPlugins, 1.139)`);
  if (f.via === 'plugin' && !f.harness.pluginsEnabled) return cell('unknown', how, openSetting(HARNESS_SETTING_KEYS.pluginsEnabled.key, 'Enable chat.plugins.enabled'));
  return cell('unknown', how, openSetting('zut.agentTools.via', 'Set zut.agentTools.via to plugin'));
}

const scopesText = (files: string[]) => files.join(', ');

/** Guards (and events, through the same hooks) on one harness. */
function hooksOn(h: Harness, f: ReachFacts, what: 'guards' | 'events'): ReachCell {
  const miss = what === 'guards' ? "zut's guards do not see its tool calls" : "zut's event subscribers do not get its events";
  if (h === 'local') {
    return f.vscodeHooks.length > 0
      ? cell('reached', `VS Code's agent hooks: ${scopesText(f.vscodeHooks)}`)
      : cell('not-reached', `no VS Code agent hooks of zut's (~/.copilot/hooks/zut.json or .github/hooks/zut.json): ${miss}`, guardFix('vscode', "VS Code's agent"));
  }
  if (h === 'copilot') {
    const plugin = "; plugin hooks do not reach the Agent Host (microsoft/vscode#330114)";
    return f.copilotCliHooks.length > 0
      ? cell('reached', `Copilot CLI's hooks, which the Copilot harness runs: ${scopesText(f.copilotCliHooks)}`)
      : cell('not-reached', `no Copilot CLI hooks of zut's (~/.copilot/hooks or .github/hooks): ${miss}${plugin}`, guardFix('copilot-cli', 'Copilot CLI'));
  }
  const agent = h === 'claude' ? 'claude' : 'codex';
  const a = f.agents.find((x) => x.agent === agent);
  const installed = a?.checks.some((c) => c.hooksInstalled) ?? false;
  const files = h === 'claude' ? '~/.claude/settings.json, .claude/settings*.json' : '~/.codex/hooks.json';
  const name = h === 'claude' ? 'Claude' : 'Codex';
  const cli = a?.label ?? (h === 'claude' ? 'Claude Code' : 'Codex CLI');
  const how = `whether the ${name} harness runs ${cli}'s hooks (${files}) is not documented; ${cli}'s hooks of zut's are ${installed ? 'installed' : 'not installed'}`;
  return cell('unknown', how, installed ? undefined : guardFix(agent, cli));
}

const HARNESSES: { h: Harness; surface: string; note: (s: HarnessSettings) => string | undefined }[] = [
  { h: 'local', surface: 'VS Code: Local harness', note: (s) => `deprecated (goes away in February 2027)${s.localAgentEnabled ? '' : '; not offered: chat.editor.localAgent.enabled is off'}` },
  { h: 'copilot', surface: 'VS Code: Copilot harness', note: (s) => (s.defaultToCopilotHarness || s.preferCopilotHarness ? 'Agent Host; new sessions run here' : 'Agent Host') },
  { h: 'claude', surface: 'VS Code: Claude harness', note: (s) => (s.claudeAgentEnabled ? 'Agent Host' : 'Agent Host; not enabled (chat.agentHost.claudeAgent.enabled)') },
  { h: 'codex', surface: 'VS Code: Codex harness', note: (s) => (s.codexAgentEnabled ? 'Agent Host' : 'Agent Host; not enabled (chat.agentHost.codexAgent.enabled)') },
];

/**
 * Two servers named zut on the Copilot harness: Copilot CLI's file and zut's agent plugin (in a web window the Agent
 * Host may not read the plugin, so "may"). The fix takes Copilot CLI's out; setting zut.agentTools.via to provider
 * would take the plugin's out, from the Claude and Codex harnesses too.
 */
function duplicateWarning(f: ReachFacts): ReachRow['warning'] {
  if (f.route !== 'plugin' || !copilotCliMcp(f)) return undefined;
  const text =
    `${f.remoteAgentHost ? 'may get' : 'gets'} two MCP servers named zut: Copilot CLI's ~/.copilot/mcp-config.json's and zut's agent plugin's. ` +
    "The Agent Host hands the engine both under the one name, so one shadows the other (which one is the engine's choice: the plugin's relays to this window, the file's does not); " +
    'remove one: zut from mcp-config.json, or set zut.agentTools.via to provider';
  return { text, fix: COPILOT_CLI_MCP_REMOVE_FIX };
}

/** One terminal agent's row, its scopes taken together. */
function agentRow(a: TerminalAgentFacts): ReachRow {
  const found = a.checks.some((c) => c.found);
  const hooks = a.checks.filter((c) => c.hooksInstalled);
  const mcp = a.checks.filter((c) => c.mcpInstalled);
  const surface = `${a.label} (terminal)`;
  if (!found && hooks.length === 0 && mcp.length === 0) {
    const absent = cell('not-reached', 'not found on this machine');
    return { surface, note: 'not found on this machine', present: false, tools: absent, skills: absent, guards: absent, events: absent };
  }
  const scopes = (cs: AgentScopeCheck[]) => cs.map((c) => c.scope).join(', ');
  const tools = mcp.length > 0 ? cell('reached', `zut's MCP server is in its MCP configuration (${scopes(mcp)})`) : cell('not-reached', "its MCP configuration does not name zut's server", mcpFixOf(a));
  const skills = mcp.length > 0 ? cell('reached', `from zut's MCP server (${scopes(mcp)}): its skill tool and prompts`) : cell('not-reached', "its MCP configuration does not name zut's server (skills come from it)", mcpFixOf(a));
  const blocked = hooks.filter((c) => c.hooksRun === false);
  const problems = [...new Set(a.checks.flatMap((c) => c.problems))];
  const hookCell = (what: string): ReachCell => {
    if (hooks.length === 0) return cell('not-reached', `no hooks of zut's installed: ${what}`, guardFix(a.agent, a.label));
    if (blocked.length === hooks.length) return cell('not-reached', `zut's hooks are installed (${scopes(hooks)}) but ${a.label} will not run them${problems.length ? `: ${problems.join(' ')}` : ''}`, guardFix(a.agent, a.label));
    return cell('reached', `zut's hooks (${scopes(hooks.filter((c) => c.hooksRun !== false))})`);
  };
  return {
    surface,
    ...(!found && { note: 'not found on this machine (something of zut\'s is set up for it)' }),
    present: true,
    tools,
    skills,
    guards: hookCell("zut's guards do not see its tool calls"),
    events: hookCell("zut's event subscribers do not get its events"),
  };
}

/** Every row: the four VS Code harnesses, then each terminal agent. */
export function reachRows(f: ReachFacts): ReachRow[] {
  const harnessRows = HARNESSES.map(({ h, surface, note }): ReachRow => {
    const warning = h === 'copilot' ? duplicateWarning(f) : undefined;
    return {
      surface,
      note: note(f.harness),
      ...(warning && { warning }),
      present: true,
      tools: toolsOn(h, f, 'tools'),
      skills: toolsOn(h, f, 'skills'),
      guards: hooksOn(h, f, 'guards'),
      events: hooksOn(h, f, 'events'),
    };
  });
  return [...harnessRows, ...f.agents.map(agentRow)];
}

const STATE_TEXT: Record<ReachState, string> = { reached: 'reached', 'not-reached': 'NOT REACHED', unknown: 'unknown' };

/** The gaps of a row: its capabilities not reached or unknown (none for an agent not on this machine). */
export function gapsOf(row: ReachRow): { capability: Capability; cell: ReachCell }[] {
  if (!row.present) return [];
  return CAPABILITIES.map((capability) => ({ capability, cell: row[capability] })).filter((g) => g.cell.state !== 'reached');
}

/** The rows as doctor lines: one per row and capability ("VS Code: Copilot harness · tools: unknown — how. Fix: …"). */
export function reachLines(rows: readonly ReachRow[]): string[] {
  return rows.flatMap((row) => {
    const head = `${row.surface}${row.note ? ` (${row.note})` : ''}`;
    if (!row.present) return [`${head}`];
    const cells = CAPABILITIES.map((c) => {
      const x = row[c];
      return `${head} · ${c}: ${STATE_TEXT[x.state]} — ${x.how}${x.fix ? `. Fix: ${x.fix.label}` : ''}`;
    });
    return row.warning ? [...cells, `${head} · WARNING: ${row.warning.text}. Fix: ${row.warning.fix.label}`] : cells;
  });
}
