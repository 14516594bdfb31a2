/**
 * The editor's own tools in `@zut` (VS Code's `vscode.lm.tools`), free of `vscode`: which ones are offered
 * (`selectEditorTools`: not our own agent-mode tools, not tools meant for VS Code's internals, the
 * `zut.chat.editorTools` setting) and under which model-facing names (`editorModelNames`). The port the loop runs
 * them through is src/host/editorToolPort.ts (VS Code's side of it: src/vscode/editorTools.ts).
 */
import type { EditorToolInfo } from '../editorToolPort';
import { assignModelNames, type ToolNameMap } from '../calls/toolNames';

export type { EditorToolInfo, EditorToolPort } from '../editorToolPort';

/** `zut.chat.editorTools`: every editor tool, none, or these names (exact, as VS Code lists them). */
export type EditorToolsSetting = 'all' | 'none' | readonly string[];

/** What counts as our own tools: the MCP server label VS Code prefixes them with (`mcp_<label>_<tool>`). */
export interface OwnTools {
  mcpLabel: string;
}

/**
 * Whether the editor tool `t` is one of our own agent-mode tools (zut tools through our MCP server, which `@zut`
 * offers directly). Not src/hooks/tools.ts `isOwnMcpName`, which asks whether an agent's tool name is zut's.
 */
export function isAgentModeTool(t: EditorToolInfo, own: OwnTools): boolean {
  const label = t.source?.label ?? t.source?.name;
  if (label !== undefined) return label === own.mcpLabel;
  // Without the proposed `source`: MCP tools are named `mcp_<server label>_<tool>` (tagged `mcp`).
  return t.name.startsWith(`mcp_${own.mcpLabel}_`);
}

/** Tools VS Code lists but means for its own internals, not for a model (`*_internal`). */
export function isInternalTool(t: EditorToolInfo): boolean {
  return /_internal$/i.test(t.name);
}

/** The editor tools `@zut` offers: not ours, not internal, allowed by the setting. */
export function selectEditorTools(all: readonly EditorToolInfo[], setting: EditorToolsSetting, own: OwnTools): EditorToolInfo[] {
  if (setting === 'none') return [];
  const allowed = setting === 'all' ? undefined : new Set(setting);
  return all.filter((t) => !isAgentModeTool(t, own) && !isInternalTool(t) && (!allowed || allowed.has(t.name)));
}

/**
 * Model-facing names of the editor tools. The rule: zut's own names come first and never change (host tools,
 * then extension tools, toolNames.ts); an editor tool keeps its own name unless that name is taken
 * (case-insensitively) or one VS Code would refuse, and then gets the stable sanitised `<name>_<8 hex of
 * SHA-256(name)>` (longer hash or a counter on a further clash). So a name is the same from request to request
 * while the same tools are there.
 */
export function editorModelNames(editorNames: readonly string[], taken: Iterable<string>): ToolNameMap {
  return assignModelNames(editorNames, taken);
}
