/** 1. Round trip: sequential small `tool_call` → `tool_result` through the Manager vs a raw newline-JSON child. */
import { RawClient } from '../test/fixtures/bench/home';
import { startHost } from './host';
import { abTrials, ratios, summarize, type BenchRow } from './stats';

export async function benchRoundTrip(quick: boolean): Promise<BenchRow> {
  const calls = quick ? 300 : 1000;
  const host = await startHost([{ kind: 'node', name: 'rt' }]);
  const raw = new RawClient({ kind: 'node', name: 'raw' });
  await raw.ready;
  try {
    const ours = async () => {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await host.manager.callTool('echo_rt', { i, q: 'small payload' });
      return ((performance.now() - t0) * 1000) / calls;
    };
    const floor = async () => {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await raw.call('echo_raw', { i, q: 'small payload' });
      return ((performance.now() - t0) * 1000) / calls;
    };
    const t = await abTrials(quick ? 3 : 9, 2, ours, floor);
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
      notes: [`${calls} calls per trial`],
    };
  } finally {
    await raw.close();
    await host.close();
  }
}
