/**
 * 4. Fan-out start: 50 extensions discovered, spawned and ready (Manager.start) vs the slowest one alone.
 * The fixtures are sh scripts whose readiness is I/O-bound (a 0.2–0.4 s warm-up sleep, like a compiled extension
 * loading state); a second, informational row does the same with 50 Node fixtures, which is CPU-bound on few cores.
 */
import { makeZutHome, RawClient, type FixtureSpec } from '../test/fixtures/bench/home';
import { NullHostUi } from '../src/host/hostUi';
import { Manager } from '../src/host/manager';
import { abTrials, ratios, summarize, type BenchRow } from './stats';

/** Parent CPU (ms) spent in each 50-extension start: mostly Node's synchronous spawn() (fork + exec). */
const startCpu: number[] = [];

async function timeStart(specs: FixtureSpec[]): Promise<number> {
  const home = makeZutHome(specs);
  const m = new Manager({ folders: [], zutHome: home.home, ui: new NullHostUi(), hostVersion: 'bench', autoRestart: false });
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const report = await m.start();
    const dt = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (specs.length > 1) startCpu.push((c.user + c.system) / 1000);
    if (report.ready.length !== specs.length) throw new Error(`fan-out: ${report.ready.length}/${specs.length} ready: ${JSON.stringify(report.errors)}`);
    return dt;
  } finally {
    await m.stop();
    m.dispose();
    home.dispose();
  }
}

/** The same 50 children started and handshaken with no host (RawClient): what spawning them costs anyway. */
async function timeRawStart(specs: FixtureSpec[]): Promise<number> {
  const t0 = performance.now();
  const clients = specs.map((s) => new RawClient(s));
  await Promise.all(clients.map((c) => c.ready));
  const dt = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return dt;
}

export async function benchFanOut(quick: boolean): Promise<BenchRow[]> {
  const sh: FixtureSpec[] = Array.from({ length: 50 }, (_, i) => ({ kind: 'sh', name: `fan${i}`, warmupSeconds: 0.2 + (0.2 * i) / 49 }));
  const slowest = sh[49]!;
  const t = await abTrials(quick ? 2 : 5, 1, () => timeStart(sh), () => timeStart([slowest]));
  const r = summarize(ratios(t.a, t.b));
  const cpu = summarize(startCpu.slice(-t.a.length)).median;
  startCpu.length = 0;
  const raw: number[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) raw.push(await timeRawStart(sh));
  const rawMedian = summarize(raw).median;
  const rows: BenchRow[] = [
    {
      id: 'fan-out',
      figure: 'Fan-out start (50 sh extensions, 0.2–0.4 s warm-up)',
      ours: summarize(t.a),
      baseline: summarize(t.b),
      baselineName: 'the slowest one alone',
      unit: 'ms',
      ratio: r,
      goal: '≤ 1.2×',
      pass: r.median <= 1.2,
      notes: [
        `host CPU during the 50-extension start: ${cpu.toFixed(0)} ms (${(cpu / 50).toFixed(1)} ms/extension, mostly spawn())`,
        `the same 50 started and handshaken with no host: ${rawMedian.toFixed(0)} ms (${(rawMedian / summarize(t.b).median).toFixed(2)}× the slowest alone)`,
      ],
    },
  ];
  const node: FixtureSpec[] = Array.from({ length: 50 }, (_, i) => ({ kind: 'node', name: `nfan${i}` }));
  const tn = await abTrials(quick ? 1 : 3, 1, () => timeStart(node), () => timeStart([node[0]!]));
  rows.push({
    id: 'fan-out-node',
    figure: 'Fan-out start, 50 Node extensions (info: CPU-bound)',
    ours: summarize(tn.a),
    baseline: summarize(tn.b),
    baselineName: 'one alone',
    unit: 'ms',
    ratio: summarize(ratios(tn.a, tn.b)),
    goal: 'info',
    pass: true,
    notes: ['each Node child costs ~40 ms CPU to boot; 50 of them on this machine’s cores bound the ratio'],
  });
  return rows;
}
