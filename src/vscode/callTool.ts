/**
 * "Zut: Call Tool…" (`zut.callTool`): pick any registered tool (deferred ones included), type JSON arguments
 * (checked as JSON and against the top of the tool's schema), call it, and show the result in a read-only
 * markdown document (`zut:/tool/<name>-<n>.md`). The call takes the guarded path (events, guards) like every other.
 * Cancelling the progress notification cancels the call (`tool_cancel` when advertised). Registered by management.ts,
 * run from dist/management.js (managementCommands.ts): `documents` is dist/extension.js's one `zut:` provider.
 */
import * as vscode from 'vscode';
import type { HostCalls, HostCatalog } from '../host/api';
import type { ToolResult } from '../host/types';
import type { zutDocuments } from './documents';
import { argsPlaceholder, checkToolArgs, toolPickItems, toolResultMarkdown } from '../ui-model/toolArgs';

/** The session branch of palette calls (they belong to no conversation): their `details` are kept under it. */
export const PALETTE_SESSION = { id: 'zut-palette' } as const;

/** `zut.callTool(name?, argsJson?)`: resolves to the tool result (undefined when cancelled or failed). */
export async function callTool(host: HostCatalog & HostCalls, documents: typeof zutDocuments, name?: string, argsJson?: string): Promise<ToolResult | undefined> {
  const tools = host.allTools();
  let toolName = name;
  if (toolName === undefined) {
    const items = toolPickItems(tools);
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No zut tools are registered. See the Zut Extensions view.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, { title: 'Zut: Call Tool (1/2)', placeHolder: 'Call which zut tool?', matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true });
    if (!picked) return undefined;
    toolName = picked.name;
  }
  const tool = tools.find((t) => t.name.toLowerCase() === toolName.toLowerCase());
  if (!tool) {
    void vscode.window.showErrorMessage(`No zut tool named "${toolName}" is registered.`);
    return undefined;
  }
  const schema = tool.schema;
  let text = argsJson;
  if (text === undefined) {
    text = await vscode.window.showInputBox({
      title: 'Zut: Call Tool (2/2)',
      prompt: `JSON arguments for ${tool.name} (${tool.ext})`,
      ignoreFocusOut: true,
      value: argsPlaceholder(schema),
      validateInput: (v) => {
        const r = checkToolArgs(v, schema);
        return r.ok ? undefined : r.message;
      },
    });
    if (text === undefined) return undefined;
  }
  const checked = checkToolArgs(text, schema);
  if (!checked.ok) {
    void vscode.window.showErrorMessage(`${tool.name}: ${checked.message}`);
    return undefined;
  }
  let result: ToolResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Calling ${tool.name} (${tool.ext})…`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return host
          .invokeTool(tool.name, checked.value, { session: PALETTE_SESSION, origin: 'palette', signal: abort.signal })
          .finally(() => sub.dispose());
      },
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`${tool.name}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const docs = documents();
  await docs.show(docs.uri(['tool', tool.name], 'md', true), toolResultMarkdown(tool.name, checked.value, result), { language: 'markdown' });
  return result;
}
