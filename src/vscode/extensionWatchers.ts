/**
 * The window's eyes on extension files, feeding the runtime's one change loop (src/runtime/changes.ts `ChangeSink`):
 * VS Code's file watchers on every manifest the host could load (project in all folders, global, explicit paths) and
 * on the extensions directories' entries (on Linux a manifest written right after its new directory can be missed by
 * the recursive watcher, while the directory's creation is not), on each loaded extension's executable, argument and
 * SKILL.md files, and saves in the editor.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ManagerOptions } from '../host/api';
import { Disposable, onSettled } from '../host/events';
import type { Manager } from '../host/manager';
import { watchedFiles } from '../host/disk/manifestSignature';
import { isInside } from '../host/extensions/consent';
import { globalExtensionsDir } from '../host/disk/paths';
import { CHANGE_SETTLE_MS } from '../protocol/limits';
import type { ChangeSink } from '../runtime/changes';

export class ExtensionWatchers extends Disposable {
  private homes: vscode.Disposable[] = [];
  private execs: vscode.Disposable[] = [];
  private execKey = '';

  constructor(
    private readonly options: ManagerOptions,
    private readonly host: Pick<Manager, 'extensions' | 'onDidChangeExtensions' | 'allowOwnEdit'>,
    private readonly sink: ChangeSink,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    // Once per burst of changes (a start of many extensions is many changes), not on each.
    this._register(onSettled(host.onDidChangeExtensions, CHANGE_SETTLE_MS, () => this.rewatchExecutables()));
    this._register(vscode.workspace.onDidSaveTextDocument((d) => this.savedInEditor(d)));
    this._register({ dispose: () => [...this.homes, ...this.execs].forEach((w) => w.dispose()) });
  }

  /** Watches the manifests and extension directories of the options now in effect (again after settings or folders changed). */
  rewatch(): void {
    this.homes.forEach((w) => w.dispose());
    const globalDir = vscode.Uri.file(globalExtensionsDir(this.options.zutHome));
    const { zot, e } = this.options;
    const zotDir = zot && vscode.Uri.file(globalExtensionsDir(zot.home));
    const eDir = e && vscode.Uri.file(globalExtensionsDir(e.home));
    const manifests: vscode.GlobPattern[] = [
      '**/.zut/extensions/*/extension.json',
      new vscode.RelativePattern(globalDir, '*/extension.json'),
      ...(this.options.extensionPaths ?? []).map((p) => new vscode.RelativePattern(vscode.Uri.file(p), 'extension.json')),
      ...(zotDir ? ['**/.zot/extensions/*/extension.json', new vscode.RelativePattern(zotDir, '*/extension.json')] : []),
    ];
    // e extensions have no manifest: their entries (top-level executables, directories) coming and going.
    const dirs: vscode.GlobPattern[] = [
      '**/.zut/extensions/*',
      new vscode.RelativePattern(globalDir, '*'),
      ...(zotDir ? ['**/.zot/extensions/*', new vscode.RelativePattern(zotDir, '*')] : []),
      ...(eDir ? ['**/.e/extensions/*', new vscode.RelativePattern(eDir, '*')] : []),
    ];
    const on = (u: vscode.Uri): void => this.sink.changed(u.fsPath);
    this.homes = [
      ...manifests.flatMap((pattern) => {
        const w = vscode.workspace.createFileSystemWatcher(pattern);
        return [w, w.onDidCreate(on), w.onDidChange(on), w.onDidDelete(on)];
      }),
      ...dirs.flatMap((pattern) => {
        const w = vscode.workspace.createFileSystemWatcher(pattern, false, true, false);
        return [w, w.onDidCreate(on), w.onDidDelete(on)];
      }),
    ];
  }

  /**
   * A file saved in the editor: when it is a loaded extension's manifest, executable or argument file, the change
   * loop applies it at once (the next turn) instead of waiting for the file watcher and its quiet period (save → new
   * behaviour is an author's inner loop). The watcher's own event, and the other saves of a "Save All" that arrive
   * while that restart runs, find the process newer than the file (loader.applyChanges): no second restart. A file of one of the user's own extensions (New Extension,
   * Install) is first offered as their own edit (gates.ts `allowOwnEdit`, queued before that restart), so saving
   * what they wrote does not ask for consent.
   */
  private savedInEditor(doc: vscode.TextDocument): void {
    const uri = doc.uri;
    if (uri.scheme !== 'file') return;
    const file = uri.fsPath;
    const exts = this.host.extensions();
    // Only where the gate would look (gates.ts allowOwnEdit: not e's), so other saves are not encoded for nothing.
    if (exts.some((e) => e.ecosystem !== 'e' && isInside(file, e.dir))) {
      void this.host.allowOwnEdit(file, new TextEncoder().encode(doc.getText())).catch((e: unknown) => this.log.warn(`${file}: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (exts.some((e) => e.manifestPath === file || watchedFiles(e).includes(file))) this.sink.changed(file, { saved: true });
  }

  /** Watches each loaded extension's executable, argument and SKILL.md files inside its directory (`watchedFiles`). */
  private rewatchExecutables(): void {
    const targets = this.host
      .extensions()
      .flatMap((e) => watchedFiles(e))
      .filter((p, i, all) => all.indexOf(p) === i)
      .sort();
    const key = targets.join('\n');
    if (key === this.execKey) return;
    this.execKey = key;
    this.execs.forEach((w) => w.dispose());
    const on = (u: vscode.Uri): void => this.sink.changed(u.fsPath);
    this.execs = targets.flatMap((file) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)), false, false, true);
      return [w, w.onDidCreate(on), w.onDidChange(on)];
    });
  }
}
