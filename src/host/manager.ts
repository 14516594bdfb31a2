/**
 * The Manager: discovers extensions, supervises one child each, keeps the command/tool registries, fans
 * events out, runs the interception chain, keeps session state, and reloads. VS Code-free.
 */
import type { InterceptableEvent, PanelKeyName, SessionContext } from '../protocol';
import type {
  AssistantMessageDecision,
  CallToolOptions,
  ExtensionHost,
  ExtensionLogLine,
  LifecycleEvent,
  LoadReport,
  ManagerOptions,
  ToolCallDecision,
  TraceLevel,
  TurnStartDecision,
} from './api';
import { DEFAULT_CAPS } from './caps';
import { readEExtensionsConfig } from './discoverE';
import { Dispatcher } from './dispatch';
import { discover, rereadManifest } from './discovery';
import { ExtensionRequests } from './extRequests';
import { invokeTool, type InvokeResult, type InvokeToolOptions } from './invoke';
import { Gatekeeper } from './gates';
import type { BeforeAgentStart } from './intercept';
import { ExtensionSet } from './extensionSet';
import { Emitter } from './lifecycle';
import { setManifestEnabled } from './manifest';
import { changedExtensions, manifestSignature } from './manifestSignature';
import { eProjectExtensionsDir, globalExtensionsDir, logPathFor, projectExtensionsDir, zotProjectExtensionsDir } from './paths';
import { SerialQueue } from './serialQueue';
import type { CommandReply, HostInfo } from './protocols';
import { NO_BRANCH, SessionStateStore } from './state';
import { DEFAULT_RESTART_POLICY, ExtensionSupervisor, type RestartPolicy } from './supervisor';
import type { CommandInfo, ExtensionInfo, ToolInfo, ToolResult } from './types';

import { COMMAND_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, TOOL_TIMEOUT_MS } from './limits';

export { COMMAND_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, TOOL_TIMEOUT_MS };

export class Manager implements ExtensionHost {
  /** The supervised extensions, their registry index and change notification (extensionSet.ts). */
  private readonly set = new ExtensionSet();
  private readonly store = new SessionStateStore();
  /** Only for `hello_ack.session` of extensions starting later: tool calls name their own session. */
  private helloSession: SessionContext | undefined;
  private provider: string;
  private model: string;
  private traceLevel: TraceLevel;
  /** Loads, reloads, restarts, consent answers and stops: one at a time, in call order; reloads coalesce. */
  private readonly ops = new SerialQueue<LoadReport>();
  private report: LoadReport | undefined;
  /** The manifests' fingerprint when the running set was loaded (manifestSignature.ts). */
  private loadedSignature: string | undefined;

  private readonly logEmitter = new Emitter<ExtensionLogLine>();
  private readonly failEmitter = new Emitter<{ ext: string; message: string; kind: 'load' | 'crash' | 'gave-up' }>();
  readonly onDidChangeExtensions = this.set.onDidChange;
  readonly onDidLog = this.logEmitter.event;
  readonly onDidFail = this.failEmitter.event;
  readonly onDidChangeState = this.store.onDidChange;
  private readonly consentEmitter = new Emitter<ExtensionInfo[]>();
  private readonly loadEmitter = new Emitter<{ what: 'start' | 'reload'; report: LoadReport }>();
  /** Project extensions now waiting for consent (after a load, a restart or a revoke that found new ones). */
  readonly onDidRequestConsent = this.consentEmitter.event;
  /** A start or reload finished (whoever asked for it). */
  readonly onDidLoad = this.loadEmitter.event;
  /** zot's `call_tool` and its chains (extRequests.ts). */
  private readonly requests = new ExtensionRequests({
    ui: () => this.options.ui,
    allTools: () => this.allTools(),
    invokeTool: (name, args, o) => this.invokeTool(name, args, o),
    session: () => this.helloSession ?? { id: NO_BRANCH },
  });
  private readonly dispatch: Dispatcher;
  private readonly gates = new Gatekeeper({
    options: () => this.options,
    find: (name) => this.set.find(name),
    extensions: () => this.extensions(),
    requestConsent: (pending) => this.consentEmitter.fire(pending),
  });

  constructor(
    private readonly options: ManagerOptions,
    private readonly restartPolicy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {
    this.provider = options.provider ?? '';
    this.model = options.model ?? '';
    this.traceLevel = options.trace ?? 'off';
    this.dispatch = new Dispatcher(this.set, this.store, this.requests, options);
  }

  // ------------------------------------------------------------------ lifecycle

  /** Discovers and starts everything. Loads, reloads and stops run one at a time, in call order. */
  start(): Promise<LoadReport> {
    return this.serial(() => this.loaded('start', this.load([])));
  }

  /**
   * The one reload path (`@zut /reload`, "Zut: Reload Extensions", the watcher, settings): stop all, rediscover,
   * respawn. A reload requested while another is queued and not yet started shares it.
   */
  reload(): Promise<LoadReport> {
    return this.ops.coalesce(async () => {
      const stopped = this.set.all.filter((s) => s.conn).map((s) => s.name);
      await this.stopAll();
      return this.loaded('reload', this.load(stopped));
    });
  }

  private async loaded(what: 'start' | 'reload', p: Promise<LoadReport>): Promise<LoadReport> {
    const report = await p;
    this.dispatch.loaded();
    this.report = report;
    this.loadEmitter.fire({ what, report });
    return report;
  }

  /** The last start/reload's report (load errors for the doctor). */
  lastReport(): LoadReport | undefined {
    return this.report;
  }

  /** Runs `op` after every earlier load/reload/stop has finished (so two reloads never leave a set running). */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    return this.ops.run(op);
  }

  /**
   * Runs `op` between host operations (install, remove: file changes the watcher will see). Afterwards the
   * manifests' fingerprint is taken again, so the watcher's events for them find nothing new. `op` must not call
   * the Manager's own serialised operations (reload, restart, …): it would wait for itself.
   */
  exclusive<T>(op: () => Promise<T>): Promise<T> {
    return this.ops.run(async () => {
      try {
        return await op();
      } finally {
        this.loadedSignature = await this.signature();
      }
    });
  }

  private signature(): Promise<string> {
    const { folders, zot, e } = this.options;
    const roots = [
      ...folders.map(projectExtensionsDir),
      globalExtensionsDir(this.options.zutHome),
      ...(zot ? [...folders.map(zotProjectExtensionsDir), globalExtensionsDir(zot.home)] : []),
      ...(e ? [...folders.map(eProjectExtensionsDir), globalExtensionsDir(e.home)] : []),
    ];
    return manifestSignature(roots, this.options.extensionPaths ?? []);
  }

  /**
   * Files changed on disk (the watcher, after its quiet period): when only manifests or executables of loaded
   * extensions changed, restart just those (the restart re-reads the manifest and re-checks consent); when
   * extension directories came or went, reload if the manifests differ from what is loaded. Late or duplicate
   * events for our own changes find nothing new. Returns what it did.
   */
  async applyChanges(paths: readonly string[]): Promise<{ reloaded: boolean; restarted: string[] }> {
    // After whatever is queued (an install, a reload), so its fingerprint is the one compared.
    await this.ops.run(async () => undefined);
    const { restart, other } = changedExtensions(paths, this.extensions());
    const manifestsChanged = (await this.signature()) !== this.loadedSignature;
    if (other.length > 0 && manifestsChanged) {
      await this.reload();
      return { reloaded: true, restarted: [] };
    }
    const restarted: string[] = [];
    for (const [name, why] of restart) {
      if (why === 'manifest' && !manifestsChanged) continue;
      const s = this.set.find(name);
      if (s?.state === 'stopped' && s.userStopped) continue; // stopped by the user: stays stopped
      await this.restart(name);
      restarted.push(name);
    }
    return { reloaded: false, restarted };
  }

  private async load(stopped: string[]): Promise<LoadReport> {
    this.loadedSignature = await this.signature();
    const trusted = this.options.isTrusted?.() ?? true;
    const found = await discover({
      folders: this.options.folders,
      zutHome: this.options.zutHome,
      explicit: this.options.extensionPaths,
      blockedScopes: trusted ? [] : ['project', 'explicit'],
      searchGlobal: this.options.globalExtensions ?? true,
      ...(this.options.zot && { zot: this.options.zot }),
      ...(this.options.e && { e: this.options.e }),
    });
    this.set.replace(found.map((d) => new ExtensionSupervisor(d, this.deps(d.name), !trusted && d.scope !== 'global')));
    const sups = this.set.all;
    await Promise.all(sups.map((s) => this.applyGate(s)));
    this.requestConsent(sups);
    const toStart = sups.filter((s) => s.spawnable);
    await Promise.all(toStart.map((s) => s.start()));
    const errors = sups.filter((s) => s.state === 'error' && s.error).map((s) => ({ ext: s.name, message: s.error! }));
    return {
      stopped,
      loaded: toStart.map((s) => s.name),
      ready: toStart.filter((s) => s.state === 'running').map((s) => s.name),
      errors,
    };
  }

  private deps(name: string) {
    return {
      ui: this.options.ui,
      logPath: logPathFor(this.options.zutHome, name),
      hostInfo: (s: ExtensionSupervisor): HostInfo => ({
        hostVersion: this.options.hostVersion,
        provider: this.provider,
        model: this.model,
        cwd: s.disc.folder ?? this.options.folders[0] ?? process.cwd(),
        extensionDir: s.disc.dir,
        dataDir: s.disc.dir,
        canAsk: this.options.ui.canAsk,
        ...(s.disc.ecosystem === 'e' && this.options.e && { extensionsConfig: readEExtensionsConfig(this.options.e.home) }),
        ...(this.helloSession ? { session: this.helloSession } : {}),
      }),
      timeouts: this.options.helloTimeoutMs ? { helloMs: this.options.helloTimeoutMs } : {},
      autoRestart: () => this.options.autoRestart ?? true,
      trace: () => this.traceLevel,
      restartPolicy: this.restartPolicy,
      caps: { ...DEFAULT_CAPS, ...this.options.caps },
      changed: () => this.set.changed(),
      fail: (kind: 'load' | 'crash' | 'gave-up', message: string) => this.failEmitter.fire({ ext: name, message, kind }),
      log: (line: ExtensionLogLine) => this.logEmitter.fire(line),
      requests: this.requests,
    };
  }

  /** Stops one extension, re-reads its manifest, and starts it again (a fresh restart budget). */
  restart(name: string): Promise<void> {
    return this.serial(async () => {
      const s = this.set.find(name);
      if (!s) throw new Error(`no extension named "${name}"`);
      await s.stop();
      const m = await rereadManifest(s.disc);
      if (m.ok && m.manifest.name !== s.name) {
        // Renamed: it may now shadow or be shadowed by another extension; rediscover everything.
        await this.stopAll();
        await this.loaded('reload', this.load([]));
        return;
      }
      s.reconfigure(m.ok ? { manifest: m.manifest } : { error: `load ${s.name} (${s.disc.dir}): ${m.error}` });
      this.loadedSignature = await this.signature();
      s.userStopped = false;
      await this.applyGate(s);
      this.requestConsent([s]);
      await s.start();
    });
  }

  // ------------------------------------------------------------------ consent and local choices (gates.ts)

  private applyGate(s: ExtensionSupervisor): Promise<void> {
    return this.gates.applyGate(s);
  }

  private requestConsent(among: readonly ExtensionSupervisor[]): void {
    this.gates.requestConsent(among);
  }

  pendingConsent(): ExtensionInfo[] {
    return this.gates.pendingConsent();
  }

  answerConsent(names: readonly string[], answer: 'allow' | 'deny'): Promise<void> {
    return this.serial(() => this.gates.answerConsent(names, answer));
  }

  revokeConsent(name: string): Promise<void> {
    return this.serial(() => this.gates.revokeConsent(name));
  }

  setDisabledInWorkspace(name: string, disabled: boolean): Promise<void> {
    return this.serial(() => this.gates.setDisabledInWorkspace(name, disabled));
  }

  stopExtension(name: string): Promise<void> {
    return this.serial(() => this.gates.stopExtension(name));
  }

  startExtension(name: string): Promise<void> {
    return this.serial(() => this.gates.startExtension(name));
  }

  stop(): Promise<void> {
    return this.serial(() => this.stopAll());
  }

  private async stopAll(): Promise<void> {
    await Promise.all(this.set.all.map((s) => s.stop()));
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const s = this.set.find(name);
    if (!s) throw new Error(`no extension named "${name}"`);
    if (s.disc.ecosystem === 'e') throw new Error(`${s.name} is an e extension (${s.disc.manifestPath}): it has no manifest to enable or disable; use Disable (Workspace) or remove it`);
    await setManifestEnabled(s.disc.dir, enabled);
    await this.reload();
  }

  // ------------------------------------------------------------------ queries

  extensions(): ExtensionInfo[] {
    return this.set.infos(this.options.zutHome);
  }

  commands(): CommandInfo[] {
    return this.set.index.commands.filter((c) => c.active);
  }

  tools(): ToolInfo[] {
    return this.set.index.tools.filter((t) => t.active && (!t.deferred || t.activated));
  }

  allTools(): ToolInfo[] {
    return this.set.index.tools.filter((t) => t.active);
  }

  hasInterceptors(event: InterceptableEvent | 'before_agent_start'): boolean {
    return this.set.hasInterceptors(event);
  }

  // ------------------------------------------------------------------ requests, events, interception (dispatch.ts)

  invokeCommand(name: string, args: string): Promise<CommandReply & { ext: string }> {
    return this.dispatch.invokeCommand(name, args);
  }

  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult> {
    return invokeTool(this, name, args, options);
  }

  /** The bare call (no event, no guards: `invokeTool` is the guarded path); see `Dispatcher.callTool`. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult> {
    return this.dispatch.callTool(name, args, options);
  }

  emit(event: LifecycleEvent): void {
    this.dispatch.emit(event);
  }

  emitSessionEvent(event: string, session: SessionContext): void {
    this.dispatch.emitSessionEvent(event, session);
  }

  interceptToolCall(e: { tool_id: string; tool_name: string; tool_args: unknown; origin_extension?: string }): Promise<ToolCallDecision> {
    return this.dispatch.interceptToolCall(e);
  }

  interceptTurnStart(step: number): Promise<TurnStartDecision> {
    return this.dispatch.interceptTurnStart(step);
  }

  interceptAssistantMessage(text: string): Promise<AssistantMessageDecision> {
    return this.dispatch.interceptAssistantMessage(text);
  }

  interceptBeforeAgentStart(e: Omit<BeforeAgentStart, 'agent_run_id'>): Promise<string> {
    return this.dispatch.interceptBeforeAgentStart(e);
  }

  // ------------------------------------------------------------------ session and state

  setSession(session: SessionContext | undefined): void {
    if (session?.parent_id) this.store.fork(session.parent_id, session.id);
    this.helloSession = session;
  }

  getState(branch: string, ext: string): unknown {
    return this.store.get(branch, ext);
  }

  exportState(): Record<string, Record<string, unknown>> {
    return this.store.export();
  }

  importState(snapshot: Record<string, Record<string, unknown>>): void {
    this.store.import(snapshot);
  }

  setModel(provider: string, model: string): void {
    this.provider = provider;
    this.model = model;
  }

  // ------------------------------------------------------------------ panels and tracing

  panelKey(ext: string, panelId: string, key: PanelKeyName, text?: string): void {
    this.dispatch.panelKey(ext, panelId, key, text);
  }

  panelResize(ext: string, panelId: string, columns: number, rows: number): void {
    this.dispatch.panelResize(ext, panelId, columns, rows);
  }

  panelClosed(ext: string, panelId: string): void {
    this.dispatch.panelClosed(ext, panelId);
  }

  setTrace(level: TraceLevel): void {
    this.traceLevel = level;
  }

  dispose(): void {
    this.set.dispose();
    this.logEmitter.dispose();
    this.failEmitter.dispose();
    this.store.dispose();
    this.consentEmitter.dispose();
    this.loadEmitter.dispose();
  }
}
