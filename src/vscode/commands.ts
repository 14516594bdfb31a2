/**
 * zut slash commands in VS Code: "Zut: Run Command…" (a quick pick of every active command, then optional
 * arguments), one `zut.command.<name>` VS Code command per registered zut command (for keybindings), and
 * `submit_slash` from extensions. A command shows window progress while it runs. A `command_response` becomes a
 * `@zut` chat request, an insertion, a note (multi-line output also a read-only document), a panel or nothing;
 * a non-empty `error` is shown whatever the action.
 */
import * as vscode from 'vscode';
import type { HostCalls, HostCatalog } from '../host/api';
import type { HostUi } from '../host/hostUi';
import { DisposableMap, type Event } from '../host/events';
import type { CommandReply as HostCommandReply } from '../host/protocols/types';
import { PALETTE_SESSION } from './callTool';
import { untilHidden } from './quickInput';
import { zutDocuments } from './documents';
import { isMultiLine } from '../ui-model/notesModel';
import { escapeIcons, escapeNotificationLinks } from '../ui-model/statusModel';
import { commandIdFor, commandPickItems, emptyCommandPick, type CommandPickItem, diffCommandIds, parseSlash, planResponse, promptQuery, responseErrorMessage } from '../ui-model/commandModel';

/** The part of `VsCodeHostUi` this module uses. */
export type CommandsUi = Pick<HostUi, 'display' | 'openPanel'> & { onDidSubmitSlash: Event<{ ext: string; text: string }> };

/** Where an `insert` goes: the active text editor, or the chat input. */
export type InsertTarget = 'editor' | 'chat';

/** A command's reply as returned by the VS Code commands (tests and keybinding users can inspect it). */
export type CommandReply = HostCommandReply & { ext: string };

/**
 * Registers `zut.runCommand`, the dynamic `zut.command.<name>` commands and the `submit_slash` handler.
 */
export function registerCommands(context: vscode.ExtensionContext, host: HostCatalog & HostCalls, ui: CommandsUi): void {
  const runner = new CommandRunner(host, ui);
  const dynamic = new DisposableMap<string, vscode.Disposable>();

  const sync = (): void => {
    const { add, remove } = diffCommandIds(new Set(dynamic.keys()), host.commands());
    for (const name of remove) dynamic.deleteAndDispose(name);
    for (const name of add) {
      try {
        dynamic.set(
          name,
          vscode.commands.registerCommand(commandIdFor(name), (args?: unknown) => runner.run(name, typeof args === 'string' ? args : '')),
        );
      } catch {
        // Another extension (or a stale registration) owns the id; "Run Command…" still lists the command.
      }
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('zut.runCommand', (name?: unknown, args?: unknown) =>
      runner.pickAndRun(typeof name === 'string' ? name : undefined, typeof args === 'string' ? args : undefined),
    ),
    host.onDidChangeExtensions(sync),
    ui.onDidSubmitSlash(({ text }) => {
      const slash = parseSlash(text);
      if (!slash) return;
      // Came from an extension (panel, widget, submit_slash): an insertion goes to the chat input.
      void runner.run(slash.name, slash.args, 'chat').catch(() => undefined);
    }),
    dynamic,
  );
  sync();
}

/** Runs zut commands and applies their responses. */
class CommandRunner {
  constructor(
    private readonly host: HostCatalog & HostCalls,
    private readonly ui: Pick<HostUi, 'display' | 'openPanel'>,
  ) {}

  /** "Zut: Run Command…": pick a command (unless given), ask for arguments (unless given), run it. */
  async pickAndRun(name?: string, args?: string): Promise<CommandReply | undefined> {
    const picked = name ?? (await this.pickCommand());
    if (picked === undefined) return undefined;
    let typed = args;
    if (typed === undefined) {
      typed = await vscode.window.showInputBox({
        title: name === undefined ? 'Zut: Run Command (2/2)' : 'Zut: Run Command',
        prompt: `Arguments for /${picked} (optional)`,
        placeHolder: 'Enter to run without arguments',
        ignoreFocusOut: true,
      });
      if (typed === undefined) return undefined;
    }
    return this.run(picked, typed);
  }

  /**
   * A quick pick of the active commands that follows the host: extensions still starting add their commands
   * while it is open (busy meanwhile), so "Run Command…" right after startup is never empty for long.
   */
  private async pickCommand(): Promise<string | undefined> {
    const qp = vscode.window.createQuickPick<CommandPickItem>();
    qp.title = 'Zut: Run Command (1/2)';
    // A multi-step pick stays open when focus moves (started from the Welcome page, focus goes back to it).
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    let shown = '';
    const update = (): void => {
      const commands = commandPickItems(this.host.commands());
      const empty = commands.length === 0 ? emptyCommandPick(this.host.extensions()) : undefined;
      const items = empty?.items ?? commands;
      // Re-assigning items resets the active row: only when the list really changed.
      const key = JSON.stringify(items);
      if (key !== shown) {
        shown = key;
        const active = qp.activeItems[0]?.name;
        qp.items = items;
        const keep = items.find((i) => i.name === active);
        if (keep) qp.activeItems = [keep];
      }
      qp.busy = empty?.busy ?? this.host.extensions().some((e) => e.state === 'starting' || e.state === 'restarting');
      qp.placeholder = empty?.placeholder ?? 'Run a zut command';
    };
    const sub = this.host.onDidChangeExtensions(update);
    update();
    try {
      // Accepting with nothing selected (no match yet, extensions still starting) keeps the pick open.
      const action = { id: undefined as string | undefined };
      const picked = await untilHidden<string>(qp, (done) => {
        const item = qp.selectedItems[0];
        if (item?.action !== undefined) {
          action.id = item.action;
          qp.hide();
        } else if (item !== undefined) done(item.name);
      });
      if (action.id !== undefined) await vscode.commands.executeCommand(action.id);
      return picked;
    } finally {
      sub.dispose();
    }
  }

  /** Invokes `/name args` and applies the response. Failures are shown, and the returned promise resolves undefined. */
  async run(name: string, args: string, target?: InsertTarget): Promise<CommandReply | undefined> {
    let reply: CommandReply;
    try {
      // Window progress (the status bar) while the extension works. Not cancellable: protocol v2 has no way to
      // cancel a `command_invoked` (only `tool_cancel` for tools), so a cancel button would promise too much. The
      // status bar renders $(icon) syntax: the name is the extension's text, escaped.
      reply = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Zut: /${escapeIcons(name)}` }, () =>
        this.host.invokeCommand(name, args),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`/${name}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    await this.apply(name, reply, target);
    return reply;
  }

  /** Applies one `command_response`. */
  async apply(name: string, reply: CommandReply, target?: InsertTarget): Promise<void> {
    const plan = planResponse(reply);
    if (plan.error !== undefined) void vscode.window.showErrorMessage(escapeNotificationLinks(responseErrorMessage(reply.ext, name, plan.error)));
    const action = plan.action;
    switch (action.kind) {
      case 'prompt':
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: promptQuery(action.prompt) });
        return;
      case 'tool_prompt': {
        // zot's tool_prompt outside a chat turn: the tool runs through the guarded path and its output is shown;
        // the prompt then opens in chat. (In `@zut` the call and result are recorded for the model.)
        const r = await this.host.invokeTool(action.tool, action.args, { session: PALETTE_SESSION, origin: 'palette' }).catch((e: unknown) => ({
          ext: reply.ext,
          isError: true,
          content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }],
        }));
        const text = r.content.map((b) => b.text ?? `[${b.type}]`).join('\n');
        this.ui.display(r.ext, `${action.tool}${r.isError ? ' (error)' : ''}: ${text}`);
        if (action.prompt.trim()) await vscode.commands.executeCommand('workbench.action.chat.open', { query: promptQuery(action.prompt) });
        return;
      }
      case 'insert':
        await insertText(action.text, target);
        return;
      case 'display':
        this.ui.display(reply.ext, action.text);
        // The user ran it from the palette, a keybinding or the view: show the output, not only a note in the
        // Widgets view (which may be closed): one line as a notification, more as a read-only document.
        // From the chat side (`submit_slash`) the note is enough.
        if (target === 'chat') return;
        if (isMultiLine(action.text)) {
          const docs = zutDocuments();
          await docs.show(docs.uri([reply.ext, name], 'txt', true), action.text, { language: 'plaintext' });
        } else void vscode.window.showInformationMessage(escapeNotificationLinks(`[${reply.ext}] ${action.text}`));
        return;
      case 'open_panel':
        this.ui.openPanel(reply.ext, action.panel);
        return;
      case 'none':
        return;
    }
  }
}

/**
 * Inserts text at every cursor of the active text editor (replacing selections, as typing does), or into the
 * chat input when there is no text editor or the target is the chat.
 */
async function insertText(text: string, target?: InsertTarget): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor && target !== 'chat') {
    const ok = await editor.edit((b) => editor.selections.forEach((sel) => b.replace(sel, text)));
    if (ok) return;
  }
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
}
