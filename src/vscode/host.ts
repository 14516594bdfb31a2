/**
 * Builds the Manager from the `zut.*` settings, the workspace folders, Workspace Trust and the workspace's consent
 * answers, starts it in the background, and keeps it current: setting changes, folder changes, trust grants and
 * manifest edits on disk go to the Manager's one serialised, coalescing reload path (it decides restart vs reload).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionHost, ManagerOptions } from '../host/api';
import type { LoadReport } from '../host/types';
import type { HostUi } from '../host/hostUi';
import { Disposable, onSettled } from '../host/events';
import { CHANGE_SETTLE_MS, SAVE_DEBOUNCE_MS, WATCH_DEBOUNCE_MS } from '../protocol/limits';
import { Manager } from '../host/manager';
import { watchedFiles } from '../host/disk/manifestSignature';
import { isInside } from '../host/extensions/consent';
import { globalExtensionsDir, resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import { ExtensionOutput } from './output';
import { affectsAny, effectiveZutHome, resolveExtensionPaths, RELOAD_KEYS, type ZutSettings } from '../ui-model/settings';
import { zutSettings } from './settingsRead';
import { isWorkspaceTrusted, registerTrust } from './trust';
import { editorToolPort } from './editorTools';

/** What the management commands need beyond the Manager's API. */
export interface HostControl {
  /** The Manager's queued, coalesced reload (a reload already waiting to run is shared), logged with `reason`. */
  reload(reason: string): Promise<LoadReport>;
  /** Runs `fn` between host operations (install, remove); `fn` must not call the Manager's serialised operations. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** The last start/reload's report (load errors for the doctor). */
  lastReport(): LoadReport | undefined;
  /** `$ZUT_HOME` in effect. */
  zutHome(): string;
  /** Per-extension log channels. */
  readonly output: ExtensionOutput;
  /** The first start: resolves when every extension is ready or failed (rejects if the start itself failed). */
  readonly started: Promise<LoadReport>;
}

/**
 * Creates the Manager and starts it without waiting: activation never waits for discovery or spawning, and the
 * file watchers and the start itself run just after `activate()` returns (they are its costliest part).
 * Everything it registers is disposed with `context`; `deactivate` should `await host.stop()`.
 */
export function createHost(context: vscode.ExtensionContext, ui: HostUi, log: vscode.LogOutputChannel): { host: ExtensionHost; control: HostControl } {
  const runtime = new HostRuntime(context, ui, log);
  context.subscriptions.push(runtime);
  runtime.startInBackground();
  return { host: runtime.manager, control: runtime };
}

class HostRuntime extends Disposable implements HostControl {
  readonly manager: Manager;
  readonly output: ExtensionOutput;
  private readonly options: ManagerOptions;
  private settings: ZutSettings;
  private watchers: vscode.Disposable[] = [];
  private watchTimer: NodeJS.Timeout | undefined;
  /** When the pending watchTimer fires (performance.now()), and whether a save in the editor is among its changes. */
  private watchDue = 0;
  private watchSaved = false;
  private readonly changedPaths = new Set<string>();
  private execWatchers: vscode.Disposable[] = [];
  private execWatchKey = '';
  started: Promise<LoadReport> = new Promise(() => undefined);
  private startTimer: NodeJS.Immediate | undefined;

  constructor(
    context: vscode.ExtensionContext,
    ui: HostUi,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.settings = this.readSettings();
    // The Manager reads these options at every (re)load, so updating this object and reloading applies them.
    this.options = {
      folders: [],
      zutHome: '',
      ui,
      hostVersion: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
      isTrusted: isWorkspaceTrusted,
      // What this machine knows of each extension as a guard (host/extensions/guardMemory.ts): a guard that is
      // restarting after a reload of the window is waited for, not taken for none.
      guardMemoryFile: path.join(context.globalStorageUri.fsPath, 'guards.json'),
      // zot's `call_tool` of VS Code's own tools: every one but ours and the internal ones, no chat token.
      editorTools: editorToolPort(undefined, 'all'),
      // Consent answers and "Disable (Workspace)" live in workspace state: local to this machine, never in the repository.
      consent: {
        mode: () => this.settings.consentMode,
        choices: { get: (k) => context.workspaceState.get(k), set: (k, v) => context.workspaceState.update(k, v) },
      },
    };
    this.applySettings();
    this.manager = new Manager(this.options);
    this._register({ dispose: () => this.manager.dispose() });
    this.output = this._register(new ExtensionOutput(this.manager, log));
    // Once per burst of changes (a start of many extensions is many changes), not on each.
    this._register(onSettled(this.manager.onDidChangeExtensions, CHANGE_SETTLE_MS, () => this.rewatchExecutables()));
    this._register(this.manager.onDidLoad(({ what, report }) => this.logReport(what, report)));
    this._register({ dispose: () => this.execWatchers.forEach((w) => w.dispose()) });

    this._register(vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)));
    this._register(vscode.workspace.onDidSaveTextDocument((d) => this.savedInEditor(d)));
    this._register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.applySettings();
        this.rewatch();
        void this.reload('workspace folders changed').catch(() => undefined);
      }),
    );
    registerTrust(context, () => void this.reload('workspace trusted').catch(() => undefined));
    this._register({
      dispose: () => {
        clearTimeout(this.watchTimer);
        clearImmediate(this.startTimer);
        this.watchers.forEach((w) => w.dispose());
        // deactivate() awaits stop(); this covers a dispose without deactivate.
        void this.manager.stop().catch(() => undefined);
      },
    });
  }

  /** On the next turn of the event loop (activate() has returned): the file watchers, then the first start. */
  startInBackground(): void {
    this.started = new Promise<LoadReport>((resolve) => {
      this.startTimer = setImmediate(() => {
        this.rewatch();
        this.log.info(`Starting zut extensions (ZUT_HOME ${this.options.zutHome}; folders: ${this.options.folders.join(', ') || 'none'})`);
        resolve(this.manager.start());
      });
    });
    void this.started.catch((e: unknown) => this.log.error(`Start failed: ${errorText(e)}`));
  }

  reload(reason: string): Promise<LoadReport> {
    this.log.info(`Reloading zut extensions (${reason})`);
    return this.manager.reload().catch((e: unknown) => {
      this.log.error(`Reload failed: ${errorText(e)}`);
      throw e;
    });
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.manager.exclusive(fn);
  }

  lastReport(): LoadReport | undefined {
    return this.manager.lastReport();
  }

  zutHome(): string {
    return this.options.zutHome;
  }

  /** Logs the outcome of every start/reload, whoever asked for it (palette, chat, watcher, settings). */
  private logReport(what: 'start' | 'reload', r: LoadReport): void {
    this.log.info(`Loaded ${r.loaded.length} extension(s); ready: ${r.ready.join(', ') || 'none'}${what === 'reload' ? ' (reload)' : ''}`);
    for (const e of r.errors) this.log.error(`${e.ext}: ${e.message}`);
  }

  private readSettings(): ZutSettings {
    const { settings, problems, ignored } = zutSettings();
    for (const p of problems) this.log.warn(`Invalid setting ${p}`);
    for (const k of ignored) this.log.warn(`${k} is set by the workspace or a folder: ignored (only your user settings may say which extensions run without consent)`);
    return settings;
  }

  /** Copies settings, folders and trust into the Manager's options. */
  private applySettings(): void {
    const s = this.settings;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    this.options.folders = folders;
    this.options.zutHome = effectiveZutHome(s.home, folders, () => resolveZutHome());
    this.options.extensionPaths = resolveExtensionPaths(s.extensionPaths, folders);
    this.options.zot = s.compatZot ? { home: resolveZotHome() } : undefined;
    this.options.e = s.compatE ? { home: resolveEHome() } : undefined;
    this.options.toolTimeoutMs = Math.round(s.toolTimeoutSeconds * 1000);
    this.options.autoRestart = s.autoRestart;
    this.options.trace = s.trace;
    this.options.helloTimeoutMs = Math.round(s.startTimeoutSeconds * 1000);
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration('zut')) return;
    const before = this.settings;
    this.settings = this.readSettings();
    this.applySettings();
    if (before.trace !== this.settings.trace) this.manager.setTrace(this.settings.trace);
    if (affectsAny((s) => e.affectsConfiguration(s), RELOAD_KEYS)) {
      this.rewatch();
      void this.reload('settings changed').catch(() => undefined);
    }
  }

  /**
   * Watches every manifest the Manager could load (project in all folders, global, explicit paths), and the
   * extensions directories' entries: on Linux a manifest written right after its new directory can be missed
   * by the recursive watcher, while the directory's creation is not.
   */
  private rewatch(): void {
    this.watchers.forEach((w) => w.dispose());
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
    const on = (u: vscode.Uri): void => this.manifestChanged(u);
    this.watchers = [
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
   * A file saved in the editor: when it is a loaded extension's manifest, executable or argument file, the Manager
   * decides after SAVE_DEBOUNCE_MS instead of waiting for the file watcher and its quiet period (save → new
   * behaviour is an author's inner loop). The watcher's own event comes later and finds the process newer than the
   * file (loader.applyChanges): no second restart. A file of one of the user's own extensions (New Extension,
   * Install) is first offered as their own edit (gates.ts `allowOwnEdit`, queued before that restart), so saving
   * what they wrote does not ask for consent.
   */
  private savedInEditor(doc: vscode.TextDocument): void {
    const uri = doc.uri;
    if (uri.scheme !== 'file') return;
    const file = uri.fsPath;
    const exts = this.manager.extensions();
    // Only where the gate would look (gates.ts allowOwnEdit: not e's), so other saves are not encoded for nothing.
    if (exts.some((e) => e.ecosystem !== 'e' && isInside(file, e.dir))) {
      void this.manager.allowOwnEdit(file, new TextEncoder().encode(doc.getText())).catch((e: unknown) => this.log.warn(`${file}: ${errorText(e)}`));
    }
    const watched = exts.some((e) => e.manifestPath === file || watchedFiles(e).includes(file));
    if (watched) this.manifestChanged(uri, SAVE_DEBOUNCE_MS, true);
  }

  /**
   * A manifest, extension directory or executable changed: after a quiet period the Manager decides. Each change
   * restarts the quiet period, except that a pending save's short one is never pushed back by the watcher's late
   * event for the same write.
   */
  private manifestChanged(uri: vscode.Uri, quietMs = WATCH_DEBOUNCE_MS, saved = false): void {
    this.changedPaths.add(uri.fsPath);
    const now = performance.now();
    const pending = this.watchTimer !== undefined;
    const due = pending && this.watchSaved ? Math.min(this.watchDue, now + quietMs) : now + quietMs;
    this.watchSaved = (pending && this.watchSaved) || saved;
    this.watchDue = due;
    clearTimeout(this.watchTimer);
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      const how = this.watchSaved ? 'saved in the editor' : 'changed on disk';
      this.watchSaved = false;
      const paths = [...this.changedPaths];
      this.changedPaths.clear();
      void this.manager
        .applyChanges(paths)
        .then(({ reloaded, restarted }) => {
          if (reloaded) this.log.info(`Reloaded zut extensions (${paths[0]} ${how})`);
          for (const n of restarted) this.log.info(`Restarted ${n} (its manifest or executable ${how})`);
        })
        .catch((e: unknown) => this.log.error(`Applying changes on disk failed: ${errorText(e)}`));
    }, Math.max(0, due - now));
  }

  /** Watches each loaded extension's executable, argument and SKILL.md files inside its directory (`watchedFiles`). */
  private rewatchExecutables(): void {
    const targets = this.manager
      .extensions()
      .flatMap((e) => watchedFiles(e))
      .filter((p, i, all) => all.indexOf(p) === i)
      .sort();
    const key = targets.join('\n');
    if (key === this.execWatchKey) return;
    this.execWatchKey = key;
    this.execWatchers.forEach((w) => w.dispose());
    const on = (u: vscode.Uri): void => this.manifestChanged(u);
    this.execWatchers = targets.flatMap((file) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)), false, false, true);
      return [w, w.onDidCreate(on), w.onDidChange(on)];
    });
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
