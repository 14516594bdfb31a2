/**
 * Activation, measured in the bench itself: the release bundle's dist/extension.js against a hello-world extension
 * (bench/ui/hello, `yo code`'s one command), each loaded in a fresh Node process with a stand-in `vscode` module
 * (bench/activationChild.cjs): the time to load the file (VS Code's "code loading") + the activate() call, as VS Code's
 * Show Running Extensions adds them. Interleaved pairs. dist/main.js's activate() returns before it loads the bundle
 * (src/main.ts), so a second row, for information, shows the work itself: load + the call's start → its promise
 * resolved, with its split and the longest of its tasks. The figure of a real VS Code, when one was recorded, is in the
 * notes: `npm run bench:ui`'s window row (.test-runs/<stamp>/bench-ui.json) and the in-host suite's record
 * (.test-runs/<stamp>/inhost-activation.json, with the time until every example extension is ready).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CODE_CACHE_WRITE_DELAY_MS } from '../src/protocol/limits';
import { fmt, fmtSummary, loadNow, ratios, summarize, type BenchRow } from './stats';

/** One activation in a fresh Node (bench/activationChild.cjs's line). */
interface Once {
  loadMs: number;
  activateMs: number;
  resolvedMs: number;
  split?: { waitMs?: number; bundleLoadMs?: number; innerActivateMs?: number; codeCache?: string };
  err?: string;
}

interface Record {
  date: string;
  vscode: string;
  uiKind: string;
  activateMs: number;
  callMs?: number;
  resolvedMs?: number;
  startedMs: number;
  ready: string[];
}

/** The newest `name` under `.test-runs/<stamp>/`, parsed. */
function newest<T>(root: string, name: string): { file: string; record: T } | undefined {
  const runs = path.join(root, '.test-runs');
  if (!fs.existsSync(runs)) return undefined;
  const files = fs
    .readdirSync(runs)
    .map((d) => path.join(runs, d, name))
    .filter((f) => fs.existsSync(f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const file = files[0];
  return file ? { file, record: JSON.parse(fs.readFileSync(file, 'utf8')) as T } : undefined;
}

/**
 * One load + activate() of `entry` in a fresh Node (bench/activationChild.cjs). `storage`: the extension's global
 * storage kept across runs (dist/main.js's code cache lives there); `lingerMs`: how long the process stays after.
 */
function once(root: string, entry: string, storage?: string, lingerMs = 0): Once {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-act-home-'));
  try {
    const r = spawnSync(process.execPath, [path.join(root, 'bench', 'activationChild.cjs'), entry], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ZUT_BENCH_STORAGE: storage ?? '', ZUT_BENCH_LINGER_MS: String(lingerMs) },
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith('{"loadMs"'));
    if (!line) throw new Error(`activation: no figure from ${entry}: ${r.stdout}${r.stderr}`);
    return JSON.parse(line) as Once;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export function benchActivation(quick: boolean): Promise<BenchRow[]> {
  const root = process.env.ZUT_REPO_ROOT ?? process.cwd();
  const l0 = loadNow();
  // The entry VS Code loads (package.json `main`): dist/main.js, which loads dist/extension.js in activate().
  const bundle = path.join(process.env.ZUT_BENCH_BUNDLE_DIR ?? path.join(root, 'dist'), 'main.js');
  const hello = path.join(root, 'bench', 'ui', 'hello', 'extension.js');
  const ours: Once[] = [];
  const cold: Once[] = [];
  const base: Once[] = [];
  const n = quick ? 3 : 9;
  // One global storage for every run of ours, as in one VS Code: the first activation (the warm-up, which stays
  // until dist/main.js has written its code cache) is the one after an install or update; the rest, every later one.
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-act-storage-'));
  once(root, bundle, storage, CODE_CACHE_WRITE_DELAY_MS + 1_000);
  once(root, hello);
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      ours.push(once(root, bundle, storage));
      base.push(once(root, hello));
    } else {
      base.push(once(root, hello));
      ours.push(once(root, bundle, storage));
    }
    if (i % 3 === 0) cold.push(once(root, bundle)); // a first activation (a fresh storage: no code cache)
  }
  fs.rmSync(storage, { recursive: true, force: true });
  const total = (x: Once) => x.loadMs + x.activateMs;
  const work = (x: Once) => x.loadMs + x.resolvedMs;
  const ratio = summarize(ratios(ours.map(total), base.map(total)));
  const split = (k: 'waitMs' | 'bundleLoadMs' | 'innerActivateMs') => fmtSummary(summarize(ours.map((o) => o.split?.[k] ?? Number.NaN).filter(Number.isFinite)));
  const longest = ours.map((o) => Math.max(o.activateMs, o.split?.bundleLoadMs ?? Number.NaN, o.split?.innerActivateMs ?? Number.NaN)).filter(Number.isFinite);
  const errors = [...new Set(ours.map((o) => o.err).filter((e): e is string => !!e))];
  const notes = [
    `${n} interleaved pairs, each in a fresh Node with a stand-in vscode module (bench/activationChild.cjs); ours: loading dist/main.js ${fmtSummary(summarize(ours.map((o) => o.loadMs)))} ms, the activate() call (it returns before it loads dist/extension.js: row activate-work) ${fmtSummary(summarize(ours.map((o) => o.activateMs)))} ms; hello-world: ${fmtSummary(summarize(base.map((o) => o.loadMs)))} ms, ${fmtSummary(summarize(base.map((o) => o.activateMs)))} ms`,
    `a first activation (no code cache yet: after an install or update), ${cold.length} runs: load + call ${fmtSummary(summarize(cold.map(total)))} ms, load + until resolved ${fmtSummary(summarize(cold.map(work)))} ms`,
  ];
  if (errors.length) notes.push(`activate() threw with the stand-in vscode (the figure stops there): ${errors[0]!.split('\n')[0]}`);
  const ui = newest<{ date: string; rows: { id: string; ours: { median: number }; baseline?: { median: number }; ratio?: { median: number } }[] }>(root, 'bench-ui.json');
  const uiRow = ui?.record.rows.find((r) => r.id === 'ui-activate');
  if (ui && uiRow) notes.push(`in a real VS Code (npm run bench:ui, ${path.relative(root, ui.file)}, ${ui.record.date}): ${fmt(uiRow.ours.median)} ms vs the hello-world's ${fmt(uiRow.baseline?.median ?? Number.NaN)} ms (VS Code's figure), ${fmt(uiRow.ratio?.median ?? Number.NaN)}×`);
  // Ours against the hello-world's, both by `of`.
  const against = (id: string, figure: string, of: (x: Once) => number, goal: string, pass: boolean, rowNotes: string[]): BenchRow => ({
    id, figure, ours: summarize(ours.map(of)), baseline: summarize(base.map(of)), baselineName: 'hello-world extension, same way', unit: 'ms',
    ratio: summarize(ratios(ours.map(of), base.map(of))), goal, pass, load: [l0, loadNow()], notes: rowNotes,
  });
  const rows: BenchRow[] = [
    // issue 41's goal: ≤ 1.5×
    against('activate', 'Activation: load the release entry + activate() vs a hello-world extension (fresh Node, stand-in vscode; code cache written)', total, '≤ 1.5×', errors.length === 0 && ratio.median <= 1.5, notes),
    against('activate-work', 'Activation\'s work: load the release entry + activate() until its promise resolved (host loaded and started) vs the same of a hello-world', work, 'info', errors.length === 0, [
      `after activate() returned, each its own task: the wait for the event loop ${split('waitMs')} ms, loading dist/extension.js through the code cache ${split('bundleLoadMs')} ms, its activate() ${split('innerActivateMs')} ms; the longest task of ours ${fmtSummary(summarize(longest))} ms`,
    ]),
  ];

  const found = newest<Record>(root, 'inhost-activation.json');
  if (found) {
    const { file, record: r } = found;
    rows.push({
      id: 'activation-ready',
      figure: `Activation → every example extension ready (${r.ready.length})`,
      ours: summarize([r.startedMs]),
      unit: 'ms',
      goal: 'info',
      pass: true,
      notes: [`measured by the in-host suite: ${path.relative(root, file)} (${r.date}, VS Code ${r.vscode} ${r.uiKind}; activate() ${fmt(r.activateMs)} ms by its own clock${r.resolvedMs === undefined ? '' : `, dist/main.js's call ${fmt(r.callMs ?? Number.NaN)} ms and its promise resolved ${fmt(r.resolvedMs)} ms after it`}); processes spawned in parallel after activate() returned`],
    });
  }
  return Promise.resolve(rows);
}
