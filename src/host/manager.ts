/**
 * The Manager: the host's facade (api.ts `ExtensionHost`). It owns the session state, the host facts later
 * `hello_ack`s carry, and the public events, and delegates each job to one part: the supervised extensions and
 * their registries (extensionSet.ts), loading, reloads, restarts and the watcher's changes (loader.ts), consent
 * and local choices (gates.ts), requests, events, interception and panel input sent to extensions (dispatch.ts),
 * requests extensions make of the host (extRequests.ts; zot's `call_tool` of `skill` loads a bundled skill:
 * chat/skills.ts), and the one guarded tool path (invoke.ts's GuardedPath, built over the dispatcher). Everything it owns is `_register`ed and released by `dispose`. VS Code-free.
 */
import type { InterceptableEvent, PanelKeyName, SessionContext } from '../protocol';
import type { ExtensionHost, ManagerOptions } from './api';
import type {
  AssistantMessageDecision,
  CallToolOptions,
  CommandInfo,
  ExtensionInfo,
  ExtensionLogLine,
  LifecycleEvent,
  LoadReport,
  ToolInfo,
  ToolResult,
  TraceLevel,
  TurnStartDecision,
} from './types';
import { activeSkills, loadSkill, SKILL_TOOL_NAME } from './chat/skills';
import { Dispatcher } from './calls/dispatch';
import { ExtensionRequests } from './calls/extRequests';
import { ExtensionSet } from './extensions/extensionSet';
import { Gatekeeper } from './extensions/gates';
import type { BeforeAgentStart } from './calls/intercept';
import { GuardedPath, type InvokeResult, type InvokeToolOptions } from './calls/invoke';
import { ToolGuard, type GuardRequest, type Guarded, type PermissionEvent } from './calls/toolGuard';
import { Disposable, Emitter } from './events';
import { COMMAND_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, TOOL_TIMEOUT_MS } from '../protocol/limits';
import { Loader, type HostFacts } from './extensions/loader';
import type { CommandReply } from './protocols';
import { NO_BRANCH, SessionStateStore } from './calls/state';
import { DEFAULT_RESTART_POLICY, type RestartPolicy } from './extensions/supervisorState';
import { absentGuards, learnGuards, type AbsentGuard } from './extensions/absentGuards';
import { GuardMemory } from './extensions/guardMemory';

export { COMMAND_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, TOOL_TIMEOUT_MS };

export class Manager extends Disposable implements ExtensionHost {
  /** The supervised extensions, their registry index and change notification (extensionSet.ts). */
  private readonly set = this._register(new ExtensionSet());
  private readonly store = this._register(new SessionStateStore());
  /** The model, session and trace level extensions starting from now on get (loader.ts). */
  private readonly facts: HostFacts;

  private readonly logEmitter = this._register(new Emitter<ExtensionLogLine>());
  private readonly failEmitter = this._register(new Emitter<{ ext: string; message: string; kind: 'load' | 'crash' | 'gave-up' }>());
  readonly onDidChangeExtensions = this.set.onDidChange;
  readonly onDidLog = this.logEmitter.event;
  readonly onDidFail = this.failEmitter.event;
  readonly onDidChangeSessionState = this.store.onDidChange;
  private readonly consentEmitter = this._register(new Emitter<ExtensionInfo[]>());
  private readonly loadEmitter = this._register(new Emitter<{ what: 'start' | 'reload'; report: LoadReport }>());
  /** Project extensions now waiting for consent (after a load, a restart or a revoke that found new ones). */
  readonly onDidRequestConsent = this.consentEmitter.event;
  /** A start or reload finished (whoever asked for it). */
  readonly onDidLoad = this.loadEmitter.event;
  /** zot's `call_tool` and its chains (extRequests.ts). */
  private readonly requests = new ExtensionRequests({
    ui: () => this.options.ui,
    editorTools: () => this.options.editorTools,
    allTools: () => this.allTools(),
    invokeTool: (name, args, o) => this.calls.invoke(name, args, o),
    session: () => this.facts.session ?? { id: NO_BRANCH },
    hostTool: (name) => this.hostTool(name),
  });
  private readonly gates = new Gatekeeper({
    options: () => this.options,
    find: (name) => this.set.find(name),
    all: () => this.set.all,
    extensions: () => this.extensions(),
    requestConsent: (pending) => this.consentEmitter.fire(pending),
  });
  private readonly dispatch: Dispatcher;
  /** The one guard door (toolGuard.ts): every tool call's event, interception and mapping. */
  private readonly guards: ToolGuard;
  /** The one guarded tool path (invoke.ts): the door, then the call. */
  private readonly calls: GuardedPath;
  private readonly loader: Loader;

  constructor(
    private readonly options: ManagerOptions,
    restartPolicy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {
    super();
    this.facts = { provider: options.provider ?? '', model: options.model ?? '', session: undefined, trace: options.trace ?? 'off' };
    this.dispatch = new Dispatcher(this.set, this.store, this.requests, options);
    const dispatch = this.dispatch;
    this.guards = new ToolGuard({
      hasSubscribers: (event) => this.set.hasSubscribers(event),
      hasInterceptors: (event) => this.set.hasInterceptors(event),
      emit: (event) => dispatch.emit(event),
      emitExcept: (event, except) => dispatch.emitExcept(event, except),
      toolCallInterceptors: () => dispatch.toolCallInterceptors(),
      absent: (strict) => this.absentGuards(strict),
    });
    this.guardMemory = new GuardMemory(options.guardMemoryFile);
    this._register(this.set.onDidChange(() => learnGuards(this.set.all, this.guardMemory)));
    this.calls = new GuardedPath(this.dispatch, this.set, this.guards);
    this.loader = this._register(new Loader({
      options,
      restartPolicy,
      set: this.set,
      gates: this.gates,
      facts: this.facts,
      requests: this.requests,
      log: (line) => this.logEmitter.fire(line),
      fail: (failure) => this.failEmitter.fire(failure),
      loaded: (what, report) => {
        this.dispatch.loaded();
        this.loadEmitter.fire({ what, report });
      },
    }));
  }

  // ------------------------------------------------------------------ lifecycle (loader.ts)

  /** Discovers and starts everything. Loads, reloads and stops run one at a time, in call order. */
  start(): Promise<LoadReport> {
    return this.loader.start();
  }

  /** What the host knows of each extension as a guard (guardMemory.ts). */
  private readonly guardMemory: GuardMemory;

  /** The guards that could not be asked now (absentGuards.ts; `strict`: an agent's PreToolUse). */
  private absentGuards(strict: boolean): AbsentGuard[] {
    return absentGuards(this.set.all, strict, { memory: this.guardMemory, autoRestart: this.options.autoRestart !== false, loadingUnseen: this.loader.settling.loading });
  }

  /** Resolves once no extension is starting and no load runs (what it serves is then known), or at `deadline`. */
  whenSettled(deadline: number): Promise<void> {
    return this.loader.settling.whenSettled(deadline);
  }

  /**
   * The one reload path (`@zut /reload`, "Zut: Reload Extensions", the watcher, settings): stop all, rediscover,
   * respawn. A reload requested while another is queued and not yet started shares it.
   */
  reload(): Promise<LoadReport> {
    return this.loader.reload();
  }

  /** The last start/reload's report (load errors for the doctor). */
  lastReport(): LoadReport | undefined {
    return this.loader.lastReport();
  }

  /**
   * Runs `op` between host operations (install, remove: file changes the watcher will see); the watcher's events
   * for them then find nothing new. `op` must not call the Manager's own serialised operations (reload, restart,
   * …): it would wait for itself.
   */
  exclusive<T>(op: () => Promise<T>): Promise<T> {
    return this.loader.exclusive(op);
  }

  /**
   * Files changed on disk (the watcher, after its quiet period): restarts the extensions whose manifest or
   * executable changed, or reloads when extensions came or went. Returns what it did.
   */
  applyChanges(paths: readonly string[]): Promise<{ reloaded: boolean; restarted: string[] }> {
    return this.loader.applyChanges(paths);
  }

  /** Stops one extension, re-reads its manifest, and starts it again (a fresh restart budget). */
  restart(name: string): Promise<void> {
    return this.loader.restart(name);
  }

  stop(): Promise<void> {
    return this.loader.stop();
  }

  setEnabled(name: string, enabled: boolean): Promise<void> {
    return this.loader.setEnabled(name, enabled);
  }

  // ------------------------------------------------------------------ consent and local choices (gates.ts)

  pendingConsent(): ExtensionInfo[] {
    return this.gates.pendingConsent();
  }

  answerConsent(names: readonly string[], answer: 'allow' | 'deny', seen?: Readonly<Record<string, string>>): Promise<void> {
    return this.loader.serial(() => this.gates.answerConsent(names, answer, seen));
  }

  revokeConsent(name: string): Promise<void> {
    return this.loader.serial(() => this.gates.revokeConsent(name));
  }

  allowOwnContent(staging: string, dest: string): Promise<void> {
    return this.gates.allowOwnContent(staging, dest);
  }

  allowOwnEdit(file: string, bytes: Uint8Array): Promise<boolean> {
    return this.loader.serial(() => this.gates.allowOwnEdit(file, bytes));
  }

  setDisabledInWorkspace(name: string, disabled: boolean): Promise<void> {
    return this.loader.serial(() => this.gates.setDisabledInWorkspace(name, disabled));
  }

  stopExtension(name: string): Promise<void> {
    return this.loader.serial(() => this.gates.stopExtension(name));
  }

  startExtension(name: string): Promise<void> {
    return this.loader.serial(() => this.gates.startExtension(name));
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

  /**
   * `skill` (a zut built-in name: no extension can register it) is the host's own tool while running extensions bundle
   * skills, for every caller: the palette's and the CLI's `tool_prompt`, `zut-host tool skill`, zot's `call_tool`.
   */
  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult> {
    const run = options.run ? undefined : this.hostTool(name);
    return this.calls.invoke(name, args, run ? { ...options, run } : options);
  }

  /** The host's `skill` tool when `name` is it and a running extension bundles skills: how to run it. */
  private hostTool(name: string): ((args: unknown) => Promise<ToolResult>) | undefined {
    const skills = name.toLowerCase() === SKILL_TOOL_NAME ? activeSkills(this) : [];
    return skills.length ? (args) => loadSkill(skills, args) : undefined;
  }

  /**
   * The bare call (no event, no guards: `invokeTool` is the guarded path); see `Dispatcher.callTool`. Not on the
   * façade (api.ts): for benchmarks and host tests.
   */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult> {
    return this.dispatch.callTool(name, args, options);
  }

  emit(event: LifecycleEvent): void {
    this.dispatch.emit(event);
  }

  emitSessionEvent(event: string, session: SessionContext): void {
    this.dispatch.emitSessionEvent(event, session);
  }

  guardTool(request: GuardRequest): Promise<Guarded> {
    return this.guards.guard(request);
  }

  toolRan(request: GuardRequest, result: Pick<ToolResult, 'content' | 'isError'>): void {
    this.guards.observed(request, result);
  }

  toolPermission(request: GuardRequest, what: PermissionEvent): void {
    this.guards.permission(request, what);
  }

  interceptTurnStart(step: number, prompt?: string): Promise<TurnStartDecision> {
    return this.dispatch.interceptTurnStart(step, prompt);
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
    this.facts.session = session;
  }

  /** Opaque state kept for (branch, extension). Not on the façade: for tests. */
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
    this.facts.provider = provider;
    this.facts.model = model;
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
    this.facts.trace = level;
  }
}
