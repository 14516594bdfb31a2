/**
 * One supervised extension: its discovered manifest, its live Connection, what it registered, its state (the one
 * source of its availability and error; the only writer: `#set`, with `onDidChangeState`; supervisorState.ts), and
 * the restart policy (like the LSP client's: up to 4 automatic restarts, none after the 5th crash within 3 minutes;
 * an exit after `shutdown` is not a crash). Its UI notices go through noticeRouter.ts to the HostUi port.
 */
import type { DiscoveredExtension, ExtensionState, Manifest, Skill } from '../types';
import type { SupervisorDeps } from './supervisorPorts';
import { ExtensionCaps } from './caps';
import { ByteCaps, cutDiagnostic } from './byteCaps';
import { Connection } from '../connection/connection';
import { Emitter } from '../events';
import { isUiNotice, routeUiNotice, type NoticeTarget } from './noticeRouter';
import { displayState, failed, gateAvailability, gateOf, HELD_BY_DISCOVERY, initialState, isUnusable, moved, type Availability, type Lifecycle, type Quiet, type StateChange, type SupervisorState } from './supervisorState';
import { register, type Registrant, type RegisteredCommand, type RegisteredTool } from './registry';
import { MAX_DIAGNOSTICS_PER_EXT as MAX_DIAGNOSTICS } from '../../protocol/limits';
import type { Gate } from './consent';
import { familyFor, type ExtNotice, type ProtocolName } from '../protocols';
import { ZOT_EVENTS_NEVER_SENT } from '../protocols/zot';

export class ExtensionSupervisor implements Registrant {
  conn: Connection | undefined;
  readonly commands = new Map<string, RegisteredCommand>();
  readonly tools = new Map<string, RegisteredTool>();
  readonly events = new Set<string>();
  /** Events it intercepts (its protocol's interceptable ones: zot adds `before_agent_start`). */
  readonly intercepts = new Set<string>();
  diagnostics: string[];
  restarts = 0;
  private crashTimes: number[] = [];
  private starting: Promise<void> | undefined;
  /** When the last spawn began (ms since epoch): files older than this are what the running process runs. */
  spawnedAt: number | undefined;
  /** When it last became `running` (its registration window closed: `ready`, auto-ready or the ready-timeout): the strict door's patience runs from it (absentGuards.ts). */
  runningSince: number | undefined;
  readonly caps: ExtensionCaps;
  /** Byte caps per field and in all (byteCaps.ts). */
  readonly bytes: ByteCaps;
  private readonly notices: NoticeTarget;
  /**
   * Its state (runtime-private: written only by `#set`). Its availability is the one below a trust block: the gate
   * decided for a blocked extension is kept for when it is shown (`disabledInWorkspace`), not shown as its state.
   */
  #state: SupervisorState;
  /** Blocked by an untrusted workspace: fixed for its life (granting trust reloads); shown over its availability. */
  readonly #blocked: boolean;
  #fingerprint: string | undefined;
  #userStopped = false;
  readonly #changes = new Emitter<StateChange>();
  /**
   * Its state changed (lifecycle, availability shown, or its error message), with old and new; the views hear it
   * through the set's burst event (extensionSet.ts). Not the façade's `onDidChangeSessionState` (a tool result's
   * session state), nor `deps.changed()` (registrations, subscriptions, diagnostics, consent decisions).
   */
  readonly onDidChangeState = this.#changes.event;
  /** The wire protocol of its last handshake. */
  protocol: ProtocolName | undefined;
  /** Its manifest and skills as last read (discovery's, then each re-read's: `disc` stays what discovery found). */
  #manifest: Manifest | undefined;
  #skills: readonly Skill[];

  constructor(
    /** What discovery found: never written (its state, manifest and diagnostics since are the supervisor's). */
    readonly disc: Readonly<DiscoveredExtension>,
    private readonly deps: SupervisorDeps<ExtensionSupervisor>,
    blocked: boolean,
  ) {
    this.caps = new ExtensionCaps((m) => this.diagnostic(m), deps.caps);
    this.bytes = new ByteCaps((m) => this.diagnostic(m));
    this.notices = { ext: disc.name, ui: deps.ui, caps: this.caps, bytes: this.bytes, diagnostic: (m) => this.diagnostic(m) };
    this.diagnostics = [...disc.diagnostics];
    this.#manifest = disc.manifest;
    this.#skills = disc.skills;
    this.#blocked = blocked && (disc.status === 'enabled' || disc.status === 'error');
    this.#state = initialState(disc);
  }

  get name(): string {
    return this.disc.name;
  }

  /** Its manifest as last read (none: discovery could not read it). */
  get manifest(): Manifest | undefined {
    return this.#manifest;
  }

  /** Its skills as last read. */
  get skills(): readonly Skill[] {
    return this.#skills;
  }

  /** Whether a process is there, coming, gone or failed. */
  get lifecycle(): Lifecycle {
    return this.#state.lifecycle;
  }

  /** What holds it back, if anything (`blocked` over the rest). */
  get availability(): Availability {
    return this.#blocked ? 'blocked' : this.#state.availability;
  }

  /** Its state as shown: lifecycle, availability (`blocked` over the rest) and error message. */
  get current(): SupervisorState {
    return this.#blocked ? { ...this.#state, availability: 'blocked' } : this.#state;
  }

  /** The one state shown (supervisorState.ts `displayState`). */
  get state(): ExtensionState {
    return displayState(this.current);
  }

  /** Why it failed or is refused (the state's message): kept while it restarts or is held back after a failure. */
  get error(): string | undefined {
    return this.#state.message;
  }

  /** Why it is held back (consent, denied, disabled in this workspace, refused); see consent.ts. */
  get gate(): Gate | undefined {
    return gateOf(this.#state.availability);
  }

  /** Whether its manifest is one it may run under: not unusable, not disabled, shadowed or theme-only. */
  get runnable(): boolean {
    return !isUnusable(this.#state) && !HELD_BY_DISCOVERY.has(this.#state.availability);
  }

  /** Its content fingerprint when consent applies. */
  get fingerprint(): string | undefined {
    return this.#fingerprint;
  }

  /** Stopped by the user (Stop), now or on its way: an explicit act, after which its guard is not waited for. */
  get heldByUser(): boolean {
    return this.#userStopped;
  }

  /** Stopped by the user (Stop) and still stopped: the watcher does not restart it. */
  get stoppedByUser(): boolean {
    return this.#userStopped && this.state === 'stopped';
  }

  /** Running and past its handshake: its registrations count. */
  get live(): boolean {
    return this.#state.lifecycle === 'running' && !!this.conn?.alive;
  }

  /** Whether this extension may be spawned at all. */
  get spawnable(): boolean {
    return this.availability === 'available' && this.runnable && !!this.#manifest?.exec;
  }

  /** When the current spawn began (ms since epoch), while waiting for `hello` and registration. */
  get startingSince(): number | undefined {
    return this.#state.lifecycle === 'starting' || this.#state.lifecycle === 'restarting' ? this.spawnedAt : undefined;
  }

  /** The one writer of its state: `next`, then, when what is shown changed, tells who listens. */
  #set(next: SupervisorState, reason: string): void {
    const old = this.current;
    this.#state = next;
    const now = this.current;
    if (old.lifecycle === now.lifecycle && old.availability === now.availability && old.message === now.message) return;
    this.#changes.fire({ ext: this.name, old, new: now, reason });
  }

  /** supervisorState.ts `moved`: a lifecycle without a failure, or an availability. */
  #move(to: Quiet | Availability, reason: string, message?: { message: string | undefined }): void {
    this.#set(moved(this.#state, to, message), reason);
  }

  /** supervisorState.ts `failed`: `crashed`, or `error`, with its message. */
  #fail(to: 'crashed' | 'error', reason: string, message: string, unusable?: true): void {
    this.#set(failed(this.#state, to, message, unusable), reason);
  }

  /**
   * Holds it back (or releases it): the state shows why. Does not stop a running process. `consent`: the content
   * fingerprint the decision was made for (omitted: no consent decision was made; the last fingerprint is kept).
   */
  setGate(gate: Gate | undefined, consent?: { fingerprint: string | undefined }): void {
    this.#hold(gate, consent);
  }

  /** `setGate`, with `refusal`: the message of a `refused` gate (refuse). */
  #hold(gate: Gate | undefined, consent: { fingerprint: string | undefined } | undefined, refusal?: string): void {
    const was = this.gate;
    if (consent) this.#fingerprint = consent.fingerprint;
    // A consent decision (its fingerprint, its gate under a block) is shown even when the state does not change.
    this.deps.changed();
    // Its manifest holds it back (disabled, shadowed, theme-only): no gate applies. An unusable one keeps its gate
    // under its error (shown first), for when the manifest is read again.
    if (HELD_BY_DISCOVERY.has(this.#state.availability)) return;
    const why = gate ? `held back: ${gate}` : 'released';
    // Refused: the refusal is its error; no longer refused: no longer its error.
    const message = refusal !== undefined ? { message: refusal } : was === 'refused' && gate !== 'refused' ? { message: undefined } : undefined;
    // Blocked: the decision is kept under the block, the state shown stays `blocked`.
    if (this.#blocked) return this.#move(gateAvailability(gate), why, refusal !== undefined ? message : undefined);
    // Held back, it no longer shows a past failure.
    if (gate && !isUnusable(this.#state) && (this.#state.lifecycle === 'error' || this.#state.lifecycle === 'crashed')) this.#move('stopped', why);
    this.#move(gateAvailability(gate), why, message);
  }

  /** Stop by the user: it stays stopped until Start, a restart or a reload (not restarted by the watcher). */
  stopByUser(): Promise<void> {
    this.#userStopped = true;
    return this.stop();
  }

  /** Start by the user (after Stop): starts it if nothing holds it back. */
  async startByUser(): Promise<void> {
    this.#userStopped = false;
    if (!this.conn) await this.start();
  }

  /** Held back because its content cannot be fingerprinted for consent (`message` names it, its dir and log). */
  refuse(message: string): void {
    if (this.diagnostics.at(-1) !== cutDiagnostic(message)) this.diagnostic(message);
    this.#hold('refused', { fingerprint: undefined }, message);
  }

  /** A diagnostic, cut to `MAX_DIAGNOSTIC_BYTES` (it may quote extension text). */
  diagnostic(text: string): void {
    const message = cutDiagnostic(text);
    this.diagnostics.push(message);
    if (this.diagnostics.length > MAX_DIAGNOSTICS) this.diagnostics.splice(0, this.diagnostics.length - MAX_DIAGNOSTICS);
    this.deps.log({ ext: this.name, kind: 'host', text: message });
    this.deps.changed();
  }

  /** After a manifest re-read: new manifest (enabled or not), or the error that makes it unusable. A fresh start. */
  reconfigure(next: { ok: true; manifest: Manifest; diagnostics: readonly string[]; skills: Skill[] } | { ok: false; error: string }): void {
    this.restarts = 0;
    this.crashTimes = [];
    this.#userStopped = false;
    // What the last reading said goes with it: a fixed manifest leaves no diagnostic behind (its process adds its own).
    this.diagnostics = next.ok ? next.diagnostics.map(cutDiagnostic) : [];
    if (!next.ok) return this.#fail('error', 'manifest unusable', next.error, true);
    this.#manifest = next.manifest;
    this.#skills = next.skills;
    // Enabled or not is the manifest's to say; shadowed and theme-only are discovery's (a reload decides them again).
    const a = this.#state.availability;
    if (a !== 'shadowed' && a !== 'theme-only') this.#move(next.manifest.enabled ? gateAvailability(this.gate) : 'disabled', 'manifest re-read', { message: undefined });
    this.#move('stopped', 'manifest re-read', { message: undefined });
  }

  /** The host is stopping: a start in progress fails now (its child killed) instead of running to its deadline. */
  abortStart(): void {
    if (this.starting) this.conn?.failStart('start given up: the host is stopping');
  }

  /** Spawns and handshakes. Resolves when running or failed (never rejects). */
  start(): Promise<void> {
    if (!this.spawnable) return Promise.resolve();
    if (this.starting) return this.starting;
    this.starting = this.admitAndSpawn().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async admitAndSpawn(): Promise<void> {
    if (!(await this.deps.admit(this))) return;
    await this.deps.prepareSpawn(this);
    await this.spawn();
  }

  private async spawn(): Promise<void> {
    const m = this.#manifest!;
    this.commands.clear();
    this.tools.clear();
    this.events.clear();
    this.intercepts.clear();
    this.caps.reset();
    this.bytes.reset();
    this.spawnedAt = Date.now();
    this.#move(this.restarts > 0 ? 'restarting' : 'starting', 'spawn');
    const conn = new Connection({
      name: this.name,
      version: m.version,
      dir: this.disc.dir,
      exec: m.exec!,
      args: m.args,
      logPath: this.deps.logPath,
      timeouts: this.deps.timeouts,
      family: familyFor(this.disc),
      hostInfo: () => this.deps.hostInfo(this),
      onNotice: (n) => this.onNotice(n),
      onRequest: (id, method, params) => this.deps.requests.handle(this.name, conn, id, method, params),
      onCancel: (id) => this.deps.requests.cancel(this.name, id),
      onDiagnostic: (d) => this.diagnostic(d),
      onStderr: (line) => this.deps.log({ ext: this.name, kind: 'stderr', text: line }),
      onTrace: (dir, line) => this.trace(dir, line),
      tracing: () => this.deps.trace() !== 'off',
    });
    this.conn = conn;
    try {
      await conn.start();
    } catch (e) {
      this.conn = undefined;
      const error = `load ${this.name} (${this.disc.dir}): ${(e as Error).message}`;
      this.#fail('error', 'start failed', error);
      this.deps.fail('load', error);
      return;
    }
    this.protocol = conn.hello?.protocol;
    conn.onExit((exit) => this.onExit(conn, exit.expected, exit.message));
    this.runningSince = Date.now();
    this.#move('running', 'handshake done', { message: undefined });
  }

  private trace(dir: 'in' | 'out', line: string): void {
    const level = this.deps.trace();
    if (level === 'off') return;
    const text = level === 'messages' ? (this.conn?.summarize(line) ?? '(frame)') : line;
    this.deps.log({ ext: this.name, kind: dir, text });
  }

  private onExit(conn: Connection, expected: boolean, message: string): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.deps.requests.closed(this.name);
    this.deps.ui.clearExtension(this.name);
    if (expected) return this.#move('stopped', 'exited after shutdown');
    const now = Date.now();
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.deps.restartPolicy.windowMs);
    this.crashTimes.push(now);
    const error = `extension ${this.name} (${this.disc.dir}) ${message}`;
    this.#fail('crashed', 'exited unexpectedly', error);
    if (!this.deps.autoRestart()) {
      this.deps.fail('crash', error);
      return;
    }
    if (this.crashTimes.length >= this.deps.restartPolicy.maxCrashes) {
      const gaveUp = `${error}; crashed ${this.crashTimes.length} times in ${this.deps.restartPolicy.windowMs / 60_000} minutes: not restarting`;
      this.#fail('error', 'gave up restarting', gaveUp);
      this.deps.fail('gave-up', gaveUp);
      return;
    }
    this.deps.fail('crash', error);
    this.restarts++;
    void this.start();
  }

  /** Graceful stop (not a crash). */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const conn = this.conn;
    if (!conn) return;
    await conn.stop();
    // Its process went (pid, pending): shown even when the state stays `error`.
    if (this.#state.lifecycle !== 'error') this.#move('stopped', 'stopped');
    else this.deps.changed();
  }

  /** Releases its listeners (after it stopped; the set drops it). */
  dispose(): void {
    this.#changes.dispose();
  }

  /** Registrations (registry.ts) and subscriptions are its own; the rest is the UI's (noticeRouter.ts). */
  private onNotice(f: ExtNotice): void {
    if (isUiNotice(f)) return routeUiNotice(this.notices, f);
    switch (f.type) {
      case 'register_command':
      case 'register_tool':
        if (register(this, f, this.caps, this.bytes, (m) => this.diagnostic(m))) this.deps.changed();
        return;
      case 'subscribe': {
        for (const e of f.events) this.events.add(e);
        const never = this.conn?.hello?.protocol === 'zot' ? f.events.filter((e) => ZOT_EVENTS_NEVER_SENT.has(e)) : [];
        if (never.length > 0) this.diagnostic(`subscribe: ${never.join(', ')} never happen in VS Code's @zut: not sent`);
        for (const e of f.intercept) {
          const interceptable = this.conn?.interceptable ?? new Set<string>();
          if (interceptable.has(e)) this.intercepts.add(e);
          else this.diagnostic(`subscribe: event "${e}" cannot be intercepted (only ${[...interceptable].join(', ')})`);
        }
        return this.deps.changed();
      }
    }
  }
}
