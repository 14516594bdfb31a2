/**
 * One supervised extension: its discovered manifest, its live Connection, what it registered, its state (the only
 * writer: `transition`, with `onDidChangeState`; supervisorState.ts), and the restart policy (like the LSP
 * client's: up to 4 automatic restarts, none after the 5th crash within 3 minutes; an exit after `shutdown` is not
 * a crash). Its UI notices go through noticeRouter.ts to the HostUi port.
 */
import type { DiscoveredExtension, ExtensionState, Manifest, Skill } from '../types';
import type { SupervisorDeps } from './supervisorPorts';
import { ExtensionCaps } from './caps';
import { ByteCaps, cutDiagnostic } from './byteCaps';
import { Connection } from '../connection/connection';
import { Emitter } from '../events';
import { isUiNotice, routeUiNotice, type NoticeTarget } from './noticeRouter';
import { displayState, gateAvailability, isLifecycle, type Availability, type Lifecycle, type StateChange, type SupervisorState } from './supervisorState';
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
  error: string | undefined;
  restarts = 0;
  private crashTimes: number[] = [];
  private starting: Promise<void> | undefined;
  /** When the last spawn began (ms since epoch): files older than this are what the running process runs. */
  spawnedAt: number | undefined;
  readonly caps: ExtensionCaps;
  /** Byte caps per field and in all (byteCaps.ts). */
  readonly bytes: ByteCaps;
  private readonly notices: NoticeTarget;
  /** The two fields of its state (runtime-private: written only by `#transition`). */
  #state: SupervisorState;
  #gate: Gate | undefined;
  #fingerprint: string | undefined;
  #userStopped = false;
  readonly #changes = new Emitter<StateChange>();
  /**
   * Fires on every transition that changed the lifecycle or the availability, with old and new (the façade's
   * `onDidChangeSessionState` is another thing: a tool result's session state). The views hear the set's burst
   * event instead (`deps.changed()`, extensionSet.ts), which also carries registrations and diagnostics.
   */
  readonly onDidChangeState = this.#changes.event;
  /** The wire protocol of its last handshake. */
  protocol: ProtocolName | undefined;

  constructor(
    readonly disc: DiscoveredExtension,
    private readonly deps: SupervisorDeps<ExtensionSupervisor>,
    blocked: boolean,
  ) {
    this.caps = new ExtensionCaps((m) => this.diagnostic(m), deps.caps);
    this.bytes = new ByteCaps((m) => this.diagnostic(m));
    this.notices = { ext: disc.name, ui: deps.ui, caps: this.caps, bytes: this.bytes, diagnostic: (m) => this.diagnostic(m) };
    this.diagnostics = [...disc.diagnostics];
    this.error = disc.error;
    const status = disc.status;
    this.#state =
      status === 'enabled'
        ? { lifecycle: 'stopped', availability: blocked ? 'blocked' : 'available' }
        : status === 'error'
          ? { lifecycle: 'error', availability: blocked ? 'blocked' : 'available' }
          : { lifecycle: 'stopped', availability: status };
  }

  get name(): string {
    return this.disc.name;
  }

  /** Whether a process is there, coming, gone or failed. */
  get lifecycle(): Lifecycle {
    return this.#state.lifecycle;
  }

  /** What holds it back, if anything. */
  get availability(): Availability {
    return this.#state.availability;
  }

  /** The one state shown (supervisorState.ts `displayState`). */
  get state(): ExtensionState {
    return displayState(this.#state);
  }

  /** Why it is held back (consent, denied, disabled in this workspace); see consent.ts. */
  get gate(): Gate | undefined {
    return this.#gate;
  }

  /** Its content fingerprint when consent applies. */
  get fingerprint(): string | undefined {
    return this.#fingerprint;
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
    return this.disc.status === 'enabled' && !!this.disc.manifest?.exec && this.#state.availability !== 'blocked' && !this.#gate;
  }

  /** When the current spawn began (ms since epoch), while waiting for `hello` and registration. */
  get startingSince(): number | undefined {
    return this.#state.lifecycle === 'starting' || this.#state.lifecycle === 'restarting' ? this.spawnedAt : undefined;
  }

  /** The one writer of its state: moves the lifecycle or the availability to `to`, then tells who listens. */
  #transition(to: Lifecycle | Availability, reason: string): void {
    const old = this.#state;
    this.#state = isLifecycle(to) ? { ...old, lifecycle: to } : { ...old, availability: to };
    this.deps.changed();
    if (old.lifecycle === this.#state.lifecycle && old.availability === this.#state.availability) return;
    this.#changes.fire({ ext: this.name, old, new: this.#state, reason });
  }

  /**
   * Holds it back (or releases it): the state shows why. Does not stop a running process. `consent`: the content
   * fingerprint the decision was made for (omitted: no consent decision was made; the last fingerprint is kept).
   */
  setGate(gate: Gate | undefined, consent?: { fingerprint: string | undefined }): void {
    const was = this.#gate;
    this.#gate = gate;
    if (consent) this.#fingerprint = consent.fingerprint;
    if (this.disc.status !== 'enabled' || this.#state.availability === 'blocked') return this.deps.changed();
    // No longer refused: its refusal is no longer its error.
    if (was === 'refused' && gate !== 'refused') this.error = undefined;
    // Held back, it no longer shows a past failure.
    if (gate && (this.#state.lifecycle === 'error' || this.#state.lifecycle === 'crashed')) this.#transition('stopped', `held back: ${gate}`);
    this.#transition(gateAvailability(gate), gate ? `held back: ${gate}` : 'released');
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
    this.error = message;
    if (this.diagnostics.at(-1) !== cutDiagnostic(message)) this.diagnostic(message);
    this.setGate('refused', { fingerprint: undefined });
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
  reconfigure(next: { manifest: Manifest; diagnostics: readonly string[]; skills: Skill[] } | { error: string }): void {
    this.restarts = 0;
    this.crashTimes = [];
    this.#userStopped = false;
    // What the last reading said goes with it: a fixed manifest leaves no diagnostic behind (its process adds its own).
    this.diagnostics = 'error' in next ? [] : next.diagnostics.map(cutDiagnostic);
    this.disc.diagnostics = [...this.diagnostics];
    if ('error' in next) {
      this.error = next.error;
      if (this.disc.status === 'enabled') this.disc.status = 'error';
      this.#transition('error', 'manifest unusable');
    } else {
      this.disc.manifest = next.manifest;
      this.disc.skills = next.skills;
      const enabled = next.manifest.enabled;
      if (this.disc.status === 'enabled' || this.disc.status === 'disabled' || this.disc.status === 'error') this.disc.status = enabled ? 'enabled' : 'disabled';
      this.error = undefined;
      if (this.#state.availability !== 'blocked') this.#transition(enabled ? gateAvailability(this.#gate) : 'disabled', 'manifest re-read');
      this.#transition('stopped', 'manifest re-read');
    }
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
    const m = this.disc.manifest!;
    this.commands.clear();
    this.tools.clear();
    this.events.clear();
    this.intercepts.clear();
    this.caps.reset();
    this.bytes.reset();
    this.spawnedAt = Date.now();
    this.#transition(this.restarts > 0 ? 'restarting' : 'starting', 'spawn');
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
      this.error = `load ${this.name} (${this.disc.dir}): ${(e as Error).message}`;
      this.#transition('error', 'start failed');
      this.deps.fail('load', this.error);
      return;
    }
    this.error = undefined;
    this.protocol = conn.hello?.protocol;
    conn.onExit((exit) => this.onExit(conn, exit.expected, exit.message));
    this.#transition('running', 'handshake done');
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
    if (expected) return this.#transition('stopped', 'exited after shutdown');
    const now = Date.now();
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.deps.restartPolicy.windowMs);
    this.crashTimes.push(now);
    this.error = `extension ${this.name} (${this.disc.dir}) ${message}`;
    this.#transition('crashed', 'exited unexpectedly');
    if (!this.deps.autoRestart()) {
      this.deps.fail('crash', this.error);
      return;
    }
    if (this.crashTimes.length >= this.deps.restartPolicy.maxCrashes) {
      this.error = `${this.error}; crashed ${this.crashTimes.length} times in ${this.deps.restartPolicy.windowMs / 60_000} minutes: not restarting`;
      this.#transition('error', 'gave up restarting');
      this.deps.fail('gave-up', this.error);
      return;
    }
    this.deps.fail('crash', this.error);
    this.restarts++;
    void this.start();
  }

  /** Graceful stop (not a crash). */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const conn = this.conn;
    if (!conn) return;
    await conn.stop();
    if (this.#state.lifecycle !== 'error') this.#transition('stopped', 'stopped');
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
