/**
 * The Extensions view (`zut.extensions`): every discovered extension with its state, and under it its
 * commands, tools, diagnostics and log. Driven by `onDidChangeExtensions`, never by polling. Rows come from
 * the VS Code-free model in src/ui-model/extensionsModel.ts; context menus match their `contextValue`.
 */
import * as vscode from 'vscode';
import type { HostCatalog } from '../host/api';
import { Disposable, toDisposable } from '../host/events';
import { STARTING_TICK_MS, VIEW_REFRESH_DELAY_MS as REFRESH_DELAY_MS } from '../protocol/limits';
import type { ExtensionInfo } from '../host/types';
import { agentToolName } from './agentModeMcpServer';
import { extensionChildren, extensionItem, groupChildren, sortExtensions, type GroupKind, type ItemModel } from '../ui-model/extensionsModel';

/** A node of the tree. Extension nodes carry `info` so context-menu commands can read the extension's name. */
export type ExtensionsNode =
  | { kind: 'ext'; info: ExtensionInfo }
  | { kind: 'group'; info: ExtensionInfo; group: GroupKind; model: ItemModel }
  | { kind: 'leaf'; info: ExtensionInfo; model: ItemModel };


class ExtensionsTreeProvider extends Disposable implements vscode.TreeDataProvider<ExtensionsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ExtensionsNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: HostCatalog) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('zut.agentTools') && this.scheduleRefresh()));
    this._register(host.onDidChangeExtensions(() => this.scheduleRefresh()));
    this._register(toDisposable(() => {
      clearTimeout(this.timer);
      clearTimeout(this.tick);
    }));
  }

  /** Extensions that need attention (error, crashed, blocked), for the view badge. */
  attention(): ExtensionInfo[] {
    return this.host.extensions().filter((e) => e.state === 'error' || e.state === 'crashed' || e.state === 'blocked' || e.state === 'consent');
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.fire(undefined);
    // "starting… (12 s)": while an extension waits for its hello, its row's counter ticks.
    clearTimeout(this.tick);
    this.tick = this.host.extensions().some((e) => e.startingSince !== undefined) ? setTimeout(() => this.refresh(), STARTING_TICK_MS) : undefined;
  }

  private tick: NodeJS.Timeout | undefined;

  private scheduleRefresh(): void {
    this.timer ??= setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
  }

  getChildren(node?: ExtensionsNode): ExtensionsNode[] {
    if (!node) return sortExtensions(this.host.extensions()).map((info) => ({ kind: 'ext', info }));
    if (node.kind === 'ext') {
      return extensionChildren(node.info).map((model): ExtensionsNode =>
        model.group ? { kind: 'group', info: node.info, group: model.group, model } : { kind: 'leaf', info: node.info, model },
      );
    }
    if (node.kind === 'group') return groupChildren(node.info, node.group, (t) => agentToolName(this.host, t)).map((model) => ({ kind: 'leaf', info: node.info, model }));
    return [];
  }

  /** Rows below an extension belong to it (needed by `TreeView.reveal`). */
  getParent(node: ExtensionsNode): ExtensionsNode | undefined {
    return node.kind === 'ext' ? undefined : { kind: 'ext', info: node.info };
  }

  /** The row of the extension named `name`, if the host knows it. */
  extensionNode(name: string): ExtensionsNode | undefined {
    const info = this.host.extensions().find((e) => e.name === name);
    return info ? { kind: 'ext', info } : undefined;
  }

  getTreeItem(node: ExtensionsNode): vscode.TreeItem {
    return toTreeItem(node.kind === 'ext' ? extensionItem(node.info) : node.model);
  }
}

/** An item model as a TreeItem. Labels, descriptions and tooltips are plain strings (extension text is data). */
function toTreeItem(m: ItemModel): vscode.TreeItem {
  const item = new vscode.TreeItem(m.label, m.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = m.id;
  item.description = m.description;
  item.tooltip = m.tooltip;
  item.contextValue = m.contextValue;
  if (m.icon) item.iconPath = new vscode.ThemeIcon(m.icon.id, m.icon.color ? new vscode.ThemeColor(m.icon.color) : undefined);
  if (m.command) item.command = { command: m.command.id, title: m.command.title, arguments: m.command.args };
  return item;
}

/**
 * Registers the Extensions view; the badge counts extensions in error, crashed, blocked or waiting for consent.
 * `zut.revealExtension` (name) selects and focuses that extension's row (status bar items run it when clicked).
 */
export function registerExtensionsView(context: vscode.ExtensionContext, host: HostCatalog): ExtensionsTreeProvider {
  const provider = new ExtensionsTreeProvider(host);
  // Multi-select: Allow, Don't Allow, Revoke Consent, Stop… act on every selected row (localChoices.ts).
  const view = vscode.window.createTreeView('zut.extensions', { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const updateBadge = (): void => {
    const n = provider.attention().length;
    view.badge = n > 0 ? { value: n, tooltip: `${n} zut extension${n === 1 ? ' needs' : 's need'} attention` } : undefined;
  };
  context.subscriptions.push(
    provider,
    view,
    provider.onDidChangeTreeData(updateBadge),
    vscode.commands.registerCommand('zut.revealExtension', async (name?: unknown) => {
      const node = typeof name === 'string' ? provider.extensionNode(name) : undefined;
      if (!node) return vscode.commands.executeCommand('zut.extensions.focus');
      await view.reveal(node, { select: true, focus: true, expand: true });
    }),
  );
  return provider;
}
