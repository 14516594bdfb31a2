/**
 * Consent fingerprint (src/host/extensions/fingerprint.ts): fingerprinting every project extension of
 * examples/workspace, and one generated 2,000-file extension (20 directories × 100 files of 2 KiB, a small
 * node_modules), against a plain recursive read of the same files (readdir + readFile, no hash) in the same run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { contentFingerprint } from '../src/host/extensions/fingerprint';
import { FINGERPRINT_PARALLEL_READS } from '../src/protocol/limits';
import { abTrials, gc, ratios, summarize, type BenchRow } from './stats';

const GOAL_RATIO = 3;

/** Every file under `dir`, read whole, the simplest way (the baseline). Returns the bytes read. */
async function plainRead(dir: string): Promise<number> {
  const entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const bufs = await Promise.all(files.map((f) => fs.promises.readFile(f)));
  return bufs.reduce((n, b) => n + b.length, 0);
}

async function fingerprintAll(dirs: readonly string[]): Promise<number> {
  let entries = 0;
  for (const dir of dirs) {
    const r = await contentFingerprint({ name: path.basename(dir), dir, manifestPath: path.join(dir, 'extension.json'), folders: [], logPath: '-' });
    if (!r.ok) throw new Error(`fingerprint: ${r.error}`);
    entries += r.entries;
  }
  return entries;
}

function generated(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-fp-'));
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'big', exec: 'node', args: ['index.js'] }));
  const body = 'module.exports = function f(x) { return x + 1; };\n'.repeat(40).slice(0, 2048);
  for (let d = 0; d < 20; d++) {
    const sub = path.join(dir, 'node_modules', `pkg${d}`);
    fs.mkdirSync(sub, { recursive: true });
    for (let f = 0; f < 100 - (d === 0 ? 1 : 0); f++) fs.writeFileSync(path.join(sub, `m${f}.js`), `// ${d}/${f}\n${body}`);
  }
  return dir;
}

async function row(id: string, figure: string, dirs: readonly string[], quick: boolean): Promise<BenchRow> {
  let entries = 0;
  const ours = async () => {
    gc();
    const t0 = performance.now();
    entries = await fingerprintAll(dirs);
    return performance.now() - t0;
  };
  const base = async () => {
    gc();
    const t0 = performance.now();
    for (const d of dirs) await plainRead(d);
    return performance.now() - t0;
  };
  const t = await abTrials(quick ? 5 : 15, 2, ours, base);
  const r = summarize(ratios(t.a, t.b));
  return {
    id,
    figure: `${figure} (${entries} entries)`,
    ours: summarize(t.a),
    baseline: summarize(t.b),
    baselineName: 'readdir + readFile, no hash',
    unit: 'ms',
    ratio: r,
    goal: `≤ ${GOAL_RATIO}×`,
    pass: r.median <= GOAL_RATIO,
    notes: [`${id}: sha-256 of every entry in sorted order, chunked reads ${FINGERPRINT_PARALLEL_READS} at a time, async (off the activation path)`],
  };
}

export async function benchFingerprint(quick: boolean): Promise<BenchRow[]> {
  const root = path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'examples', 'workspace', '.zut', 'extensions');
  const examples = fs.readdirSync(root).map((d) => path.join(root, d)).filter((d) => fs.statSync(d).isDirectory());
  const big = generated();
  try {
    return [
      await row('fingerprint-examples', `Consent fingerprint, examples/workspace (${examples.length} extensions)`, examples, quick),
      await row('fingerprint-2000', 'Consent fingerprint, generated 2,000-file extension', [big], quick),
    ];
  } finally {
    fs.rmSync(big, { recursive: true, force: true });
  }
}
