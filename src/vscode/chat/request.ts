/**
 * One `@zut` request, the heavy half of the chat participant: the VS Code-free loop (src/host/chat/loop.ts) on
 * `request.model`, or a zut slash command (`@zut /name args`). Built as dist/chat.js and loaded by participant.ts at
 * the first request (lazyBundle.ts): a window that never asks `@zut` never loads the loop, the model adapter or the
 * renderer (ARCHITECTURE.md "Lazy bundles"). So that this bundle's copies of modules hold no state of their own, what
 * has state (the settings reader, the session tracker, the sinks of running responses, the editor tools' port) is
 * handed in by participant.ts from dist/extension.js; so are the functions over stored sessions and skills, which
 * need zod (dist/chat.js carries no copy of it: ~15 KB, not ~115).
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from '../../host/api';
import type { EditorToolPort, EditorToolsSetting } from '../../host/chat/editorTools';
import type { PanelSpec } from '../../protocol';
import type { ZutSettings } from '../../ui-model/settings';
import type * as Conversation from '../../host/chat/conversation';
import { runLoop, type LoopOptions, type LoopResult } from '../../host/chat/loop';
import type { ChatMessage } from '../../host/chat/model';
import type * as Sessions from '../../host/chat/sessions';
import type { SessionTracker, TurnMeta } from '../../host/chat/sessions';
import type * as Skills from '../../host/chat/skills';
import { systemPreamble } from '../../host/chat/systemPrompt';
import { parseSlash, planResponse, responseErrorMessage } from '../../ui-model/commandModel';
import { toHistory } from './history';
import { LmChatModel } from './lmModel';
import { ChatSink } from './render';

/** What a request needs of the participant (participant.ts `ZutChat`), all of it living in dist/extension.js. */
export interface ChatRequestDeps {
  readonly host: ExtensionHost;
  readonly tracker: SessionTracker;
  /** host/chat/sessions.ts, conversation.ts and skills.ts, as dist/extension.js holds them. */
  readonly chat: Pick<typeof Sessions, 'applySession' | 'storeMessages'> &
    Pick<typeof Conversation, 'helpText' | 'historyToMessages' | 'lastTurnMeta'> &
    Pick<typeof Skills, 'activeSkills' | 'skillTool'>;
  /** The one settings reader's current values (src/vscode/settingsRead.ts). */
  settings(): ZutSettings;
  /** src/vscode/editorTools.ts `editorToolPort`. */
  editorToolPort(token: vscode.ChatParticipantToolToken | undefined, setting: EditorToolsSetting): EditorToolPort;
  clearAllNotes(): void;
  openPanel(ext: string, panel: PanelSpec): void;
  persistSessions(): void;
  /** Called with the response's sink while it streams (notes and submits go to the newest), and when it ends. */
  streaming(sink: ChatSink, on: boolean): void;
  /** The text to put into the chat input once this response has ended. */
  fillInput(query: string): void;
}

/** What a finished request returns, and the transcript the participant keeps for diagnostics. */
export interface ChatRequestDone {
  result: vscode.ChatResult & { metadata: { zut: TurnMeta } };
  shown: string[];
}

export async function handleChatRequest(
  deps: ChatRequestDeps,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<ChatRequestDone> {
  deps.clearAllNotes();
  const { host } = deps;
  const { applySession, storeMessages, historyToMessages, lastTurnMeta, activeSkills, skillTool } = deps.chat;
  host.setModel(request.model.vendor, request.model.id);

  const history = toHistory(chatContext.history);
  const session = deps.tracker.begin(lastTurnMeta(history));
  applySession(host, session);
  deps.persistSessions();

  const abort = new AbortController();
  const onCancel = token.onCancellationRequested(() => abort.abort());
  if (token.isCancellationRequested) abort.abort();
  const sink = new ChatSink(stream);
  deps.streaming(sink, true);
  let messages: ChatMessage[] = [];
  try {
    const runTurn = async (prompt: string, toolFirst?: LoopOptions['toolFirst']): Promise<LoopResult> => {
      const settings = deps.settings();
      const skills = activeSkills(host);
      const skill = skillTool(skills);
      return runLoop({
        host,
        model: new LmChatModel(request.model),
        sink,
        history: historyToMessages(history),
        prompt,
        preamble: await systemPreamble(host, skills, {
          session_id: session.context.id,
          cwd: session.context.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '',
          provider: request.model.vendor,
          model: request.model.id,
        }),
        localTools: skill ? [skill] : [],
        maxRounds: settings.chatMaxRounds,
        // VS Code's own tools, run with this request's token: its confirmations show in this chat.
        editorTools: deps.editorToolPort(request.toolInvocationToken, settings.chatEditorTools),
        toolTimeoutMs: settings.toolTimeoutSeconds * 1000,
        signal: abort.signal,
        session: session.context,
        toolFirst,
      });
    };
    const slash = parseSlash(request.prompt, request.command);
    if (!slash) messages = (await runTurn(request.prompt)).messages;
    else messages = await slashCommand(deps, slash.name, slash.args, sink, runTurn);
  } catch (e) {
    sink.notice('error', e instanceof Error ? e.message : String(e));
  } finally {
    onCancel.dispose();
    deps.streaming(sink, false);
  }
  const meta: TurnMeta = {
    ...session.meta,
    messages: storeMessages(messages),
    state: host.exportState()[session.meta.branch],
  };
  return { result: { metadata: { zut: meta } }, shown: sink.transcript };
}

/** `/help`, `/reload`, or an extension command with its `command_response` carried out in chat. */
async function slashCommand(
  deps: ChatRequestDeps,
  name: string,
  args: string,
  sink: ChatSink,
  runTurn: (prompt: string, toolFirst?: LoopOptions['toolFirst']) => Promise<LoopResult>,
): Promise<ChatMessage[]> {
  const { host } = deps;
  const lower = name.toLowerCase();
  if (lower === 'help') {
    sink.code(deps.chat.helpText(host));
    return [];
  }
  if (lower === 'reload') {
    sink.progress('Reloading zut extensions…');
    const report = await host.reload();
    const lines = [`Reloaded: ${report.ready.length} ready, ${report.errors.length} failed.`];
    for (const e of report.errors) lines.push(`${e.ext}: ${e.message}`);
    sink.code(lines.join('\n'));
    return [];
  }
  if (!host.commands().some((c) => c.active && c.name.toLowerCase() === lower)) {
    sink.notice('error', `Unknown command /${name}. Type @zut /help for the list.`);
    return [];
  }
  sink.progress(`Running /${name}…`);
  const r = await host.invokeCommand(name, args);
  // The same reading of a `command_response` as the palette's (commands.ts), carried out in chat.
  const plan = planResponse(r);
  if (plan.error !== undefined) sink.notice('error', responseErrorMessage(r.ext, name, plan.error));
  const action = plan.action;
  switch (action.kind) {
    case 'prompt':
      return (await runTurn(action.prompt)).messages;
    case 'tool_prompt':
      return (await runTurn(action.prompt, { name: action.tool, args: action.args })).messages;
    case 'display':
      sink.code(action.text);
      return [];
    case 'insert':
      // After this response ends: the input is not editable while the request runs. Prefixed so it reaches @zut.
      setTimeout(() => deps.fillInput(`@zut ${action.text.trimEnd()}`), 0);
      sink.notice('info', `Inserted the text from /${name} (${r.ext}) into the chat input.`);
      return [];
    case 'open_panel':
      deps.openPanel(r.ext, action.panel);
      sink.notice('info', `Opened the panel ${action.panel.title ?? action.panel.id} (${r.ext}).`);
      return [];
    case 'none':
      return [];
  }
}
