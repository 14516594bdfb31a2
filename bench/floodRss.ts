/**
 * 11. Memory under a flood at every cap (issue 20): one hostile extension (test/fixtures/hostile/bytes_flood.mjs)
 * sends ≈ 900 MiB of oversized fields within every count cap — 128 tools and 128 commands with 2 MiB descriptions,
 * tools with oversized schemas, 100 huge diagnostics, 3 MiB notes, 1 MiB status texts, widgets and panels — and the
 * host's peak RSS is read against its idle RSS. Two hosts: the CLI (`zut-host mcp`, the release bundle's cli.js, its
 * own process: VmRSS sampled every 20 ms; idle = the same command with the extension quiet) and an in-process
 * Manager (the extension host's core: this process, gc'd before the idle reading). Goal: < 250 MiB above idle.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NullHostUi, type NoteLevel } from '../src/host/hostUi';
import { Manager } from '../src/host/manager';
import { gc, sleep, summarize, type BenchRow } from './stats';

const MiB = 1024 * 1024;
const GOAL = 250 * MiB;

function fixture(): string {
  return path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'test', 'fixtures', 'hostile', 'bytes_flood.mjs');
}

/** An extension folder running the flood (or, `quiet`, only saying hello) under a temp root. */
function extDir(root: string, quiet: boolean): string {
  const dir = path.join(root, 'bytes');
  fs.mkdirSync(dir, { recursive: true });
  const manifest = { name: 'bytes', exec: process.execPath, args: [fixture(), JSON.stringify({ name: 'bytes', mib: 2, quiet })] };
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify(manifest));
  return dir;
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** One `zut-host mcp` run: its RSS once initialized (quiet) or its peak until the flood is done. */
async function cliTrial(cli: string, quiet: boolean): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-flood-'));
  const env = { ...process.env, ZUT_HOME: path.join(root, 'home'), HOME: root, ZOT_HOME: path.join(root, 'no-zot') };
  const child = spawn(process.execPath, [cli, 'mcp', '--verbose', '--cwd', root, '--ext', extDir(root, quiet)], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(child.pid!));
    } catch {
      /* gone */
    }
  }, 20);
  try {
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) + '\n');
    const t0 = Date.now();
    const done = () => (quiet ? out.includes('"id":1') : err.includes('bytes done'));
    while (!done()) {
      if (Date.now() - t0 > 120_000) throw new Error(`flood: zut-host mcp did not finish (stderr: ${err.slice(-500)})`);
      await sleep(20);
    }
    if (quiet) {
      await sleep(300);
      return rssOf(child.pid!);
    }
    return peak;
  } finally {
    clearInterval(sampler);
    child.stdin.end();
    await exited;
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A UI that keeps nothing (notes are the view's, bounded by count and now by bytes) but sees the marker. */
class MarkerUi extends NullHostUi {
  done = false;
  override notify(_ext: string, _level: NoteLevel, message: string): void {
    if (message === 'bytes done') this.done = true;
  }
}

/** One in-process run: this process's idle RSS (gc'd) and its peak until the flood is done. */
async function hostTrial(): Promise<{ idle: number; peak: number }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-flood-'));
  const ui = new MarkerUi();
  const m = new Manager({ folders: [], zutHome: path.join(root, 'home'), extensionPaths: [extDir(root, false)], ui, hostVersion: 'bench', autoRestart: false });
  gc();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    await m.start();
    const t0 = Date.now();
    while (!ui.done) {
      if (Date.now() - t0 > 120_000) throw new Error('flood: the in-process host did not finish');
      await sleep(20);
    }
    return { idle, peak };
  } finally {
    clearInterval(sampler);
    await m.stop();
    m.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchFloodRss(quick: boolean): Promise<BenchRow[]> {
  const dir = process.env.ZUT_BENCH_BUNDLE_DIR;
  if (!dir) throw new Error('flood: run through npm run bench (bench/run.mjs builds the release bundle with cli.js)');
  if (process.platform !== 'linux') throw new Error('flood: reads /proc/<pid>/status (Linux only)');
  const cli = path.join(dir, 'cli.js');
  const trials = quick ? 1 : 3;
  const cliIdle: number[] = [];
  const cliAbove: number[] = [];
  const hostIdle: number[] = [];
  const hostAbove: number[] = [];
  for (let i = 0; i < trials; i++) {
    const idle = await cliTrial(cli, true);
    cliIdle.push(idle / MiB);
    cliAbove.push((await cliTrial(cli, false)) / MiB - idle / MiB);
    const h = await hostTrial();
    hostIdle.push(h.idle / MiB);
    hostAbove.push((h.peak - h.idle) / MiB);
  }
  const row = (id: string, figure: string, above: number[], idle: number[], baselineName: string, note: string): BenchRow => {
    const ours = summarize(above);
    return { id, figure, ours, baseline: summarize(idle), baselineName, unit: 'MiB above idle', goal: '< 250 MiB', pass: ours.max * MiB < GOAL, notes: [note] };
  };
  return [
    row('flood-rss-cli', 'Flood at every cap: zut-host mcp peak RSS', cliAbove, cliIdle, 'idle RSS, MiB', '≈ 900 MiB of oversized fields from one extension (bytes_flood.mjs); peak VmRSS of the CLI process vs the same command with the extension quiet'),
    row('flood-rss-host', 'Flood at every cap: in-process host peak RSS', hostAbove, hostIdle, 'idle RSS, MiB', 'the same flood into a Manager in the bench process (the extension host core); pass = the worst trial under the goal'),
  ];
}
