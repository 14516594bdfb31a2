/**
 * VS Code's own language-model tools for zot's `call_tool` (the HostUi port's `editorTools` / `invokeEditorTool`):
 * `vscode.lm.tools` without our own zut tools (offered to agent mode as `mcp_zut_<tool>`: a call to them would
 * come back to this host), and `vscode.lm.invokeTool` with its result mapped to content blocks. Outside a chat
 * request there is no invocation token: VS Code runs the tool without a chat to show it in.
 */
import * as vscode from 'vscode';
import type { EditorTool, EditorToolResult } from '../host/hostUi';
import type { ContentBlock } from '../protocol';
import { MCP_SERVER_LABEL } from './agentTools';

const OWN_PREFIX = `mcp_${MCP_SERVER_LABEL}_`;

/** `vscode.lm.tools` a zot extension may call. */
export function editorTools(): readonly EditorTool[] {
  return vscode.lm.tools.filter((t) => !t.name.startsWith(OWN_PREFIX)).map((t) => ({ name: t.name, description: t.description }));
}

/** Runs a VS Code tool; text parts become text blocks, anything else (prompt-tsx parts, …) a note saying so. */
export async function invokeEditorTool(name: string, args: unknown, signal: AbortSignal): Promise<EditorToolResult> {
  if (name.startsWith(OWN_PREFIX)) throw new Error(`${name} is a zut tool: call it by its own name`);
  const cts = new vscode.CancellationTokenSource();
  const onAbort = () => cts.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const input = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
    return { content: result.content.map(toBlock), isError: false };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cts.dispose();
  }
}

function toBlock(part: unknown): ContentBlock {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  return { type: 'text', text: '[a result part zut cannot show]' };
}
