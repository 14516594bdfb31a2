/**
 * One supervised extension: its discovered manifest, its live Connection, what it registered, its state, and
 * the restart policy (like the LSP client's: up to 4 automatic restarts, none after the 5th crash within
 * 3 minutes; an exit after `shutdown` is not a crash). Spontaneous frames are handed to the HostUi port.
 */
import type { DiscoveredExtension, ExtensionLogLine, ExtensionState, Manifest, TraceLevel } from '../types';
import { ExtensionCaps, type CapLimits } from './caps';
import { Connection, type ConnectionTimeouts } from '../connection/connection';
import type { HostUi, NoteLevel } from '../hostUi';
import { normaliseSchema, RESERVED_TOOL_NAMES, type Registrant, type RegisteredCommand, type RegisteredTool } from './registry';
import { MAX_DIAGNOSTICS_PER_EXT as MAX_DIAGNOSTICS, RESTART_MAX_CRASHES, RESTART_WINDOW_MS } from '../../protocol/limits';
import type { Gate } from './consent';
import { familyFor, type ExtNotice, type ExtRequestId, type HostInfo, type ProtocolName, type Responder } from '../protocols';
import { ZOT_EVENTS_NEVER_SENT } from '../protocols/zot';

/** The restart policy as data. */
export interface RestartPolicy {
  /** Give up at this many crashes within `windowMs`. */
  maxCrashes: number;
  windowMs: number;
}
export const DEFAULT_RESTART_POLICY: RestartPolicy = { maxCrashes: RESTART_MAX_CRASHES, windowMs: RESTART_WINDOW_MS };

export interface SupervisorDeps {
  ui: HostUi;
  logPath: string;
  hostInfo(sup: ExtensionSupervisor): HostInfo;
  timeouts: Partial<ConnectionTimeouts>;
  autoRestart(): boolean;
  trace(): TraceLevel;
  restartPolicy: RestartPolicy;
  /** Per-extension caps (default: limits.ts). */
  caps?: CapLimits;
  /** Registrations, state or diagnostics changed. */
  changed(): void;
  fail(kind: 'load' | 'crash' | 'gave-up', message: string): void;
  log(line: ExtensionLogLine): void;
  /** Requests the extension makes of the host (zot's `call_tool`, e's questions): calls/extRequests.ts. */
  requests: HostRequests;
  /** The gate before every spawn, restarts included (gates.ts `admit`): false = held back (consent, refused…). */
  admit(sup: ExtensionSupervisor): Promise<boolean>;
}

/** Answers the requests extensions make of the host (calls/extRequests.ts implements it). */
export interface HostRequests {
  /** One request from `ext`; the answer goes to `to`. */
  handle(ext: string, to: Responder, id: ExtRequestId, method: string, params: unknown): void;
  cancel(ext: string, id: ExtRequestId): void;
  /** `ext`'s connection closed: its requests in flight end. */
  closed(ext: string): void;
}

export class ExtensionSupervisor implements Registrant {
  state: ExtensionState;
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

  constructor(
    readonly disc: DiscoveredExtension,
    private readonly deps: SupervisorDeps,
    blocked: boolean,
  ) {
    this.caps = new ExtensionCaps((m) => this.diagnostic(m), deps.caps);
    this.diagnostics = [...disc.diagnostics];
    this.error = disc.error;
    this.state =
      disc.status === 'enabled' ? (blocked ? 'blocked' : 'stopped') : disc.status === 'error' ? 'error' : disc.status;
  }

  get name(): string {
    return this.disc.name;
  }

  /** Running and past its handshake: its registrations count. */
  get live(): boolean {
    return this.state === 'running' && !!this.conn?.alive;
  }

  /** Whether this extension may be spawned at all. */
  get spawnable(): boolean {
    return this.disc.status === 'enabled' && !!this.disc.manifest?.exec && this.state !== 'blocked' && !this.gate;
  }

  /** Why it is held back (consent, denied, disabled in this workspace); see consent.ts. */
  gate: Gate | undefined;
  /** Stopped by the user (Stop): the watcher does not restart it. */
  userStopped = false;
  /** The wire protocol of its last handshake. */
  protocol: ProtocolName | undefined;
  /** Its content fingerprint when consent applies. */
  fingerprint: string | undefined;

  /** When the current spawn began (ms since epoch), while waiting for `hello` and registration. */
  get startingSince(): number | undefined {
    return this.state === 'starting' || this.state === 'restarting' ? this.spawnedAt : undefined;
  }

  /** Holds it back (or releases it): the state shows why. Does not stop a running process. */
  setGate(gate: Gate | undefined): void {
    const was = this.gate;
    this.gate = gate;
    if (this.disc.status !== 'enabled' || this.state === 'blocked') return;
    if (gate === 'consent' || gate === 'denied') this.state = gate;
    else if (gate === 'workspace-disabled') this.state = 'disabled';
    else if (gate === 'refused') this.state = 'error';
    else if (this.state === 'consent' || this.state === 'denied' || this.state === 'disabled') this.state = 'stopped';
    if (was === 'refused' && gate !== 'refused' && this.state === 'error') {
      this.state = 'stopped';
      this.error = undefined;
    }
    this.deps.changed();
  }

  /** Held back because its content cannot be fingerprinted for consent (`message` names it, its dir and log). */
  refuse(message: string): void {
    this.error = message;
    if (this.diagnostics.at(-1) !== message) this.diagnostic(message);
    this.setGate('refused');
  }

  diagnostic(message: string): void {
    this.diagnostics.push(message);
    if (this.diagnostics.length > MAX_DIAGNOSTICS) this.diagnostics.splice(0, this.diagnostics.length - MAX_DIAGNOSTICS);
    this.deps.log({ ext: this.name, kind: 'host', text: message });
    this.deps.changed();
  }

  /** After a manifest re-read: new manifest (enabled or not), or the error that makes it unusable. */
  reconfigure(next: { manifest: Manifest } | { error: string }): void {
    this.restarts = 0;
    this.crashTimes = [];
    if ('error' in next) {
      this.state = 'error';
      this.error = next.error;
      if (this.disc.status === 'enabled') this.disc.status = 'error';
    } else {
      this.disc.manifest = next.manifest;
      const enabled = next.manifest.enabled;
      if (this.disc.status === 'enabled' || this.disc.status === 'disabled' || this.disc.status === 'error') this.disc.status = enabled ? 'enabled' : 'disabled';
      if (this.state !== 'blocked') this.state = enabled ? 'stopped' : 'disabled';
      this.error = undefined;
    }
    this.deps.changed();
  }

  /** Spawns and handshakes. Resolves when running or failed (never rejects). */
  start(): Promise<void> {
    if (!this.spawnable) return Promise.resolve();
    if (this.starting) return this.starting;
    this.starting = this.admitAndSpawn().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async admitAndSpawn(): Promise<void> {
    if (await this.deps.admit(this)) await this.spawn();
  }

  private async spawn(): Promise<void> {
    const m = this.disc.manifest!;
    this.commands.clear();
    this.tools.clear();
    this.events.clear();
    this.intercepts.clear();
    this.caps.reset();
    this.spawnedAt = Date.now();
    this.state = this.restarts > 0 ? 'restarting' : 'starting';
    this.deps.changed();
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
      this.state = 'error';
      this.error = `load ${this.name} (${this.disc.dir}): ${(e as Error).message}`;
      this.deps.changed();
      this.deps.fail('load', this.error);
      return;
    }
    this.error = undefined;
    this.protocol = conn.hello?.protocol;
    this.state = 'running';
    conn.onExit((exit) => this.onExit(conn, exit.expected, exit.message));
    this.deps.changed();
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
    if (expected) {
      this.state = 'stopped';
      this.deps.changed();
      return;
    }
    const now = Date.now();
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.deps.restartPolicy.windowMs);
    this.crashTimes.push(now);
    this.error = `extension ${this.name} (${this.disc.dir}) ${message}`;
    this.state = 'crashed';
    this.deps.changed();
    if (!this.deps.autoRestart()) {
      this.deps.fail('crash', this.error);
      return;
    }
    if (this.crashTimes.length >= this.deps.restartPolicy.maxCrashes) {
      this.state = 'error';
      this.error = `${this.error}; crashed ${this.crashTimes.length} times in ${this.deps.restartPolicy.windowMs / 60_000} minutes: not restarting`;
      this.deps.changed();
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
    if (this.state !== 'error') this.state = 'stopped';
    this.deps.changed();
  }

  private onNotice(f: ExtNotice): void {
    const ui = this.deps.ui;
    const ext = this.name;
    switch (f.type) {
      case 'register_command':
        if (!this.caps.allowRegistration('commands', this.commands.size, this.commands.has(f.name.toLowerCase()))) return;
        this.commands.set(f.name.toLowerCase(), { name: f.name, description: f.description });
        return this.deps.changed();
      case 'register_tool':
        if (RESERVED_TOOL_NAMES.has(f.name.toLowerCase())) {
          return this.diagnostic(`tool ${f.name} refused: the name is reserved for a built-in tool`);
        }
        if (!this.caps.allowRegistration('tools', this.tools.size, this.tools.has(f.name.toLowerCase()))) return;
        this.tools.set(f.name.toLowerCase(), {
          name: f.name,
          description: f.description,
          schema: normaliseSchema(f.schema),
          deferred: f.deferred ?? false,
          interactive: f.interactive ?? false,
          ...(f.annotations ? { annotations: f.annotations } : {}),
        });
        return this.deps.changed();
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
      case 'notify':
        return ui.notify(ext, noteLevel(f.level), f.message);
      case 'clear_notes':
        return ui.clearNotes(ext);
      case 'status':
        if (!this.caps.allowStatus(f.key, f.text ?? '')) return;
        return ui.status(ext, f.key, f.level, f.text ?? '');
      case 'widget': {
        const w = this.caps.allowWidget(f.id, f.lines);
        if (!w.ok) return;
        return ui.widget(ext, { id: f.id, position: f.position, title: f.title, lines: w.lines });
      }
      case 'widget_clear':
        this.caps.widgetCleared(f.id);
        return ui.widgetClear(ext, f.id);
      case 'alert':
        return ui.alert(ext, f.kind, f.reason);
      case 'submit': {
        const text = f.text.trim();
        if (text) ui.submit(ext, text);
        return;
      }
      case 'submit_slash': {
        const text = f.text.trim();
        if (text.startsWith('/')) ui.submitSlash(ext, text);
        else this.diagnostic(`submit_slash ignored: text must start with "/"`);
        return;
      }
      case 'open_panel':
        return ui.openPanel(ext, f.panel);
      case 'panel_render':
        return ui.panelRender(ext, { panel_id: f.panel_id, title: f.title, lines: f.lines, footer: f.footer });
      case 'panel_close':
        return ui.panelClose(ext, f.panel_id);
    }
  }
}

/** Maps a `notify` level to a note level (`warning` is accepted as `warn`). */
export function noteLevel(level: string | undefined): NoteLevel {
  switch ((level ?? '').toLowerCase()) {
    case 'success':
      return 'success';
    case 'warn':
    case 'warning':
      return 'warn';
    case 'error':
      return 'error';
    default:
      return 'info';
  }
}
