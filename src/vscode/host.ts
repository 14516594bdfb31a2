/**
 * The window's shell over the runtime (src/runtime, kind `window`): its choices from the `zut.*` settings, the
 * workspace folders, Workspace Trust and the workspace's consent answers; the start in the background; and keeping it
 * current: setting changes, folder changes and trust grants go to the Manager's one serialised, coalescing reload
 * path, and file changes (extensionWatchers.ts) to the runtime's change loop (it decides restart vs reload).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionHost, ManagerOptions } from '../host/api';
import type { LoadReport } from '../host/types';
import type { HostUi } from '../host/hostUi';
import { Disposable } from '../host/events';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import { HostRuntime } from '../runtime/runtime';
import type { HostChoices } from '../runtime/recipe';
import { ExtensionOutput } from './output';
import { ExtensionWatchers } from './extensionWatchers';
import { affectsAny, effectiveZutHome, reloadInputsDiffer, resolveExtensionPaths, RELOAD_KEYS, type ZutSettings } from '../ui-model/settings';
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
 * Creates the host and starts it without waiting: activation never waits for discovery or spawning, and the
 * file watchers and the start itself run just after `activate()` returns (they are its costliest part).
 * Everything it registers is disposed with `context`; `deactivate` should `await host.stop()`.
 */
export function createHost(context: vscode.ExtensionContext, ui: HostUi, log: vscode.LogOutputChannel): { host: ExtensionHost; control: HostControl } {
  const window = new WindowHost(context, ui, log);
  context.subscriptions.push(window);
  window.startInBackground();
  return { host: window.runtime.manager, control: window };
}

class WindowHost extends Disposable implements HostControl {
  readonly runtime: HostRuntime;
  readonly output: ExtensionOutput;
  readonly started: Promise<LoadReport>;
  /** The runtime's options: updating this object and reloading applies them (the Manager reads them at every load). */
  private readonly options: ManagerOptions;
  private settings: ZutSettings;
  private readonly watchers: ExtensionWatchers;

  constructor(
    context: vscode.ExtensionContext,
    ui: HostUi,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.settings = this.readSettings();
    const choices = this.applySettings({
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
    });
    this.runtime = this._register(new HostRuntime('window', choices, log));
    this.options = this.runtime.options;
    this.started = this.runtime.started;
    const manager = this.runtime.manager;
    this.output = this._register(new ExtensionOutput(manager, log));
    this.watchers = this._register(new ExtensionWatchers(this.options, manager, this.runtime.changes, log));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)));
    this._register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.applySettings(this.options);
        this.watchers.rewatch();
        void this.reload('workspace folders changed').catch(() => undefined);
      }),
    );
    registerTrust(context, () => void this.reload('workspace trusted').catch(() => undefined));
  }

  /** On the next turn of the event loop (activate() has returned): the file watchers, then the first start. */
  startInBackground(): void {
    const timer = setImmediate(() => {
      this.watchers.rewatch();
      this.log.info(`Starting zut extensions (ZUT_HOME ${this.options.zutHome}; folders: ${this.options.folders.join(', ') || 'none'})`);
      void this.runtime.start().catch(() => undefined); // logged by the runtime
    });
    this._register({ dispose: () => clearImmediate(timer) });
  }

  reload(reason: string): Promise<LoadReport> {
    return this.runtime.reload(reason);
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.runtime.manager.exclusive(fn);
  }

  lastReport(): LoadReport | undefined {
    return this.runtime.manager.lastReport();
  }

  zutHome(): string {
    return this.options.zutHome;
  }

  private readSettings(): ZutSettings {
    const { settings, problems, ignored } = zutSettings();
    for (const p of problems) this.log.warn(`Invalid setting ${p}`);
    for (const k of ignored) this.log.warn(`${k} is set by the workspace or a folder: ignored (only your user settings may say which extensions run without consent)`);
    return settings;
  }

  /** Copies the settings and the folders into `o` (the choices, then the runtime's options), and returns it. */
  private applySettings<O extends HostChoices>(o: O): O {
    const s = this.settings;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    o.folders = folders;
    o.zutHome = effectiveZutHome(s.home, folders, () => resolveZutHome());
    o.extensionPaths = resolveExtensionPaths(s.extensionPaths, folders);
    o.zot = s.compatZot ? { home: resolveZotHome() } : undefined;
    o.e = s.compatE ? { home: resolveEHome() } : undefined;
    o.toolTimeoutMs = Math.round(s.toolTimeoutSeconds * 1000);
    o.autoRestart = s.autoRestart;
    o.trace = s.trace;
    o.helloTimeoutMs = Math.round(s.startTimeoutSeconds * 1000);
    return o;
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration('zut')) return;
    const before = this.settings;
    this.settings = this.readSettings();
    this.applySettings(this.options);
    if (before.trace !== this.settings.trace) this.runtime.manager.setTrace(this.settings.trace);
    if (affectsAny((s) => e.affectsConfiguration(s), RELOAD_KEYS) && reloadInputsDiffer(before, this.settings)) {
      this.watchers.rewatch();
      void this.reload('settings changed').catch(() => undefined);
    }
  }
}
