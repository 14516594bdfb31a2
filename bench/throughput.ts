/**
 * 2. Throughput: small frames/s from one extension through LineDecoder + parseExtFrame + the Manager's dispatch
 * into a counting HostUi, vs vscode-jsonrpc's StreamMessageReader/Writer carrying the same payloads over child stdio.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-jsonrpc/node';
import { NullHostUi } from '../src/host/hostUi';
import { fixtureDir } from '../test/fixtures/bench/home';
import { startHost } from './host';
import { abTrials, fmt, ratios, summarize, type BenchRow } from './stats';

class CountingUi extends NullHostUi {
  notes = 0;
  override notify(): void {
    this.notes++;
  }
}

export async function benchThroughput(quick: boolean): Promise<BenchRow> {
  const n = quick ? 10_000 : 40_000;
  const ui = new CountingUi();
  const host = await startHost([{ kind: 'node', name: 'fl' }], ui);
  const child = spawn('node', [path.join(fixtureDir(), 'flood-rpc.mjs')], { stdio: ['pipe', 'pipe', 'ignore'] });
  const reader = new StreamMessageReader(child.stdout);
  const writer = new StreamMessageWriter(child.stdin);
  let got = 0;
  let done: (() => void) | undefined;
  reader.listen((m: Message) => {
    if ((m as { method?: string }).method === 'done') done?.();
    else got++;
  });
  try {
    const ours = async () => {
      ui.notes = 0;
      const t0 = performance.now();
      await host.manager.callTool('flood_fl', { n, kind: 'notify' });
      const dt = performance.now() - t0;
      if (ui.notes !== n) throw new Error(`throughput: ${ui.notes} of ${n} notify frames reached the HostUi`);
      return (n / dt) * 1000;
    };
    const lsp = async () => {
      got = 0;
      const finished = new Promise<void>((r) => (done = r));
      const t0 = performance.now();
      await writer.write({ jsonrpc: '2.0', method: 'flood', params: { n, kind: 'notify' } } as Message);
      await finished;
      const dt = performance.now() - t0;
      if (got !== n) throw new Error(`throughput baseline: ${got} of ${n} notifications`);
      return (n / dt) * 1000;
    };
    const t = await abTrials(quick ? 3 : 7, 1, ours, lsp);
    const r = summarize(ratios(t.a, t.b));
    return {
      id: 'throughput',
      figure: 'Throughput (notify flood, one extension)',
      ours: summarize(t.a),
      baseline: summarize(t.b),
      baselineName: 'vscode-jsonrpc StreamMessageReader/Writer',
      unit: 'frames/s',
      ratio: r,
      goal: '≥ 1.5×',
      pass: r.median >= 1.5,
      notes: [`${fmt(n, 0)} frames per trial; both children write frame by frame`],
    };
  } finally {
    reader.dispose();
    child.kill();
    await host.close();
  }
}
