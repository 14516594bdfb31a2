/**
 * `status` frames → status bar items: one `StatusBarItem` per (extension, key), id `zut.status.<ext>.<key>`
 * (the workbench DOM id is `zut.zut-vscode.zut.status.<ext>.<key>`). Empty text removes the item. Clicking an item
 * reveals its extension's row in the Extensions view (state, commands, log).
 */
import * as vscode from 'vscode';
import { Disposable, DisposableMap, type IDisposable } from '../host/events';
import { statusPresentation } from '../ui-model/statusModel';

/** What a status item shows (for tests and diagnostics). */
export interface StatusSnapshot {
  id: string;
  ext: string;
  key: string;
  text: string;
  tooltip: string;
  background?: string;
  /** What a click runs. */
  command?: { command: string; arguments: unknown[] };
}

/** One shown item and what it is for. */
class StatusEntry implements IDisposable {
  constructor(
    readonly ext: string,
    readonly key: string,
    readonly item: vscode.StatusBarItem,
  ) {}
  dispose(): void {
    this.item.dispose();
  }
}

export class StatusBarSurface extends Disposable {
  private readonly items = this._register(new DisposableMap<string, StatusEntry>());

  /** Sets, replaces or (empty text) removes one item. */
  set(ext: string, key: string, level: string | undefined, text: string): void {
    const mapKey = JSON.stringify([ext, key]);
    if (text.trim() === '') {
      this.items.deleteAndDispose(mapKey);
      return;
    }
    let entry = this.items.get(mapKey);
    if (!entry) {
      const item = vscode.window.createStatusBarItem(`zut.status.${ext}.${key}`, vscode.StatusBarAlignment.Left, 0);
      item.name = `Zut: ${ext} ${key}`;
      item.command = { command: 'zut.revealExtension', title: 'Show in Zut Extensions', arguments: [ext] };
      entry = new StatusEntry(ext, key, item);
      this.items.set(mapKey, entry);
    }
    const look = statusPresentation(level, text);
    entry.item.text = look.text;
    entry.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    // A plain string tooltip is shown as text, never markdown.
    entry.item.tooltip = `Zut extension “${ext}” (${key}): ${text}\nClick to show the extension in the Zut side bar.`;
    entry.item.show();
  }

  /** Drops every item of one extension. */
  clearExtension(ext: string): void {
    for (const [k, e] of [...this.items.entries()]) if (e.ext === ext) this.items.deleteAndDispose(k);
  }

  snapshot(): StatusSnapshot[] {
    return [...this.items.values()].map(({ ext, key, item }) => ({
      id: item.id,
      ext,
      key,
      text: item.text,
      tooltip: typeof item.tooltip === 'string' ? item.tooltip : '',
      background: item.backgroundColor?.id,
      command: typeof item.command === 'object' ? { command: item.command.command, arguments: item.command.arguments ?? [] } : undefined,
    }));
  }
}
