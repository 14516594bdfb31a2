/**
 * 4. Fan-out start: 50 extensions discovered, spawned and ready (Manager.start) vs the floor: the same 50 spawned and
 * handshaken with no host (RawClient), interleaved with it (and with the slowest one alone, as information).
 * The fixtures are sh scripts whose readiness is I/O-bound (a 0.2–0.4 s warm-up sleep, like a compiled extension
 * loading state); a second, informational row does the same with 50 Node fixtures, which is CPU-bound on few cores.
 */
import { makeZutHome, RawClient, type FixtureSpec } from '../test/fixtures/bench/home';
import { NullHostUi } from '../src/host/hostUi';
import { Manager } from '../src/host/manager';
import { abTrials, fmt, loadNow, ratios, summarize, threeWay, tooWide, type BenchRow } from './stats';

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
  const l0 = loadNow();
  const sh: FixtureSpec[] = Array.from({ length: 50 }, (_, i) => ({ kind: 'sh', name: `fan${i}`, warmupSeconds: 0.2 + (0.2 * i) / 49 }));
  const slowest = sh[49]!;
  // Ours, the no-host floor and the slowest alone in every trial (order rotating): the floor under the same load.
  const trials = quick ? 2 : 5;
  const t = await threeWay(trials, 1, () => timeStart(sh), () => timeRawStart(sh), () => timeStart([slowest]));
  let r = summarize(ratios(t.a, t.b));
  let repeats = 0;
  while (!quick && tooWide(r) && repeats < 2) {
    repeats++;
    const more = await threeWay(3, 0, () => timeStart(sh), () => timeRawStart(sh), () => timeStart([slowest]));
    t.a.push(...more.a);
    t.b.push(...more.b);
    t.c.push(...more.c);
    r = summarize(ratios(t.a, t.b));
  }
  const cpu = summarize(startCpu.slice(-t.a.length)).median;
  startCpu.length = 0;
  const alone = summarize(ratios(t.a, t.c));
  const rows: BenchRow[] = [
    {
      id: 'fan-out',
      figure: 'Fan-out start (50 sh extensions, 0.2–0.4 s warm-up)',
      ours: summarize(t.a),
      baseline: summarize(t.b),
      baselineName: 'floor: the same 50 spawned and handshaken with no host',
      unit: 'ms',
      ratio: r,
      goal: '≤ 1.05×',
      pass: r.median <= 1.05,
      load: [l0, loadNow()],
      notes: [
        `${t.a.length} interleaved trials${repeats ? ` (measured again ${repeats}× because the ratio's p25–p75 spanned more than ±0.15)` : ''}; host CPU during the 50-extension start: ${cpu.toFixed(0)} ms (${(cpu / 50).toFixed(1)} ms/extension, mostly spawn())`,
        `vs the slowest one alone (${fmt(summarize(t.c).median)} ms): ${fmt(alone.median)}× (info: the 50 share the machine's cores, the one alone does not)`,
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
