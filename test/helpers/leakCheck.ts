/**
 * The leak check of the test suites (VS Code's `ensureNoDisposablesAreLeakedInTestSuite` is the model): a test file
 * must end with every `Emitter`, subscription and `Disposable` of ours it created disposed, no more timers, sockets,
 * pipes or child-process handles than it started with, and no child process of the test process left. The pieces
 * are here (and unit-tested); test/helpers/setup.ts wires them around every test file.
 */
import { execFileSync } from 'node:child_process';
import type { IDisposable, IDisposableTracker } from '../../src/host/events';

/**
 * How long the end-of-file check waits for exits and closes to land before it calls something a leak (ours;
 * `ZUT_LEAK_SETTLE_MS` shortens it for test/fixtures/leaks, whose leaks never settle).
 */
export const LEAK_SETTLE_MS = Number(process.env.ZUT_LEAK_SETTLE_MS) || 5_000;
const POLL_MS = 25;

/** Records where each tracked disposable was created until it is disposed. */
export class DisposableTracker implements IDisposableTracker {
  private readonly live = new Map<IDisposable, { stack: string; parent: IDisposable | null }>();

  trackDisposable(d: IDisposable): void {
    this.live.set(d, { stack: creationStack(), parent: null });
  }

  setParent(child: IDisposable, parent: IDisposable | null): void {
    const entry = this.live.get(child);
    if (entry) entry.parent = parent;
  }

  markAsDisposed(d: IDisposable): void {
    this.live.delete(d);
  }

  /**
   * Disposables still alive whose owner is not (a live owner is reported instead of all it holds): each as its
   * class and the stack that created it.
   */
  leaks(): string[] {
    const out: string[] = [];
    for (const [d, { stack, parent }] of this.live) {
      if (parent && this.live.has(parent)) continue;
      out.push(`${d.constructor?.name && d.constructor.name !== 'Object' ? d.constructor.name : 'disposable'} created ${stack}`);
    }
    return out;
  }
}

function creationStack(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1).map((l) => l.trim());
  // Drop the tracker's and events.ts's own frames: the first frame left is the code that made the disposable.
  const own = frames.filter((f) => !/leakCheck\.ts|[/\\]host[/\\]events\.ts/.test(f));
  return own.slice(0, 6).join('\n    ');
}

type TimerFn = typeof setTimeout;
type Timer = NodeJS.Timeout;

/**
 * Records the timers and intervals made through the globals (what the code under test calls) until they fire
 * (a timeout) or are cleared: vitest's own timers (saved before a test file loads) are not seen, so neither is the
 * noise they would add to a count of active resources.
 */
export class TimerTracker {
  private readonly live = new Map<Timer, string>();
  private saved: Pick<typeof globalThis, 'setTimeout' | 'setInterval' | 'clearTimeout' | 'clearInterval'> | undefined;

  install(): void {
    if (this.saved) return;
    const saved = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, clearTimeout: globalThis.clearTimeout, clearInterval: globalThis.clearInterval };
    this.saved = saved;
    const wrap = (make: TimerFn, repeats: boolean): TimerFn => {
      const wrapped = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const t: Timer = make((...a: unknown[]) => {
          if (!repeats) this.live.delete(t);
          fn(...a);
        }, ms, ...args);
        this.live.set(t, creationStack());
        return t;
      }) as TimerFn;
      // Keep util.promisify.custom and the like.
      return Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(make));
    };
    const clear = (orig: (t?: Timer | string | number) => void) => (t?: Timer | string | number) => {
      orig(t);
      if (t === undefined || t === null) return;
      if (typeof t === 'object') this.live.delete(t);
      else for (const k of this.live.keys()) if (Number(k) === Number(t)) this.live.delete(k);
    };
    globalThis.setTimeout = wrap(saved.setTimeout, false);
    globalThis.setInterval = wrap(saved.setInterval as unknown as TimerFn, true) as unknown as typeof setInterval;
    globalThis.clearTimeout = clear(saved.clearTimeout as (t?: Timer | string | number) => void) as typeof clearTimeout;
    globalThis.clearInterval = clear(saved.clearInterval as (t?: Timer | string | number) => void) as typeof clearInterval;
  }

  uninstall(): void {
    if (!this.saved) return;
    Object.assign(globalThis, this.saved);
    this.saved = undefined;
  }

  /** Timers still pending that keep the process alive (unref'd ones don't), each with where it was made. */
  leaks(): string[] {
    return [...this.live].filter(([t]) => t.hasRef()).map(([, stack]) => `timer created ${stack}`);
  }
}

/** Counts of the process's active resources (`process.getActiveResourcesInfo()`: Timeout, ProcessWrap, PipeWrap…). */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

/**
 * Every kind of resource there is more of now than at `baseline`, as "3 × PipeWrap (baseline 1)". Timers are the
 * TimerTracker's: vitest's own come and go and would make the count noise.
 */
export function resourceLeaks(baseline: Map<string, number>, now: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [kind, n] of now) {
    if (kind === 'Timeout') continue;
    const before = baseline.get(kind) ?? 0;
    if (n > before) out.push(`${n} × ${kind} (baseline ${before})`);
  }
  return out;
}

/** The child processes of `pid` still running, as "pid args" (`ps --ppid`; zombies are reaped and not counted). */
export function childProcesses(pid = process.pid): string[] {
  let out: string;
  try {
    out = execFileSync('ps', ['--ppid', String(pid), '-o', 'pid=,stat=,args='], { encoding: 'utf8' });
  } catch (e) {
    // ps exits 1 when it lists nothing.
    if ((e as { status?: number }).status === 1) return [];
    throw e;
  }
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^\d+\s+Z/.test(l))
    .map((l) => l.replace(/^(\d+)\s+\S+\s+/, '$1 '))
    .filter((l) => !l.includes(' ps --ppid ')); // this very look
}

/** What one check found: empty when clean. */
export interface LeakReport {
  disposables: string[];
  timers: string[];
  resources: string[];
  children: string[];
}

export function isClean(r: LeakReport): boolean {
  return r.disposables.length === 0 && r.timers.length === 0 && r.resources.length === 0 && r.children.length === 0;
}

/** One look at the process now against `baseline` (children first: `ps` itself is gone before resources are counted). */
export function checkNow(trackers: Trackers, baseline: Map<string, number>): LeakReport {
  const children = childProcesses();
  return { disposables: trackers.disposables?.leaks() ?? [], timers: trackers.timers?.leaks() ?? [], resources: resourceLeaks(baseline, activeResources()), children };
}

export interface Trackers {
  disposables?: DisposableTracker;
  timers?: TimerTracker;
}

/**
 * Checks until clean or `settleMs` passed (child exits and socket closes land a little after a suite's last `await`);
 * gives back the last report. Never waits longer than `settleMs`, never gives up early.
 */
export async function settledCheck(trackers: Trackers, baseline: Map<string, number>, settleMs = LEAK_SETTLE_MS): Promise<LeakReport> {
  const end = Date.now() + settleMs;
  for (;;) {
    const report = checkNow(trackers, baseline);
    if (isClean(report) || Date.now() >= end) return report;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** A report as the error a suite fails with. */
export function leakMessage(file: string, r: LeakReport): string {
  const parts = [`${file} leaks:`];
  if (r.children.length) parts.push(`  child processes still running:\n    ${r.children.join('\n    ')}`);
  if (r.timers.length) parts.push(`  ${r.timers.length} timer(s) still pending:\n  ${r.timers.join('\n  ')}`);
  if (r.resources.length) parts.push(`  active resources above the baseline: ${r.resources.join(', ')}`);
  if (r.disposables.length) parts.push(`  ${r.disposables.length} not disposed:\n  ${r.disposables.join('\n  ')}`);
  return parts.join('\n');
}
