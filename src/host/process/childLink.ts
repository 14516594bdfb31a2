/**
 * The process side of a Connection: one child spawned in its own process group, its stderr log, the line decoder
 * on its stdout, the bounded outbound write queue, and reaping (the group kill, then escaped processes still
 * holding its stdio). No protocol here: lines in, lines out.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { LineDecoder, MAX_FRAME_BYTES } from '../../protocol';
import { TextLineSplitter, killGroup, openLog, spawnChild, type ChildSpec } from './child';
import { watchChild } from './childEvents';
import { killEscaped, stdioLinks } from './escaped';
import { TORN_WRITE_GRACE_MS } from '../../protocol/limits';
import { WriteQueue } from './writeQueue';

export interface ChildLinkOptions extends ChildSpec {
  queue?: { maxFrames?: number; maxBytes?: number };
  maxFrameBytes?: number;
  writeTimeoutMs: number;
}

export interface ChildLinkEvents {
  onLine(line: string): void;
  /** A line longer than the frame limit (`limit` bytes): dropped; the connection decides what that means. */
  onOverflow(limit: number): void;
  onStderr(line: string): void;
  /** stdout ended without an exit soon after (see childEvents.ts). */
  onEofWithoutExit(): void;
  /** Spawning failed: no exit follows. */
  onSpawnError(detail: string): void;
  /** A process error after spawn: the exit follows. */
  onError(detail: string): void;
  /** The child is gone; `how` in zut's words. */
  onExit(how: string): void;
  /** The write queue failed (overflow, write timeout, broken pipe). */
  onWriteFail(reason: string): void;
  onDiagnostic(message: string): void;
}

export class ChildLink {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: WriteQueue;
  private readonly log: ReturnType<typeof openLog>;
  /** The child's stdio links, to find escaped processes after the group kill (escaped.ts). */
  private readonly stdio: string[];
  private closed = false;
  private resolveFinished!: () => void;
  private readonly finished = new Promise<void>((r) => (this.resolveFinished = r));
  /** Pids of escaped processes ended after the exit. */
  escaped: number[] = [];

  /** Spawns the child and wires its streams to `events`. */
  constructor(o: ChildLinkOptions, events: ChildLinkEvents) {
    this.log = openLog(o);
    if (this.log.error) events.onDiagnostic(this.log.error);
    this.child = spawnChild(o);
    this.stdio = stdioLinks(this.child.pid);
    this.queue = new WriteQueue(this.child.stdin, { ...o.queue, writeTimeoutMs: o.writeTimeoutMs, onFail: (reason) => events.onWriteFail(reason) });
    const limit = o.maxFrameBytes ?? MAX_FRAME_BYTES;
    const decoder = new LineDecoder(limit);
    const stderr = new TextLineSplitter();
    watchChild(this.child, o.exec, {
      onStdout: (chunk) => {
        for (const d of decoder.push(chunk)) {
          if ('overflow' in d) return events.onOverflow(limit);
          events.onLine(d.line);
        }
      },
      onStderr: (chunk) => {
        this.log.write(chunk);
        stderr.push(chunk, (l) => events.onStderr(l));
      },
      onEofWithoutExit: () => events.onEofWithoutExit(),
      onSpawnError: (detail) => events.onSpawnError(detail),
      onError: (detail) => events.onError(detail),
      onExit: (how) => {
        stderr.flush((l) => events.onStderr(l));
        events.onExit(how);
      },
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Queues one line (with its newline); `id` lets an abandoned request be withdrawn. False when it could not be. */
  write(line: string, id?: string): boolean {
    return !this.closed && this.queue.push(line, id);
  }

  /**
   * Withdraws a queued request line: `queued` (removed), `writing` or `done`. A line being written cannot be
   * withdrawn (a torn frame): it is allowed `TORN_WRITE_GRACE_MS` to finish, else `onTorn` gives up on the transport.
   */
  withdraw(id: string, onTorn: () => void): ReturnType<WriteQueue['withdraw']> {
    const where = this.queue.withdraw(id);
    if (where === 'writing') {
      setTimeout(() => {
        if (this.queue.isWriting(id)) onTorn();
      }, TORN_WRITE_GRACE_MS);
    }
    return where;
  }

  /** Signals the whole process group. */
  kill(signal: NodeJS.Signals): void {
    killGroup(this.child.pid, signal);
  }

  /**
   * After the exit: closes the queue and the log, kills what is left of the group (zero orphans), then ends
   * descendants that left the group but are still in its session or hold its stdio; `waitExit()` resolves after that.
   */
  close(killGraceMs: number, onDiagnostic: (message: string) => void): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.close();
    this.log.close();
    killGroup(this.child.pid, 'SIGKILL');
    this.child.stdin.destroy();
    // Spawned detached (child.ts): the child leads its own session, whose id is its pid.
    void killEscaped(this.stdio, killGraceMs, this.child.pid)
      .then((pids) => {
        this.escaped = pids;
        if (pids.length > 0) onDiagnostic(`ended ${pids.length} escaped process(es) still holding its stdio or in its session: ${pids.join(', ')}`);
      })
      .catch(() => undefined)
      .finally(() => this.resolveFinished());
  }

  /** Resolves once the child is gone and reaped (`close` done). */
  waitExit(): Promise<void> {
    return this.finished;
  }

  /**
   * After the extension was asked to shut down: up to `graceMs` for its exit, then SIGTERM to the group, up to
   * `killGraceMs`, then SIGKILL. Resolves once the child is reaped.
   */
  async terminate(graceMs: number, killGraceMs: number): Promise<void> {
    if (await this.exitWithin(graceMs)) return;
    this.kill('SIGTERM');
    if (await this.exitWithin(killGraceMs)) return;
    this.kill('SIGKILL');
    await this.waitExit();
  }

  /** Whether the child is reaped within `ms`. */
  private async exitWithin(ms: number): Promise<boolean> {
    let t: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (t = setTimeout(() => r(false), ms)));
    const done = await Promise.race([this.finished.then(() => true), timeout]);
    if (t) clearTimeout(t);
    return done;
  }
}
