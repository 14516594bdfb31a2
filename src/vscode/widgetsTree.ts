/**
 * The `zut.widgets` tree view: extension → widget title → lines, and per extension a "Notes" node listing its
 * notes newest first. Labels are plain strings (never markdown or codicons from extension text); updates refresh
 * only the node that changed.
 */
import * as vscode from 'vscode';
import type { NoteLevel, WidgetSpec } from '../host/hostUi';
import { Disposable } from '../host/events';
import type { NotesModel } from '../ui-model/notesModel';

type ExtNode = { kind: 'ext'; ext: string };
type WidgetNode = { kind: 'widget'; ext: string; id: string; parent: ExtNode };
type LineNode = { kind: 'line'; index: number; text: string; parent: WidgetNode };
type NotesNode = { kind: 'notes'; ext: string; parent: ExtNode };
type NoteNode = { kind: 'note'; noteId: number; level: NoteLevel; text: string; parent: NotesNode };
/** An element of the tree. */
export type WidgetsTreeNode = ExtNode | WidgetNode | LineNode | NotesNode | NoteNode;

interface WidgetData {
  node: WidgetNode;
  title: string;
  lines: string[];
}

/** What the view holds (for tests and diagnostics). */
export interface WidgetsSnapshot {
  ext: string;
  widgets: { id: string; title: string; lines: string[] }[];
  notes: { level: NoteLevel; text: string }[];
}

const NOTE_ICONS: Record<NoteLevel, string> = { info: 'info', success: 'check', warn: 'warning', error: 'error' };

/** Tree ids must be unique and stable; names may contain any character, so they are JSON-encoded. */
const treeId = (...parts: (string | number)[]): string => `zut.widgets:${JSON.stringify(parts)}`;

export class WidgetsTree extends Disposable implements vscode.TreeDataProvider<WidgetsTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<WidgetsTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly extNodes = new Map<string, ExtNode>();
  private readonly notesNodes = new Map<string, NotesNode>();
  /** ext → widget id → data, in insertion order. */
  private readonly widgets = new Map<string, Map<string, WidgetData>>();
  private readonly view: vscode.TreeView<WidgetsTreeNode>;

  constructor(private readonly notes: NotesModel) {
    super();
    this.view = this._register(vscode.window.createTreeView('zut.widgets', { treeDataProvider: this, showCollapseAll: true }));
  }

  /** `widget`: set or replace. */
  setWidget(ext: string, spec: WidgetSpec): void {
    const hadExt = this.extNodes.has(ext);
    const ws = this.widgets.get(ext) ?? new Map<string, WidgetData>();
    this.widgets.set(ext, ws);
    const existing = ws.get(spec.id);
    const title = spec.title ?? existing?.title ?? '';
    const lines = spec.lines ?? existing?.lines ?? [];
    if (existing) {
      existing.title = title;
      existing.lines = lines;
      this.changed.fire(existing.node);
      return;
    }
    const parent = this.extNode(ext);
    ws.set(spec.id, { node: { kind: 'widget', ext, id: spec.id, parent }, title, lines });
    this.changed.fire(hadExt ? parent : undefined);
  }

  /** `widget_clear`. */
  clearWidget(ext: string, id: string): void {
    if (!this.widgets.get(ext)?.delete(id)) return;
    this.refreshExt(ext);
  }

  /** Drops the extension's widgets (its notes are dropped through the notes model + `notesChanged`). */
  clearExtension(ext: string): void {
    if (!this.widgets.delete(ext)) return;
    this.refreshExt(ext);
  }

  /** The notes model changed for this extension. */
  notesChanged(ext: string): void {
    const hadExt = this.extNodes.has(ext);
    const had = this.notesNodes.get(ext);
    const has = this.notes.list(ext).length > 0;
    if (had && has) this.changed.fire(had);
    else if (!had && has) {
      const parent = this.extNode(ext);
      this.notesNodes.set(ext, { kind: 'notes', ext, parent });
      this.changed.fire(hadExt ? parent : undefined);
    } else if (had && !has) {
      this.notesNodes.delete(ext);
      this.refreshExt(ext);
    }
  }

  getTreeItem(n: WidgetsTreeNode): vscode.TreeItem {
    const Expanded = vscode.TreeItemCollapsibleState.Expanded;
    switch (n.kind) {
      case 'ext': {
        const item = new vscode.TreeItem(n.ext, Expanded);
        item.id = treeId('ext', n.ext);
        item.iconPath = new vscode.ThemeIcon('extensions');
        item.contextValue = 'zut.widgets.ext';
        return item;
      }
      case 'widget': {
        const data = this.widgets.get(n.ext)?.get(n.id);
        const item = new vscode.TreeItem(data?.title || n.id, Expanded);
        item.id = treeId('widget', n.ext, n.id);
        item.tooltip = `Widget “${n.id}” of ${n.ext}`;
        item.contextValue = 'zut.widgets.widget';
        return item;
      }
      case 'line': {
        const item = new vscode.TreeItem(n.text === '' ? ' ' : n.text);
        item.id = treeId('line', n.parent.ext, n.parent.id, n.index);
        item.tooltip = n.text;
        return item;
      }
      case 'notes': {
        const item = new vscode.TreeItem('Notes', Expanded);
        item.id = treeId('notes', n.ext);
        item.description = String(this.notes.list(n.ext).length);
        item.iconPath = new vscode.ThemeIcon('note');
        return item;
      }
      case 'note': {
        const firstLine = n.text.split(/\r?\n/, 1)[0] ?? '';
        const item = new vscode.TreeItem(firstLine === '' ? ' ' : firstLine);
        item.id = treeId('note', n.parent.ext, n.noteId);
        item.tooltip = n.text;
        // The level is its icon (and read out): no description column to squeeze the text (a one-line command
        // answer was cut to "6 words, 25 characters, 1 line…").
        item.iconPath = new vscode.ThemeIcon(NOTE_ICONS[n.level]);
        item.accessibilityInformation = { label: `${n.level}: ${n.text}` };
        return item;
      }
    }
  }

  getChildren(n?: WidgetsTreeNode): WidgetsTreeNode[] {
    if (!n) return [...this.extNodes.values()].sort((a, b) => a.ext.localeCompare(b.ext));
    switch (n.kind) {
      case 'ext': {
        const out: WidgetsTreeNode[] = [...(this.widgets.get(n.ext)?.values() ?? [])].map((w) => w.node);
        const notes = this.notesNodes.get(n.ext);
        if (notes) out.push(notes);
        return out;
      }
      case 'widget':
        return (this.widgets.get(n.ext)?.get(n.id)?.lines ?? []).map((text, index) => ({
          kind: 'line',
          index,
          text,
          parent: n,
        }));
      case 'notes':
        return this.notes.list(n.ext).map((note) => ({
          kind: 'note',
          noteId: note.id,
          level: note.level,
          text: note.text,
          parent: n,
        }));
      default:
        return [];
    }
  }

  getParent(n: WidgetsTreeNode): WidgetsTreeNode | undefined {
    return n.kind === 'ext' ? undefined : n.parent;
  }

  snapshot(): WidgetsSnapshot[] {
    return [...this.extNodes.keys()].sort().map((ext) => ({
      ext,
      widgets: [...(this.widgets.get(ext)?.values() ?? [])].map((w) => ({ id: w.node.id, title: w.title, lines: w.lines })),
      notes: this.notes.list(ext).map((n) => ({ level: n.level, text: n.text })),
    }));
  }

  private extNode(ext: string): ExtNode {
    let node = this.extNodes.get(ext);
    if (!node) {
      node = { kind: 'ext', ext };
      this.extNodes.set(ext, node);
    }
    return node;
  }

  /** Children of the extension changed; removes the extension node once it shows nothing. */
  private refreshExt(ext: string): void {
    const node = this.extNodes.get(ext);
    if (!node) return;
    const empty = (this.widgets.get(ext)?.size ?? 0) === 0 && !this.notesNodes.has(ext);
    if (empty) {
      this.widgets.delete(ext);
      this.extNodes.delete(ext);
      this.changed.fire(undefined);
    } else this.changed.fire(node);
  }
}
