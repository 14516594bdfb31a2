/**
 * A Connection is one running extension: its child process, the hello handshake, the registration window,
 * the outbound queue, correlated requests with deadlines, and shutdown. The Manager owns one per extension.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  LineDecoder,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  encodeFrame,
  parseExtFrame,
  type ExtFrame,
  type HelloAckFromHost,
  type HelloFromExt,
  type HostFrame,
} from '../protocol';
import { TextLineSplitter, describeExit, killGroup, openLog, spawnChild, type ChildSpec } from './child';
import { killEscaped, stdioLinks } from './escaped';
import { Emitter } from './lifecycle';
import { PendingRequests, type Abandoned, type RequestOptions } from './pending';
import { RequestError, type ReadyMode } from './types';
import {
  AUTO_READY_MS,
  DEFAULT_START_TIMEOUT_MS,
  EOF_EXIT_WAIT_MS,
  EXIT_DRAIN_MS,
  KILL_GRACE_MS,
  READY_GRACE_MS,
  SHUTDOWN_GRACE_MS,
  TORN_WRITE_GRACE_MS,
  WRITE_TIMEOUT_MS,
} from './limits';
import { WriteQueue } from './writeQueue';

export interface ConnectionTimeouts {
  helloMs: number;
  autoReadyMs: number;
  readyGraceMs: number;
  writeMs: number;
  shutdownGraceMs: number;
  killGraceMs: number;
}

/** The defaults, from limits.ts. */
export const DEFAULT_TIMEOUTS: ConnectionTimeouts = {
  helloMs: DEFAULT_START_TIMEOUT_MS,
  autoReadyMs: AUTO_READY_MS,
  readyGraceMs: READY_GRACE_MS,
  writeMs: WRITE_TIMEOUT_MS,
  shutdownGraceMs: SHUTDOWN_GRACE_MS,
  killGraceMs: KILL_GRACE_MS,
};

export interface ConnectionOptions extends ChildSpec {
  /** Built when `hello` arrives, so it reflects the host's current model and session. */
  helloAck(): Omit<HelloAckFromHost, 'type' | 'protocol_version'>;
  /** Frames after `hello` that are not replies to requests (registrations, spontaneous frames). */
  onFrame(frame: ExtFrame): void;
  onDiagnostic(message: string): void;
  onStderr(line: string): void;
  /** Raw frames in and out, when tracing. */
  onTrace?(dir: 'in' | 'out', line: string): void;
  /** Whether `onTrace` wants frames now (checked per frame so tracing costs nothing when off). */
  tracing?(): boolean;
  timeouts?: Partial<ConnectionTimeouts>;
  queue?: { maxFrames?: number; maxBytes?: number };
  maxFrameBytes?: number;
}

/** How the connection ended. `expected`: after `stop()` (not a crash). */
export interface ConnectionExit {
  expected: boolean;
  message: string;
}

let requestSeq = 0;
const requestPrefix = `${process.pid.toString(36)}-`;
/** A correlation id unique within this host process. */
export function nextRequestId(): string {
  return requestPrefix + ++requestSeq;
}

export class Connection {
  private child: ChildProcessWithoutNullStreams | undefined;
  private queue: WriteQueue | undefined;
  private readonly pending = new PendingRequests((a) => this.abandoned(a));
  private readonly timeouts: ConnectionTimeouts;
  private readonly exitEmitter = new Emitter<ConnectionExit>();
  private stopping = false;
  private exited = false;
  private resolveFinished!: () => void;
  private readonly finished = new Promise<void>((r) => (this.resolveFinished = r));
  private log: ReturnType<typeof openLog> | undefined;
  /** The child's stdio links, to find escaped processes after the group kill (escaped.ts). */
  private stdio: string[] = [];
  /** Pids of escaped processes ended after the last exit (for diagnostics and tests). */
  escaped: number[] = [];

  /** The `hello` frame, once received. */
  hello: HelloFromExt | undefined;
  readyMode: ReadyMode | undefined;
  /** Fires once when the child is gone (crash, EOF, fatal transport error, or stop). */
  readonly onExit = this.exitEmitter.event;

  constructor(private readonly options: ConnectionOptions) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get alive(): boolean {
    return !!this.child && !this.exited;
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
    this.log = openLog(o);
    if (this.log.error) o.onDiagnostic(this.log.error);
    const child = spawnChild(o);
    this.child = child;
    this.stdio = stdioLinks(child.pid);
    this.queue = new WriteQueue(child.stdin, {
      ...o.queue,
      writeTimeoutMs: this.timeouts.writeMs,
      onFail: (reason) => this.fatal(reason),
    });
    const decoder = new LineDecoder(o.maxFrameBytes ?? MAX_FRAME_BYTES);
    const stderr = new TextLineSplitter();
    let exitDetail: string | undefined;

    return new Promise<void>((resolve, reject) => {
      let phase: 'hello' | 'register' | 'running' = 'hello';
      const helloTimer: NodeJS.Timeout = setTimeout(
        () => failHandshake(`no hello frame within ${this.timeouts.helloMs / 1000}s (${this.logSuffix()})`),
        this.timeouts.helloMs,
      );
      let quietTimer: NodeJS.Timeout | undefined;
      let graceTimer: NodeJS.Timeout | undefined;
      const clearTimers = () => [helloTimer, quietTimer, graceTimer].forEach((t) => t && clearTimeout(t));
      const failHandshake = (msg: string) => {
        if (phase !== 'hello' && phase !== 'register') return;
        phase = 'running';
        clearTimers();
        this.stopping = true; // the exit that follows is ours
        killGroup(child.pid, 'SIGKILL');
        void this.waitExit().then(() => reject(new Error(msg)));
      };
      const becomeReady = (mode: ReadyMode) => {
        if (phase !== 'register') return;
        phase = 'running';
        clearTimers();
        this.readyMode = mode;
        if (mode === 'auto-ready') o.onDiagnostic(`no ready frame: auto-ready after ${this.timeouts.autoReadyMs}ms without a frame`);
        if (mode === 'ready-timeout') o.onDiagnostic(`no ready frame within ${this.timeouts.readyGraceMs / 1000}s: registration closed`);
        resolve();
      };
      const armQuiet = () => {
        if (quietTimer) clearTimeout(quietTimer);
        quietTimer = setTimeout(() => becomeReady('auto-ready'), this.timeouts.autoReadyMs);
      };

      const onLine = (line: string) => {
        if (o.tracing?.()) o.onTrace?.('in', line);
        const parsed = parseExtFrame(line);
        if (phase === 'hello') {
          if (!parsed.ok || parsed.frame.type !== 'hello') {
            const got = parsed.ok ? parsed.frame.type : parsed.error.kind === 'unknown_type' || parsed.error.kind === 'invalid' ? parsed.error.type || 'invalid frame' : 'invalid JSON';
            return failHandshake(`first frame must be hello (got "${got}"; ${this.logSuffix()})`);
          }
          const hello = parsed.frame;
          if (hello.protocol_version !== PROTOCOL_VERSION) {
            return failHandshake(`unsupported extension protocol version ${hello.protocol_version} (want ${PROTOCOL_VERSION}; ${this.logSuffix()})`);
          }
          if (hello.name !== o.name) {
            return failHandshake(`hello name "${hello.name}" does not match manifest name "${o.name}" (${this.logSuffix()})`);
          }
          this.hello = hello;
          phase = 'register';
          clearTimeout(helloTimer);
          this.send({ type: 'hello_ack', protocol_version: PROTOCOL_VERSION, ...o.helloAck() });
          graceTimer = setTimeout(() => becomeReady('ready-timeout'), this.timeouts.readyGraceMs);
          armQuiet();
          return;
        }
        if (!parsed.ok) {
          o.onDiagnostic(parsed.error.kind === 'unknown_type' ? `ignored ${parsed.error.message}` : `malformed frame ignored: ${parsed.error.message}`);
          if (phase === 'register') armQuiet();
          return;
        }
        const frame = parsed.frame;
        if (phase === 'register') {
          if (frame.type === 'ready') return becomeReady('ready');
          armQuiet();
        }
        if (frame.type === 'ready' || frame.type === 'hello') return;
        if ('id' in frame && (frame.type === 'tool_result' || frame.type === 'command_response' || frame.type === 'event_intercept_response')) {
          this.pending.resolve(frame.id, frame); // late or unknown ids are ignored
          return;
        }
        o.onFrame(frame);
      };

      child.stdout.on('data', (chunk: Buffer) => {
        for (const d of decoder.push(chunk)) {
          if ('overflow' in d) {
            const limit = o.maxFrameBytes ?? MAX_FRAME_BYTES;
            if (phase === 'hello' || phase === 'register') failHandshake(`frame exceeds the ${limit}-byte limit (${this.logSuffix()})`);
            else this.fatal(`frame exceeds the ${limit}-byte limit (over-long line)`);
            return;
          }
          onLine(d.line);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        this.log?.write(chunk);
        stderr.push(chunk, (l) => o.onStderr(l));
      });
      child.stdout.on('end', () => {
        // EOF normally precedes 'exit'; only an EOF without an exit soon after is a transport failure.
        setTimeout(() => {
          if (!this.exited && !this.stopping && phase === 'running') this.fatal('stdout closed (EOF)');
        }, EOF_EXIT_WAIT_MS).unref();
      });
      let stdoutEnded = false;
      child.stdout.once('end', () => (stdoutEnded = true));
      child.on('error', (err) => {
        exitDetail = `start ${o.exec}: ${err.message}`;
        if (child.pid === undefined) {
          // spawn itself failed: there will be no 'exit'
          const msg = `${exitDetail} (${this.logSuffix()})`;
          const wasHandshake = phase !== 'running';
          phase = 'running';
          clearTimers();
          this.finish(true, msg);
          if (wasHandshake) reject(new Error(msg));
        } else {
          failHandshake(`${exitDetail} (${this.logSuffix()})`);
        }
      });
      child.on('exit', (code, signal) => {
        // Let stdout deliver what the child wrote just before exiting (a grandchild may keep it open: bounded wait).
        if (stdoutEnded) onExit(code, signal);
        else {
          const t = setTimeout(() => onExit(code, signal), EXIT_DRAIN_MS);
          child.stdout.once('end', () => {
            clearTimeout(t);
            onExit(code, signal);
          });
        }
      });
      let exitHandled = false;
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        if (exitHandled) return;
        exitHandled = true;
        stderr.flush((l) => o.onStderr(l));
        const how = exitDetail ?? describeExit(code, signal);
        if (phase === 'hello' || phase === 'register') {
          const msg = phase === 'hello' ? `extension exited before hello: ${how} (${this.logSuffix()})` : `extension exited during registration: ${how} (${this.logSuffix()})`;
          phase = 'running';
          clearTimers();
          this.finish(true, msg);
          reject(new Error(msg));
          return;
        }
        this.finish(this.stopping, `exited: ${how} (${this.logSuffix()})`);
      };
    });
  }

  /** Queues a frame for the child. Returns false when it could not be queued (gone, or overflow). */
  send(frame: HostFrame): boolean {
    if (!this.queue || this.exited) return false;
    const line = encodeFrame(frame);
    if (this.options.tracing?.()) this.options.onTrace?.('out', line.slice(0, -1));
    return this.queue.push(line, 'id' in frame ? frame.id : undefined);
  }

  /**
   * Sends a request frame (with `id`) and waits for the reply with that id. `timeoutMs` undefined = no
   * deadline. On timeout or abort the request is withdrawn if still queued, `tool_cancel` is sent when
   * `cancelFrame` is set and the extension advertised the capability, and the promise rejects.
   */
  request(frame: HostFrame & { id: string }, opts: RequestOptions): Promise<ExtFrame> {
    if (!this.alive || this.stopping) {
      return Promise.reject(new RequestError('stopped', `extension ${this.options.name} is not running`));
    }
    if (opts.signal?.aborted) return Promise.reject(new RequestError('cancelled', `${opts.what} cancelled`));
    const promise = this.pending.add(frame.id, opts);
    if (!this.send(frame)) this.pending.reject(frame.id, new RequestError('crashed', `extension ${this.options.name} could not be written to`));
    return promise;
  }

  /** A request timed out or was cancelled: withdraw it if still queued, else `tool_cancel` when advertised. */
  private abandoned({ id, sendCancel }: Abandoned): void {
    const where = this.queue?.withdraw(id) ?? 'done';
    if (where === 'writing') {
      // A torn frame cannot be withdrawn: allow it a moment to finish, then give up on the transport.
      setTimeout(() => {
        if (this.queue?.isWriting(id)) this.fatal(`write of an abandoned request did not finish within ${TORN_WRITE_GRACE_MS}ms`);
      }, TORN_WRITE_GRACE_MS);
    }
    if (where !== 'queued' && sendCancel && this.hasCapability('tool_cancel')) this.send({ type: 'tool_cancel', id });
  }

  /** shutdown → up to 2 s for exit → SIGTERM to the group → 1 s → SIGKILL to the group. */
  async stop(): Promise<void> {
    if (!this.child || this.exited) return;
    this.stopping = true;
    this.failPending('stopped', `extension ${this.options.name} was stopped`);
    this.send({ type: 'shutdown' });
    if (await this.exitWithin(this.timeouts.shutdownGraceMs)) return;
    killGroup(this.child.pid, 'SIGTERM');
    if (await this.exitWithin(this.timeouts.killGraceMs)) return;
    killGroup(this.child.pid, 'SIGKILL');
    await this.waitExit();
  }

  /** A transport error after the handshake: the extension is disconnected (killed) and reported as crashed. */
  private fatal(reason: string): void {
    if (this.exited || !this.child) return;
    this.options.onDiagnostic(reason);
    const message = `disconnected: ${reason} (${this.logSuffix()})`;
    this.failPending('crashed', `extension ${this.options.name} ${message}`);
    this.pendingExitMessage = message;
    killGroup(this.child.pid, 'SIGKILL');
  }

  private pendingExitMessage: string | undefined;

  private failPending(kind: 'crashed' | 'stopped', message: string): void {
    this.pending.failAll(kind, message);
  }

  private finish(expected: boolean, message: string): void {
    if (this.exited) return;
    this.exited = true;
    const msg = this.pendingExitMessage ?? message;
    this.failPending(expected ? 'stopped' : 'crashed', `extension ${this.options.name} ${msg}`);
    this.queue?.close();
    this.log?.close();
    // Grandchildren left in the group are reaped with it: zero orphans.
    killGroup(this.child?.pid, 'SIGKILL');
    this.child?.stdin.destroy();
    this.exitEmitter.fire({ expected: expected && !this.pendingExitMessage, message: msg });
    this.exitEmitter.dispose();
    // Descendants that left the group but still hold our stdio: ended too before the connection counts as finished.
    void killEscaped(this.stdio, this.timeouts.killGraceMs)
      .then((pids) => {
        this.escaped = pids;
        if (pids.length > 0) this.options.onDiagnostic(`ended ${pids.length} escaped process(es) still holding its stdio: ${pids.join(', ')}`);
      })
      .catch(() => undefined)
      .finally(() => this.resolveFinished());
  }

  /** Resolves once the child is gone and the connection has finished. */
  waitExit(): Promise<void> {
    return this.child ? this.finished : Promise.resolve();
  }

  private async exitWithin(ms: number): Promise<boolean> {
    let t: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (t = setTimeout(() => r(false), ms)));
    const done = await Promise.race([this.waitExit().then(() => true), timeout]);
    if (t) clearTimeout(t);
    return done;
  }
}
