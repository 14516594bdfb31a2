/**
 * 6. Memory: the host's heap (V8 heap + external buffers) and RSS growth per connected extension, children
 * excluded (they are other processes). 50 sh fixtures; gc before each reading (--expose-gc). Baseline: 50 bare
 * `spawn`s with piped stdio and data listeners, no host.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { launcher, type FixtureSpec } from '../test/fixtures/bench/home';
import { startHost } from './host';
import { gc, sleep, summarize, type BenchRow } from './stats';

const N = 50;
const MiB = 1024 * 1024;

function reading(): { heap: number; rss: number } {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

async function hostTrial(specs: FixtureSpec[]): Promise<{ heap: number; rss: number }> {
  const before = reading();
  const host = await startHost(specs);
  await sleep(50);
  const after = reading();
  await host.close();
  return { heap: (after.heap - before.heap) / specs.length, rss: (after.rss - before.rss) / specs.length };
}

async function bareTrial(specs: FixtureSpec[]): Promise<{ heap: number; rss: number }> {
  const before = reading();
  const children: ChildProcessWithoutNullStreams[] = specs.map((s) => {
    const { exec, args } = launcher(s);
    const c = spawn(exec, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    c.stdout.on('data', () => undefined);
    c.stderr.on('data', () => undefined);
    return c;
  });
  await sleep(300);
  const after = reading();
  await Promise.all(children.map((c) => new Promise((r) => (c.once('exit', r), c.kill()))));
  return { heap: (after.heap - before.heap) / specs.length, rss: (after.rss - before.rss) / specs.length };
}

export async function benchMemory(quick: boolean): Promise<BenchRow[]> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('memory: run with --expose-gc (npm run bench does)');
  const specs: FixtureSpec[] = Array.from({ length: N }, (_, i) => ({ kind: 'sh', name: `mem${i}` }));
  await hostTrial(specs.slice(0, 5)); // warm-up: load code, JIT, first-time allocations
  await bareTrial(specs.slice(0, 5));
  const ours: { heap: number; rss: number }[] = [];
  const bare: { heap: number; rss: number }[] = [];
  for (let i = 0; i < (quick ? 2 : 4); i++) {
    ours.push(await hostTrial(specs));
    bare.push(await bareTrial(specs));
  }
  const kib = (xs: number[]) => summarize(xs.map((x) => x / 1024));
  const heap = kib(ours.map((o) => o.heap));
  const rss = kib(ours.map((o) => o.rss));
  return [
    {
      id: 'memory-heap',
      figure: 'Memory: host heap+external per connected extension',
      ours: heap,
      baseline: kib(bare.map((o) => o.heap)),
      baselineName: 'bare spawn with piped stdio',
      unit: 'KiB/ext',
      goal: '≤ 1 MiB',
      pass: heap.median * 1024 <= MiB,
      notes: [`${N} extensions per trial, gc before readings`],
    },
    {
      id: 'memory-rss',
      figure: 'Memory: host RSS per connected extension',
      ours: rss,
      baseline: kib(bare.map((o) => o.rss)),
      baselineName: 'bare spawn with piped stdio',
      unit: 'KiB/ext',
      goal: '≤ 1 MiB',
      pass: rss.median * 1024 <= MiB,
      notes: ['RSS is coarse (allocator pages are not returned); children excluded'],
    },
  ];
}
