/**
 * The agent's tool as zut's guards see it, and back. Tools the shared foreign-tool table maps (src/host/calls: rows
 * for VS Code, Copilot CLI and Claude Code) appear under zut's name and argument shape; others pass with their own
 * name and input. A guard's `modified_args` go back onto the whole original input (unknown fields kept), or are refused (the call is then denied). Our own
 * MCP tools (VS Code `mcp_zut_*`, Claude Code `mcp__zut__*`, Copilot CLI `zut-*`) are guarded on the MCP path
 * already and are skipped. VS Code-free.
 */
import { foreignCall, mappingOf } from '../host/calls/foreignTools';
import type { HookAgent } from './names';

type JsonObject = Record<string, unknown>;

/** A tool call as guards see it. */
export interface GuardView {
  name: string;
  args: JsonObject;
  /** A guard's `modified_args` → the agent's whole input, or why it cannot be applied. */
  back(modified: unknown): { input: JsonObject } | { error: string };
}

/** Prefixes of our own MCP server's tools per agent (zut's agent-mode server is named `zut`). */
const OWN_PREFIXES: Record<HookAgent, readonly string[]> = {
  vscode: ['mcp_zut_'],
  claude: ['mcp__zut__'],
  'copilot-cli': ['zut-', 'mcp__zut__'],
};

/** Whether `name` is one of our own MCP tools (already guarded on the MCP path). */
export function isOwnTool(agent: HookAgent, name: string): boolean {
  return OWN_PREFIXES[agent].some((p) => name.startsWith(p));
}

/**
 * The guards' view of `agent`'s tool `name` called with `input`, through the shared table (VS Code's
 * `run_in_terminal`, Copilot CLI's `bash`, Claude Code's `Bash` → `bash`, …). Copilot CLI's PascalCase events are
 * said (issue 22's notes; GitHub's docs do not say) to name tools as Claude Code does: a name Copilot CLI's rows do
 * not have is looked up among Claude Code's (the two never share a name: Copilot CLI's are lower case).
 */
export function guardView(agent: HookAgent, name: string, input: JsonObject): GuardView {
  const source = agent === 'copilot-cli' && !mappingOf('copilot-cli', name) && mappingOf('claude', name) ? 'claude' : agent;
  return foreignCall(source, name, input);
}
