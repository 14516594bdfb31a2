/**
 * Which of an agent's tool calls are our own: tools this installation serves over MCP, already judged by the guard
 * door on the MCP path, so the hook skips them (each call guarded exactly once). Ours means both: the MCP server's
 * name as our own snippets and VS Code's agent mode write it (`zut`, names.ts MCP_SERVER_NAME), in the agent's spelling of
 * an MCP tool (VS Code `mcp_zut_<tool>`, Claude Code `mcp__zut__<tool>`, Copilot CLI `zut-<tool>`), and a tool name
 * this host serves (its MCP name), or that a live zut MCP server in another process serves for the folder
 * (`servedElsewhere`, mcpServers.ts). Another server called `zut…`, or one of ours renamed in a client's
 * configuration, is guarded like any other tool. VS Code-free.
 */
import { assignModelNames } from '../host/calls/toolNames';
import type { ToolInfo } from '../host/types';
import type { HookAgent } from './names';
import { dialectOf } from './dialects';
import { servedByLiveServer } from './mcpServers';

/** The agent's prefix (its dialect's `mcpToolPrefixes`) for a tool of an MCP server named as ours that `name` starts with, if any. */
const ownPrefix = (agent: HookAgent, name: string): string | undefined => dialectOf(agent).mcpToolPrefixes.find((p) => name.startsWith(p));

/** Whether `name` is in the agent's spelling of a tool of an MCP server named as ours (whatever the tool). */
export function hasOwnPrefix(agent: HookAgent, name: string): boolean {
  return ownPrefix(agent, name) !== undefined;
}

/**
 * Whether `name` is one of `tools`, or of the host's own tools in `hostTools` (the `skill` tool while an extension
 * bundles skills), as this installation's MCP server offers it to `agent`.
 */
export function isOwnMcpName(agent: HookAgent, name: string, tools: readonly ToolInfo[], hostTools: readonly string[] = []): boolean {
  const prefix = ownPrefix(agent, name);
  if (!prefix) return false;
  const rest = name.slice(prefix.length);
  if (hostTools.includes(rest)) return true;
  // The names the MCP server gives them (src/mcp/tools.ts buildCatalog: the same rule, toolNames.ts).
  return assignModelNames(tools.map((t) => t.name), hostTools).toZut(rest) !== undefined;
}

/**
 * Whether `name` (in the agent's spelling of a tool named as ours) is served by a live zut MCP server of `cwd` in
 * another process (mcpServers.ts): judged on that server's MCP path, so the hook skips it.
 */
export function servedElsewhere(agent: HookAgent, name: string, cwd: string | undefined): boolean {
  const prefix = ownPrefix(agent, name);
  return prefix !== undefined && servedByLiveServer(name.slice(prefix.length), cwd);
}
