/**
 * The `@zut` chat participant: each request runs the VS Code-free loop (src/host/chat/loop.ts) on `request.model`
 * with every active zut tool and VS Code's own tools (`zut.chat.editorTools`, editorTools.ts) offered as private
 * tools, or carries out a zut slash command (`@zut /name args`).
 * A conversation is a zut session: its id and branch travel in `ChatResult.metadata`, and extension state is kept
 * in workspace storage so it survives a window reload.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from '../../host/api';
import type { NoteLevel } from '../../host/hostUi';
import { Disposable, type Event } from '../../host/events';
import type { PanelSpec } from '../../protocol';
import { helpText, historyToMessages, lastTurnMeta } from '../../host/chat/conversation';
import { runLoop, type LoopOptions, type LoopResult } from '../../host/chat/loop';
import type { ChatMessage } from '../../host/chat/model';
import { applySession, SessionTracker, storeMessages, type TurnMeta } from '../../host/chat/sessions';
import { activeSkills, skillTool } from '../../host/chat/skills';
import { systemPreamble } from '../../host/chat/systemPrompt';
import { parseSlash, planResponse, responseErrorMessage } from '../../ui-model/commandModel';
import { zutSettings } from '../settingsRead';
import { toHistory, PARTICIPANT_ID } from './history';
import { LmChatModel } from './lmModel';
import { ChatSink } from './render';
import { editorToolPort } from '../editorTools';
import { CHAT_RECENT_RESPONSES as RECENT_MAX } from '../../protocol/limits';
import { SubmitQueue } from '../../ui-model/submitQueue';

/** What chat needs from `VsCodeHostUi` (src/vscode/hostUi.ts). */
export interface ChatUi {
  readonly onDidSubmit: Event<{ ext: string; text: string }>;
  readonly onDidNote: Event<{ ext: string; level: NoteLevel; text: string }>;
  clearAllNotes(): void;
  openPanel(ext: string, panel: PanelSpec): void;
}

const STATE_KEY = 'zut.chat.extensionState';
/** Internal command (not in the palette): the last responses as streamed, for diagnostics and the in-host tests. */
const RECENT_COMMAND = 'zut.chat.recentResponses';

/** One finished `@zut` response as the user saw it. */
export interface RecentResponse {
  prompt: string;
  command?: string;
  /** Markdown and `progress: …` lines, in order. */
  shown: string[];
  metadata: { zut: TurnMeta };
}
const SESSIONS_KEY = 'zut.chat.sessions';

/** Registers `@zut`; everything it owns is disposed with the extension. */
export function registerChat(context: vscode.ExtensionContext, host: ExtensionHost, ui: ChatUi): void {
  const chat = new ZutChat(context, host, ui);
  context.subscriptions.push(chat);
}

class ZutChat extends Disposable {
  private readonly tracker: SessionTracker;
  /** Responses currently streaming, newest last: extension notes and submits go to the newest. */
  private readonly active: ChatSink[] = [];
  /** `submit`s waiting for the running request(s) to finish: one per extension, a newer one replaces it. */
  private readonly queued = new SubmitQueue();
  private readonly recent: RecentResponse[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: ExtensionHost,
    private readonly ui: ChatUi,
  ) {
    super();
    const saved: unknown = context.workspaceState.get(STATE_KEY);
    if (saved && typeof saved === 'object') host.importState(saved as Record<string, Record<string, unknown>>);
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    this.tracker = new SessionTracker(context.workspaceState.get(SESSIONS_KEY), cwd);
    const restored = this.tracker.activeContext();
    if (restored) host.setSession(restored);

    const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (req, ctx, stream, token) =>
      this.handle(req, ctx, stream, token),
    );
    participant.iconPath = new vscode.ThemeIcon('extensions');
    this._register(participant);
    this._register(host.onDidChangeSessionState(() => this.persistState()));
    this._register(ui.onDidNote((n) => this.active.at(-1)?.note(n.ext, n.level, n.text)));
    this._register(ui.onDidSubmit((s) => this.submit(s.ext, s.text)));
    this._register(vscode.commands.registerCommand(RECENT_COMMAND, () => this.recent));
    if (process.env.ZUT_TEST_HOOKS === '1' || context.extensionMode === vscode.ExtensionMode.Test) {
      // What survives a window reload (read back by the constructor above), for the in-host tests.
      this._register(
        vscode.commands.registerCommand('zut.test.persistedChatState', () => ({
          state: context.workspaceState.get(STATE_KEY),
          sessions: context.workspaceState.get(SESSIONS_KEY),
        })),
      );
    }
  }

  private persistState(): void {
    this.context.workspaceState.update(STATE_KEY, this.host.exportState()).then(undefined, (e: unknown) => {
      console.error('[zut] saving chat state failed:', e);
    });
  }

  private persistSessions(): void {
    this.context.workspaceState.update(SESSIONS_KEY, this.tracker.snapshot()).then(undefined, (e: unknown) => {
      console.error('[zut] saving chat sessions failed:', e);
    });
  }

  /** An extension's `submit`: a new `@zut` request now, or once the running ones are done. */
  private submit(ext: string, text: string): void {
    const sink = this.active.at(-1);
    if (sink) {
      const replaced = this.queued.push(ext, text);
      sink.note(ext, 'info', replaced ? `queued: ${text} (replaces its pending submit: ${replaced.text})` : `queued: ${text}`);
    } else this.openChat(text);
  }

  private openChat(text: string): void {
    vscode.commands.executeCommand('workbench.action.chat.open', { query: `@zut ${text}` }).then(undefined, (e) => {
      console.error('[zut] opening chat failed:', e);
    });
  }

  private fillInput(query: string): void {
    vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true }).then(undefined, (e) => {
      console.error('[zut] filling the chat input failed:', e);
    });
  }

  private async handle(
    request: vscode.ChatRequest,
    chatContext: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    this.ui.clearAllNotes();
    const { host } = this;
    host.setModel(request.model.vendor, request.model.id);

    const history = toHistory(chatContext.history);
    const session = this.tracker.begin(lastTurnMeta(history));
    applySession(host, session);
    this.persistSessions();

    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    const sink = new ChatSink(stream);
    this.active.push(sink);
    let messages: ChatMessage[] = [];
    try {
      const runTurn = async (prompt: string, toolFirst?: LoopOptions['toolFirst']): Promise<LoopResult> => {
        const settings = zutSettings().settings;
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
          editorTools: editorToolPort(request.toolInvocationToken, settings.chatEditorTools),
          toolTimeoutMs: settings.toolTimeoutSeconds * 1000,
          signal: abort.signal,
          session: session.context,
          toolFirst,
        });
      };
      const slash = parseSlash(request.prompt, request.command);
      if (!slash) messages = (await runTurn(request.prompt)).messages;
      else messages = await this.slashCommand(slash.name, slash.args, sink, runTurn);
    } catch (e) {
      sink.notice('error', e instanceof Error ? e.message : String(e));
    } finally {
      onCancel.dispose();
      this.active.splice(this.active.indexOf(sink), 1);
      if (this.active.length === 0) this.drainQueue();
    }
    const meta: TurnMeta = {
      ...session.meta,
      messages: storeMessages(messages),
      state: host.exportState()[session.meta.branch],
    };
    this.recent.push({ prompt: request.prompt, command: request.command, shown: sink.transcript, metadata: { zut: meta } });
    if (this.recent.length > RECENT_MAX) this.recent.shift();
    return { metadata: { zut: meta } };
  }

  /** Queued submits run after the current request; each following one waits for the previous (see `handle`). */
  private drainQueue(): void {
    const next = this.queued.shift();
    if (next !== undefined) setTimeout(() => this.openChat(next.text), 0);
  }

  /** `/help`, `/reload`, or an extension command with its `command_response` carried out in chat. */
  private async slashCommand(
    name: string,
    args: string,
    sink: ChatSink,
    runTurn: (prompt: string, toolFirst?: LoopOptions['toolFirst']) => Promise<LoopResult>,
  ): Promise<ChatMessage[]> {
    const { host } = this;
    const lower = name.toLowerCase();
    if (lower === 'help') {
      sink.code(helpText(host));
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
        setTimeout(() => this.fillInput(`@zut ${action.text.trimEnd()}`), 0);
        sink.notice('info', `Inserted the text from /${name} (${r.ext}) into the chat input.`);
        return [];
      case 'open_panel':
        this.ui.openPanel(r.ext, action.panel);
        sink.notice('info', `Opened the panel ${action.panel.title ?? action.panel.id} (${r.ext}).`);
        return [];
      case 'none':
        return [];
    }
  }
}
