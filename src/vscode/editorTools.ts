/**
 * VS Code's own language-model tools (`vscode.lm.tools`) as the host's one EditorToolPort (host/editorToolPort.ts):
 * for `@zut`, one per chat request (selected by `zut.chat.editorTools`, run with the request's
 * `toolInvocationToken` so VS Code shows its confirmation in that chat), and one for zot's `call_tool` of them
 * (outside a chat request there is no token: VS Code runs the tool without a chat to show it in). Our own agent-mode
 * tools (`mcp_zut_<tool>`, which would come back to this host) and VS Code's internal ones are never offered
 * (host/chat/editorTools.ts). Results: text parts → text blocks, image data parts → image blocks; a failure is an
 * error result, a cancellation a rejection.
 */
import * as vscode from 'vscode';
import type { ContentBlock } from '../protocol';
import { abortError, type ToolResult } from '../host/types';
import { selectEditorTools, type EditorToolInfo, type EditorToolPort, type EditorToolsSetting, type OwnTools } from '../host/chat/editorTools';
import type { JsonObject } from '../host/calls/foreignTools';
import { MCP_SERVER_LABEL } from './agentModeMcpServer';

const OWN: OwnTools = { mcpLabel: MCP_SERVER_LABEL };

/** `vscode.lm.tools` as the host sees them (`source` only exists under a proposed API: read when present). */
function listed(): EditorToolInfo[] {
  return vscode.lm.tools.map((t) => {
    const source = (t as { source?: unknown }).source;
    const s = source && typeof source === 'object' ? (source as { label?: unknown; name?: unknown; id?: unknown }) : undefined;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      tags: t.tags,
      ...(s ? { source: { label: str(s.label), name: str(s.name), id: str(s.id) } } : {}),
    };
  });
}

/**
 * The port over VS Code's tools: `setting` selects them, `token` is the chat request's (none for zot's `call_tool`).
 * Only the tools it lists can be run.
 */
export function editorToolPort(token: vscode.ChatParticipantToolToken | undefined, setting: EditorToolsSetting): EditorToolPort {
  const tools = () => selectEditorTools(listed(), setting, OWN);
  return {
    tools,
    invoke: async (name, input, signal): Promise<ToolResult> => {
      try {
        if (!tools().some((t) => t.name === name)) throw new Error(`${name} is not one of VS Code's tools zut may call`);
        const r = await run(name, input, token, signal);
        return { ext: 'vscode', content: r.content, isError: false };
      } catch (e) {
        if (signal.aborted) throw abortError(signal, `tool ${name}: cancelled`);
        // VS Code's own refusals (the user declined, invalid input, the tool failed) are the model's to read.
        return { ext: 'vscode', content: [{ type: 'text', text: `${name} failed: ${e instanceof Error ? e.message : String(e)}` }], isError: true };
      }
    },
  };
}

/** `vscode.lm.invokeTool` with `signal` as its cancellation (Stop reaches the tool). */
async function run(name: string, input: JsonObject, token: vscode.ChatParticipantToolToken | undefined, signal: AbortSignal): Promise<{ content: ContentBlock[] }> {
  const cts = new vscode.CancellationTokenSource();
  const onAbort = () => cts.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) cts.cancel();
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: token }, cts.token);
    return { content: result.content.map(toBlock) };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cts.dispose();
  }
}

/** One result part: text, an image (`LanguageModelDataPart`, duck-typed: finalized after @types/vscode 1.104). */
function toBlock(part: unknown): ContentBlock {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  const d = part as { mimeType?: unknown; data?: unknown };
  if (typeof d?.mimeType === 'string' && d.data instanceof Uint8Array) {
    if (d.mimeType.startsWith('image/')) return { type: 'image', mime_type: d.mimeType, data: Buffer.from(d.data).toString('base64') };
    if (d.mimeType.startsWith('text/') || d.mimeType === 'application/json') return { type: 'text', text: Buffer.from(d.data).toString('utf8') };
  }
  return { type: 'text', text: '[a result part zut cannot show]' };
}
