/**
 * A Connection is one running extension: its phases from spawn to exit, correlated requests with deadlines
 * (pending.ts), messages out, and decoded messages in (routed by inbound.ts). What the lines mean is its protocol
 * adapter's (protocols/types.ts): the Connection never looks inside a frame. The child process, its line codec,
 * outbound queue, stop escalation and reaping are ChildLink's (childLink.ts); the start's deadlines and outcome are
 * StartClock's (startClock.ts). Each extension's supervisor (supervisor.ts) owns one at a time.
 *
 * Phases: `spawning` → `handshake` (the adapter's handshake, under the start deadline) → `registering` (until
 * `ready`, 250 ms of silence, or the 3 s grace) → `ready` → `stopping` (after `stop()`) → `exited`. A failed
 * handshake kills the child and rejects `start()` once it is reaped.
 */
import { ChildLink } from '../process/childLink';
import { DEFAULT_TIMEOUTS, type ConnectionExit, type ConnectionOptions, type ConnectionTimeouts } from './types';
import { routeMessage, type InboundTargets } from './inbound';
import { Emitter } from '../events';
import { TORN_WRITE_GRACE_MS } from '../../protocol/limits';
import { frameOut } from './frameOut';
import { PendingRequests, type Abandoned, type RequestOptions } from './pending';
import { RequestWindow } from './requestWindow';
import { zutFamily } from '../protocols/hello';
import type * as P from '../protocols/types';
import { summarizeFrameLine } from '../protocols/v2';
import { StartClock } from './startClock';
import { abortError, RequestError, type ReadyMode } from '../types';

export { DEFAULT_TIMEOUTS, type ConnectionExit, type ConnectionOptions, type ConnectionTimeouts } from './types';

const NO_EVENTS: ReadonlySet<string> = new Set();

type Phase = 'spawning' | 'handshake' | 'registering' | 'ready' | 'stopping' | 'exited';

export class Connection {
  private link: ChildLink | undefined;
  private readonly pending = new PendingRequests(
    (a) => this.abandoned(a),
    // A freed slot lets the next held request out, unless the connection is going away.
    (id) => this.window.settled(id, (this.phase === 'ready' || this.phase === 'registering') && !this.fatalMessage),
  );
  /** Requests on the wire at once are bounded; the rest wait here (requestWindow.ts). */
  private readonly window = new RequestWindow(
    (id, line) => this.write(line, id),
    (id) => this.pending.reject(id, new RequestError('crashed', `extension ${this.options.name} could not be written to`)),
  );
  /** Where decoded messages go (inbound.ts). */
  private readonly inbound: InboundTargets;
  private readonly timeouts: ConnectionTimeouts;
  private readonly exitEmitter = new Emitter<ConnectionExit>();
  private phase: Phase = 'spawning';
  /** The exit that follows is ours (stop, or a failed handshake): not a crash. */
  private exitExpected = false;
  private handshake: P.ProtocolHandshake | undefined;
  private protocol: P.ExtensionProtocol | undefined;
  /** The start's deadlines and its outcome. */
  private readonly clock: StartClock;
  /** A transport failure's message, reported as the exit's. */
  private fatalMessage: string | undefined;

  /** Who the extension is, once the handshake is done. */
  hello: P.ExtensionHello | undefined;
  readyMode: ReadyMode | undefined;
  /** Fires once when the child is gone (crash, EOF, fatal transport error, or stop). */
  readonly onExit = this.exitEmitter.event;

  constructor(private readonly options: ConnectionOptions) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.inbound = { pending: this.pending, options, respond: (id, r) => this.respond(id, r), write: (line) => this.write(line) };
    this.clock = new StartClock(this.timeouts, {
      handshakeTimeout: (ms) => this.failStart(`${this.handshake?.awaiting.timeout} within ${ms / 1000}s (${this.logSuffix()})`),
      windowClosed: (mode) => this.becomeReady(mode),
    });
  }

  get pid(): number | undefined {
    return this.link?.pid;
  }

  /** Pids of escaped processes ended after the exit (for diagnostics and tests). */
  get escaped(): number[] {
    return this.link?.escaped ?? [];
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Requests held back, unwritten, until replies free a slot (requestWindow.ts). */
  get heldCount(): number {
    return this.window.heldCount;
  }

  get alive(): boolean {
    return !!this.link && this.phase !== 'exited';
  }

  /** Events the extension may intercept in its protocol (empty before the handshake). */
  get interceptable(): ReadonlySet<string> {
    return this.protocol?.interceptable ?? NO_EVENTS;
  }

  hasCapability(cap: string): boolean {
    return this.hello?.capabilities.includes(cap) ?? false;
  }

  private logSuffix(): string {
    return `stderr log: ${this.options.logPath}`;
  }

  /**
   * Spawns the child and runs the handshake. Resolves once registration ended (`ready`, auto-ready after
   * 250 ms of silence, or the 3 s grace). Rejects with zut's message on any handshake failure, after the
   * child was killed and reaped.
   */
  start(): Promise<void> {
    const o = this.options;
    const started = this.clock.begin();
    this.link = new ChildLink({ ...o, writeTimeoutMs: this.timeouts.writeMs }, {
      onLine: (line) => this.onLine(line),
      onOverflow: (limit) => {
        if (this.starting) this.failStart(`frame exceeds the ${limit}-byte limit (${this.logSuffix()})`);
        else this.fatal(`frame exceeds the ${limit}-byte limit (over-long line)`);
      },
      onStderr: (line) => o.onStderr(line),
      onEofWithoutExit: () => {
        if (this.phase === 'ready') this.fatal('stdout closed (EOF)');
        // Nothing more can arrive: a start fails now rather than at its deadline (failStart acts only while starting).
        else this.failStart(`stdout closed (EOF) (${this.logSuffix()})`);
      },
      onSpawnError: (detail) => {
        const msg = `${detail} (${this.logSuffix()})`;
        const wasStarting = this.starting;
        this.finish(true, msg);
        if (wasStarting) this.clock.end(msg);
      },
      onError: (detail) => this.failStart(`${detail} (${this.logSuffix()})`),
      onExit: (how) => this.onChildExit(how),
      onWriteFail: (reason) => this.fatal(reason),
      onDiagnostic: (message) => o.onDiagnostic(message),
    });
    this.enterHandshake();
    return started;
  }

  /** In `handshake` or `registering`: `start()` has not settled yet. */
  private get starting(): boolean {
    return this.phase === 'handshake' || this.phase === 'registering';
  }

  // ------------------------------------------------------------------ phases

  private enterHandshake(): void {
    this.phase = 'handshake';
    this.handshake = (this.options.family ?? zutFamily).handshake({ name: this.options.name, hostInfo: () => this.options.hostInfo() });
    this.clock.awaitHandshake(this.handshake.timeoutMs);
    for (const line of this.handshake.opening) this.write(line);
  }

  private onLine(line: string): void {
    if (this.options.tracing?.()) this.options.onTrace?.('in', line);
    if (this.phase === 'handshake') return this.onHandshakeLine(line);
    const protocol = this.protocol;
    if (!protocol) return;
    const m = protocol.decode(line);
    if (this.phase === 'registering') {
      if (m.kind === 'ready') return this.becomeReady('ready');
      this.clock.activity();
    }
    routeMessage(this.inbound, m);
  }

  private onHandshakeLine(line: string): void {
    const step = this.handshake!.onLine(line);
    switch (step.kind) {
      case 'wait':
        step.messages?.forEach((m) => routeMessage(this.inbound, m));
        return;
      case 'fail':
        return this.failStart(`${step.message} (${step.detail ? `${step.detail}; ` : ''}${this.logSuffix()})`);
      case 'done':
        this.hello = step.hello;
        this.protocol = step.protocol;
        this.handshake = undefined;
        this.phase = 'registering';
        for (const l of step.send) this.write(l);
        step.messages?.forEach((m) => routeMessage(this.inbound, m));
        if (step.registration === 'complete') return this.becomeReady('ready');
        this.clock.openWindow();
    }
  }

  private becomeReady(mode: ReadyMode): void {
    if (this.phase !== 'registering') return;
    this.phase = 'ready';
    this.readyMode = mode;
    const o = this.options;
    if (mode === 'auto-ready') o.onDiagnostic(`no ready frame: auto-ready after ${this.timeouts.autoReadyMs}ms without a frame`);
    if (mode === 'ready-timeout') o.onDiagnostic(`no ready frame within ${this.timeouts.readyGraceMs / 1000}s: registration closed`);
    this.clock.end();
  }

  /**
   * The handshake or registration failed, or the host gives the start up: kill the child; `start()` rejects with
   * `message` once it is reaped. Nothing once started.
   */
  failStart(message: string): void {
    if (!this.starting) return;
    this.phase = 'stopping';
    this.exitExpected = true;
    this.clock.clear();
    this.link?.kill('SIGKILL');
    void this.waitExit().then(() => this.clock.end(message));
  }

  private onChildExit(how: string): void {
    if (this.starting) {
      const msg =
        this.phase === 'handshake'
          ? `extension exited before ${this.handshake?.awaiting.exit ?? 'hello'}: ${how} (${this.logSuffix()})`
          : `extension exited during registration: ${how} (${this.logSuffix()})`;
      this.finish(true, msg);
      this.clock.end(msg);
      return;
    }
    this.finish(this.exitExpected, `exited: ${how} (${this.logSuffix()})`);
  }

  // ------------------------------------------------------------------ messages

  private write(line: string, id?: string): boolean {
    if (!this.link || this.phase === 'exited') return false;
    if (this.options.tracing?.()) this.options.onTrace?.('out', line.slice(0, -1));
    return this.link.write(line, id);
  }

  /**
   * Sends a one-way message. False when it could not be queued (gone, overflow), the protocol has no such message,
   * or it cannot be sent as a frame (encoding failed or it is over MAX_FRAME_BYTES: said in the extension's log).
   */
  notify(notice: P.HostNotice): boolean {
    const line = this.encoded(() => this.protocol?.encodeNotice(notice), `a ${notice.kind} message`);
    return typeof line === 'string' && this.write(line);
  }

  /** The frame of `encode`, or the error of one that cannot be sent (frameOut.ts; said on the extension). */
  private encoded(encode: () => string | undefined, what: string): string | undefined | RequestError {
    const r = frameOut(encode, this.options.maxFrameBytes);
    if (typeof r !== 'object') return r;
    this.options.onDiagnostic(`${what} cannot be sent: ${r.why}`);
    return new RequestError('invalid', `extension ${this.options.name}: ${what} cannot be sent: ${r.why}`);
  }

  /** Answers the extension's request `id`. */
  respond(id: P.ExtRequestId, response: P.HostResponse): boolean {
    return !!this.protocol && this.write(this.protocol.encodeResponse(id, response));
  }

  /** A fresh correlation id for `request` (to know it before the request is sent). */
  nextRequestId(): string {
    return this.protocol?.nextId() ?? '';
  }

  /** A short summary of one line for message-level tracing. */
  summarize(line: string): string {
    return this.protocol ? this.protocol.summarize(line) : summarizeFrameLine(line);
  }

  /**
   * Sends a request and waits for its reply. `timeoutMs` undefined = no deadline. On timeout or abort the
   * request is withdrawn if still queued, the protocol's cancel is sent when `sendCancel` is set (and the
   * extension opted in), and the promise rejects. `map` turns the reply into the caller's value as it settles
   * (a throw rejects the request).
   */
  request<K extends P.HostRequest['kind']>(request: Extract<P.HostRequest, { kind: K }>, opts: RequestOptions & { id?: string }): Promise<P.ReplyMap[K]>;
  request<K extends P.HostRequest['kind'], T>(
    request: Extract<P.HostRequest, { kind: K }>,
    opts: RequestOptions & { id?: string },
    map: (reply: P.ReplyMap[K]) => T,
  ): Promise<T>;
  request<K extends P.HostRequest['kind'], T>(
    request: Extract<P.HostRequest, { kind: K }>,
    opts: RequestOptions & { id?: string },
    map?: (reply: P.ReplyMap[K]) => T,
  ): Promise<P.ReplyMap[K] | T> {
    const protocol = this.protocol;
    if (!protocol || this.phase === 'stopping' || this.phase === 'exited') {
      return Promise.reject(new RequestError('stopped', `extension ${this.options.name} is not running`));
    }
    if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal, `${opts.what} cancelled`));
    const id = opts.id ?? protocol.nextId();
    const kind: K = request.kind;
    const decode = map ? (body: unknown) => map(protocol.decodeReply(kind, body)) : (body: unknown) => protocol.decodeReply(kind, body);
    const line = this.encoded(() => protocol.encodeRequest(id, request), opts.what);
    if (line instanceof Error) return Promise.reject(line);
    const promise = this.pending.add<P.ReplyMap[K] | T>(id, opts, decode);
    const how = this.window.submit(id, line!);
    if (how === 'failed') this.pending.reject(id, new RequestError('crashed', `extension ${this.options.name} could not be written to`));
    if (how === 'busy') {
      const l = this.window.limits;
      const why = `extension ${this.options.name} is busy: ${l.inFlight} requests in flight and ${l.held} more waiting; ${opts.what} refused (try again later)`;
      this.pending.reject(id, new RequestError('busy', why));
    }
    return promise;
  }

  /** A request timed out or was cancelled: withdraw it if still queued, else the protocol's cancel. */
  private abandoned({ id, sendCancel }: Abandoned): void {
    if (this.window.isHeld(id)) return; // never written: nothing to withdraw or cancel
    const where = this.link?.withdraw(id, () => this.fatal(`write of an abandoned request did not finish within ${TORN_WRITE_GRACE_MS}ms`)) ?? 'done';
    if (where !== 'queued' && sendCancel) this.notify({ kind: 'cancel', id });
  }

  // ------------------------------------------------------------------ stop and exit

  /** shutdown → up to 2 s for exit → SIGTERM to the group → 1 s → SIGKILL to the group. */
  async stop(): Promise<void> {
    const link = this.link;
    if (!link || this.phase === 'exited') return;
    if (this.phase === 'ready') this.phase = 'stopping';
    this.exitExpected = true;
    this.pending.failAll('stopped', `extension ${this.options.name} was stopped`);
    this.notify({ kind: 'shutdown' });
    await link.terminate(this.timeouts.shutdownGraceMs, this.timeouts.killGraceMs);
  }

  /** A transport error after the handshake: the extension is disconnected (killed) and reported as crashed. */
  private fatal(reason: string): void {
    if (this.phase === 'exited' || !this.link) return;
    this.options.onDiagnostic(reason);
    const message = `disconnected: ${reason} (${this.logSuffix()})`;
    this.fatalMessage = message;
    this.pending.failAll('crashed', `extension ${this.options.name} ${message}`);
    this.link.kill('SIGKILL');
  }

  private finish(expected: boolean, message: string): void {
    if (this.phase === 'exited') return;
    this.phase = 'exited';
    this.clock.clear();
    const msg = this.fatalMessage ?? message;
    this.pending.failAll(expected ? 'stopped' : 'crashed', `extension ${this.options.name} ${msg}`);
    this.link?.close(this.timeouts.killGraceMs, (m) => this.options.onDiagnostic(m));
    this.exitEmitter.fire({ expected: expected && !this.fatalMessage, message: msg });
    this.exitEmitter.dispose();
  }

  /** Resolves once the child is gone and the connection has finished (escaped processes ended too). */
  waitExit(): Promise<void> {
    return this.link ? this.link.waitExit() : Promise.resolve();
  }
}
