/**
 * The editor's own tools (VS Code's `vscode.lm.tools`) as the host reaches them: one port, listing them and running
 * one with the input the guards left. `@zut` gets one per chat request (its tools as `zut.chat.editorTools` selects
 * them, run with the request's token so VS Code shows its confirmation there); the Manager gets one for zot's
 * `call_tool` of editor tools (ManagerOptions `editorTools`; none in the CLI or an MCP server). Every call through
 * it takes the guarded path first (calls/invoke.ts, `foreign`). Host vocabulary (floor 0). VS Code-free: the VS Code adapter implements it.
 */
import type { ToolResult } from './types';

/** One editor tool as the editor lists it. */
export interface EditorToolInfo {
  name: string;
  description: string;
  inputSchema?: object;
  tags?: readonly string[];
  /**
   * Who contributed it, where the editor says so (VS Code: `LanguageModelToolInformation.source`, only under a
   * proposed API): an MCP server's `label`, an extension's `id`, … Undefined: unknown.
   */
  source?: { label?: string; name?: string; id?: string };
}

/** The editor's tools, and running one. */
export interface EditorToolPort {
  /** The tools offered now (already selected: never zut's own agent-mode tools or the editor's internal ones). */
  tools(): readonly EditorToolInfo[];
  /**
   * Runs one with the input the guards left. A failure (the user declined, bad input, the tool failed) is an
   * `isError` result the model or extension reads; rejects only when `signal` aborts.
   */
  invoke(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}
