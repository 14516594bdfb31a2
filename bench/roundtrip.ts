/** 1. Round trip: sequential small `tool_call` → `tool_result` through the Manager vs a raw newline-JSON child. */
import { RawClient } from '../test/fixtures/bench/home';
import { startHost } from './host';
import { abTrials, ratios, summarize, type BenchRow } from './stats';

export async function benchRoundTrip(quick: boolean): Promise<BenchRow> {
  const calls = quick ? 200 : 500;
  const host = await startHost([{ kind: 'node', name: 'rt' }]);
  const raw = new RawClient({ kind: 'node', name: 'raw' });
  await raw.ready;
  try {
    // Wall time per call is the figure; the parent's CPU time per call (less sensitive to other load) is noted.
    const cpu = { ours: [] as number[], floor: [] as number[] };
    const timed = async (into: number[], call: (i: number) => Promise<unknown>) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await call(i);
      const wall = ((performance.now() - t0) * 1000) / calls;
      const c = process.cpuUsage(c0);
      into.push((c.user + c.system) / calls);
      return wall;
    };
    const ours = () => timed(cpu.ours, (i) => host.manager.callTool('echo_rt', { i, q: 'small payload' }));
    const floor = () => timed(cpu.floor, (i) => raw.call('echo_raw', { i, q: 'small payload' }));
    const t = await abTrials(quick ? 3 : 15, 2, ours, floor);
    const cpuOurs = summarize(cpu.ours.slice(-t.a.length)).median;
    const cpuFloor = summarize(cpu.floor.slice(-t.b.length)).median;
    const r = summarize(ratios(t.a, t.b));
    return {
      id: 'roundtrip',
      figure: 'Round trip (sequential tool_call → tool_result)',
      ours: summarize(t.a),
      baseline: summarize(t.b),
      baselineName: 'raw newline-JSON echo, no host',
      unit: 'µs/call',
      ratio: r,
      goal: '≤ 1.10×',
      pass: r.median <= 1.1,
      notes: [
        `${calls} calls per trial; parent CPU per call: host ${cpuOurs.toFixed(1)} µs, raw ${cpuFloor.toFixed(1)} µs`,
      ],
    };
  } finally {
    await raw.close();
    await host.close();
  }
}
