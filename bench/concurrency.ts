/**
 * 5. Concurrency: 1,000 concurrent tool calls over 10 extensions, replies after random 0–10 ms delays (so they
 * come back out of order). Every result must echo its own call's unique args from the right extension.
 * Baseline: the same calls over 10 raw clients (no host).
 */
import { RawClient, type FixtureSpec } from '../test/fixtures/bench/home';
import { startHost } from './host';
import { abTrials, quantile, summarize, type BenchRow } from './stats';

const EXTS = 10;
const CALLS = 1000;
/** Paired trials per run (odd: the median is one trial's ratio). */
const CONCURRENCY_TRIALS = 31;

function cpuMicros(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return d.user + d.system;
}

export async function benchConcurrency(quick: boolean): Promise<BenchRow> {
  const specs: FixtureSpec[] = Array.from({ length: EXTS }, (_, i) => ({ kind: 'node', name: `cc${i}` }));
  const host = await startHost(specs);
  const raws = Array.from({ length: EXTS }, (_, i) => new RawClient({ kind: 'node', name: `rc${i}` }));
  await Promise.all(raws.map((r) => r.ready));
  let lost = 0;
  let misrouted = 0;
  let rawMisrouted = 0;
  let total = 0;
  const p50: number[] = [];
  const p99: number[] = [];
  const rawP50: number[] = [];
  const rawP99: number[] = [];
  // This process's CPU time per call (user + system): less sensitive than latency to other load on the machine.
  const cpu: number[] = [];
  const rawCpu: number[] = [];
  // Both sides' n-th trial use the same random delays (a paired comparison: the spread of the delays is not
  // what is measured); every call's uid is unique all the same.
  const delays: number[][] = [];
  let round = 0;
  const plan = (n: number) => {
    round++;
    const d = (delays[n] ??= Array.from({ length: CALLS }, () => Math.floor(Math.random() * 11)));
    return Array.from({ length: CALLS }, (_, i) => ({ k: i % EXTS, args: { uid: `r${round}-c${i}`, delay: d[i]! } }));
  };
  let oursN = 0;
  let floorN = 0;
  const record = (lat: number[], a: number[], b: number[]) => {
    const s = lat.sort((x, y) => x - y);
    a.push(quantile(s, 0.5));
    b.push(quantile(s, 0.99));
    return quantile(s, 0.5);
  };
  try {
    const ours = async () => {
      const lat: number[] = [];
      const c0 = process.cpuUsage();
      await Promise.all(
        plan(oursN++).map(async ({ k, args }) => {
          const t0 = performance.now();
          total++;
          try {
            const r = await host.manager.callTool(`echo_cc${k}`, args);
            lat.push(performance.now() - t0);
            if (r.ext !== `cc${k}` || r.content[0]?.text !== JSON.stringify(args)) misrouted++;
          } catch {
            lost++;
          }
        }),
      );
      cpu.push(cpuMicros(c0) / CALLS);
      return record(lat, p50, p99);
    };
    const floor = async () => {
      const lat: number[] = [];
      const c0 = process.cpuUsage();
      await Promise.all(
        plan(floorN++).map(async ({ k, args }) => {
          const t0 = performance.now();
          const text = await raws[k]!.call(`echo_rc${k}`, args);
          lat.push(performance.now() - t0);
          // The same check as the host's side, so both sides do the same work per reply.
          if (text !== JSON.stringify(args)) rawMisrouted++;
        }),
      );
      rawCpu.push(cpuMicros(c0) / CALLS);
      return record(lat, rawP50, rawP99);
    };
    // One trial's ratio is noisy (11 processes on the machine's cores; IQR ≈ 0.7–1.6×): the figure is the median
    // of many short paired trials (each ≈ 50 ms).
    const trials = quick ? 5 : CONCURRENCY_TRIALS;
    const t = await abTrials(trials, 2, ours, floor);
    const ours50 = summarize(p50.slice(-trials));
    const ours99 = summarize(p99.slice(-trials));
    const raw50 = summarize(rawP50.slice(-trials));
    const raw99 = summarize(rawP99.slice(-trials));
    const ratio = summarize(t.a.map((x, i) => x / t.b[i]!));
    return {
      id: 'concurrency',
      figure: '1,000 concurrent tool calls over 10 extensions (p50 latency)',
      ours: ours50,
      baseline: raw50,
      baselineName: 'same calls over 10 raw clients',
      unit: 'ms',
      ratio,
      goal: '≤ 1.25×, 0 lost, 0 misrouted',
      pass: ratio.median <= 1.25 && lost === 0 && misrouted === 0 && rawMisrouted === 0,
      notes: [
        `p99 ${ours99.median.toFixed(1)} ms (raw ${raw99.median.toFixed(1)} ms)`,
        `this process's CPU per call: host ${summarize(cpu.slice(-trials)).median.toFixed(1)} µs, raw ${summarize(rawCpu.slice(-trials)).median.toFixed(1)} µs`,
        `${total} calls incl. warm-up: ${lost} lost, ${misrouted} misrouted (raw clients: ${rawMisrouted} misrouted); ${trials} paired trials`,
      ],
    };
  } finally {
    await Promise.all(raws.map((r) => r.close()));
    await host.close();
  }
}
