/**
 * The `@zut` chat participant: each request runs the VS Code-free loop (src/host/chat/loop.ts) on `request.model`
 * with every active zut tool and VS Code's own tools (`zut.chat.editorTools`, editorTools.ts) offered as private
 * tools, or carries out a zut slash command (`@zut /name args`). Registered at activation; a request itself is
 * request.ts, built as dist/chat.js and loaded at the first (lazyBundle.ts), with what has state handed in from here.
 * A conversation is a zut session: its id and branch travel in `ChatResult.metadata`, and extension state is kept
 * in workspace storage so it survives a window reload.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from '../../host/api';
import type { NoteLevel } from '../../host/hostUi';
import { Disposable, type Event } from '../../host/events';
import type { PanelSpec } from '../../protocol';
import { applySession, SessionTracker, storeMessages, type TurnMeta } from '../../host/chat/sessions';
import { activeSkills, skillTool } from '../../host/chat/skills';
import { helpText, historyToMessages, lastTurnMeta } from '../../host/chat/conversation';
import { zutSettings } from '../settingsRead';
import { PARTICIPANT_ID } from './history';
import type { ChatSink } from './render';
import type * as ChatRequest from './request';
import { editorToolPort } from '../editorTools';
import { lazyBundle } from '../lazyBundle';
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
  /** The request handler: dist/chat.js (request.ts), loaded at the first request. */
  private readonly load: () => typeof ChatRequest;
  private readonly deps: ChatRequest.ChatRequestDeps;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: ExtensionHost,
    private readonly ui: ChatUi,
  ) {
    super();
    this.load = lazyBundle<typeof ChatRequest>(context, 'chat');
    const saved: unknown = context.workspaceState.get(STATE_KEY);
    if (saved && typeof saved === 'object') host.importState(saved as Record<string, Record<string, unknown>>);
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    this.tracker = new SessionTracker(context.workspaceState.get(SESSIONS_KEY), cwd);
    const restored = this.tracker.activeContext();
    if (restored) host.setSession(restored);
    this.deps = {
      host,
      tracker: this.tracker,
      chat: { applySession, storeMessages, helpText, historyToMessages, lastTurnMeta, activeSkills, skillTool },
      settings: () => zutSettings().settings,
      editorToolPort,
      clearAllNotes: () => ui.clearAllNotes(),
      openPanel: (ext, panel) => ui.openPanel(ext, panel),
      persistSessions: () => this.persistSessions(),
      streaming: (sink, on) => {
        if (on) this.active.push(sink);
        else {
          this.active.splice(this.active.indexOf(sink), 1);
          if (this.active.length === 0) this.drainQueue();
        }
      },
      fillInput: (query) => this.fillInput(query),
    };

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

  /** One request: dist/chat.js (request.ts), loaded at the first. */
  private async handle(
    request: vscode.ChatRequest,
    chatContext: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const done = await this.load().handleChatRequest(this.deps, request, chatContext, stream, token);
    this.recent.push({ prompt: request.prompt, command: request.command, shown: done.shown, metadata: done.result.metadata });
    if (this.recent.length > RECENT_MAX) this.recent.shift();
    return done.result;
  }

  /** Queued submits run after the current request; each following one waits for the previous (see `handle`). */
  private drainQueue(): void {
    const next = this.queued.shift();
    if (next !== undefined) setTimeout(() => this.openChat(next.text), 0);
  }
}
