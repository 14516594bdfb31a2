/** Small statistics for the benchmarks: quantiles, summaries, interleaved A/B trials, and the result row. */
import * as os from 'node:os';

export interface Summary {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  n: number;
}

/** Linear-interpolated quantile of an ascending array. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarize(xs: number[]): Summary {
  const s = [...xs].sort((a, b) => a - b);
  return {
    median: quantile(s, 0.5),
    p25: quantile(s, 0.25),
    p75: quantile(s, 0.75),
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
    n: s.length,
  };
}

/**
 * Runs `warmup` discarded rounds, then `trials` rounds of A and B interleaved (ABAB…, order alternating) so drift
 * hits both sides alike. Each function returns one trial's figure.
 */
export async function abTrials(
  trials: number,
  warmup: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < trials; i++) {
    if (i % 2 === 0) {
      out.a.push(await a());
      out.b.push(await b());
    } else {
      out.b.push(await b());
      out.a.push(await a());
    }
  }
  return out;
}

/**
 * Like abTrials with three sides: each trial runs A, B and C once, the order rotating (ABC, BCA, CAB, …), so a
 * figure derived from two sides (e.g. A − B) is compared with C measured under the same conditions.
 */
export async function threeWay(
  trials: number,
  warmup: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
  c: () => Promise<number>,
): Promise<{ a: number[]; b: number[]; c: number[] }> {
  const fns = [a, b, c];
  for (let i = 0; i < warmup; i++) for (const f of fns) await f();
  const out: number[][] = [[], [], []];
  for (let i = 0; i < trials; i++) {
    for (let k = 0; k < 3; k++) {
      const side = (i + k) % 3;
      out[side]!.push(await fns[side]!());
    }
  }
  return { a: out[0]!, b: out[1]!, c: out[2]! };
}

/**
 * Like threeWay with any number of sides: each round runs every side once, the order rotating (for four sides ABCD,
 * BCDA, CDAB, …), so figures derived from several sides of a round (e.g. A − B over D) share that round's conditions.
 * Returns each side's figures, round by round.
 */
export async function interleaved(rounds: number, warmup: number, sides: (() => Promise<number>)[]): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const f of sides) await f();
  const out: number[][] = sides.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      out[side]!.push(await sides[side]!());
    }
  }
  return out;
}

/** Per-trial ratios a[i]/b[i] of interleaved trials. */
export function ratios(a: number[], b: number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

/** One line of the results table. */
export interface BenchRow {
  id: string;
  figure: string;
  /** Our side: median and spread, in `unit`. */
  ours: Summary;
  baseline?: Summary;
  baselineName?: string;
  unit: string;
  /** The compared figure (usually median of per-trial ratios) and its spread. */
  ratio?: Summary;
  goal: string;
  pass: boolean;
  notes: string[];
  /** The machine's 1-minute load average while the row was measured: at its start and its end. */
  load?: [number, number];
}

/** A row as `--json FILE` writes it: what a script needs to judge a run or compare two, without parsing the table. */
export interface JsonRow {
  id: string;
  figure: string;
  unit: string;
  /** Our median, and its p25–p75. */
  ours: number;
  oursSpread: [number, number];
  /** The floor (the baseline measured in the same run) and its name; null where a row has none. */
  floor: number | null;
  floorName: string | null;
  /** The compared figure (usually the median of per-trial ratios) and its p25–p75; null where a row has none. */
  ratio: number | null;
  spread: [number, number] | null;
  /** The 1-minute load average at the row's start and end. */
  load: [number, number] | null;
  goal: string;
  pass: boolean;
}

export function jsonRow(r: BenchRow): JsonRow {
  return {
    id: r.id,
    figure: r.figure,
    unit: r.unit,
    ours: r.ours.median,
    oursSpread: [r.ours.p25, r.ours.p75],
    floor: r.baseline?.median ?? null,
    floorName: r.baselineName ?? null,
    ratio: r.ratio?.median ?? null,
    spread: r.ratio ? [r.ratio.p25, r.ratio.p75] : null,
    load: r.load ?? null,
    goal: r.goal,
    pass: r.pass,
  };
}

/** The `--json FILE` document of a run (JSON has no NaN or Infinity: such a number is written as null). */
export function jsonReport(bench: string, env: string, rows: BenchRow[], failures: string[]): string {
  const finite = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v);
  return JSON.stringify({ bench, date: new Date().toISOString(), env, rows: rows.map(jsonRow), failures }, finite, 2) + '\n';
}

/** The 1-minute load average now (os.loadavg; 0 where the platform has none). */
export function loadNow(): number {
  return os.loadavg()[0] ?? 0;
}

/**
 * True when a ratio's p25–p75 spans more than ±`half` around its median: too noisy to judge against a goal, so the
 * row is measured again (up to its budget) and says so.
 */
export function tooWide(r: Summary | undefined, half = 0.15): boolean {
  return !!r && Number.isFinite(r.median) && (r.median - r.p25 > half || r.p75 - r.median > half);
}

export function fmt(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  return x.toFixed(digits);
}

export function fmtSummary(s: Summary | undefined, digits = 2): string {
  if (!s) return '—';
  if (s.n === 1) return fmt(s.median, digits);
  return `${fmt(s.median, digits)} [${fmt(s.p25, digits)}–${fmt(s.p75, digits)}]`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

/** The results table (`npm run bench` and `npm run bench:ui`), with each row's notes under it. */
export function table(rows: BenchRow[]): string {
  const withLoad = rows.some((r) => r.load);
  const head = ['#', 'figure', 'ours', 'baseline', 'ratio', 'goal', 'result', ...(withLoad ? ['load'] : [])];
  const body = rows.map((r, i) => [
    String(i + 1),
    r.figure,
    `${fmtSummary(r.ours)} ${r.unit}`,
    r.baseline ? `${fmtSummary(r.baseline)} (${r.baselineName})` : '—',
    r.ratio ? `${fmtSummary(r.ratio)}×` : '—',
    r.goal,
    r.goal === 'info' ? 'INFO' : r.pass ? 'PASS' : 'MISS',
    ...(withLoad ? [r.load ? `${r.load[0].toFixed(1)}→${r.load[1].toFixed(1)}` : '—'] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: string[]) => cells.map((x, c) => x.padEnd(widths[c]!)).join(' | ');
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)];
  out.push('', `values: median [p25–p75] over trials; ratio: median of per-trial ours/baseline (interleaved trials)${withLoad ? '; load: 1-minute load average at the row\'s start → end' : ''}`);
  rows.forEach((r, i) => r.notes.forEach((n) => out.push(`${i + 1}. ${n}`)));
  return out.join('\n');
}
