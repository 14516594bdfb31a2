/**
 * The benchmarks' `--json FILE` rows (bench/stats.ts jsonRow, jsonReport): one object per row with its id, ours,
 * the floor, the ratio and its spread, the load and the goal, so a script can judge or compare runs.
 */
import { describe, expect, it } from 'vitest';
import { jsonReport, summarize, type BenchRow } from '../../bench/stats';

describe('bench --json FILE', () => {
  it('writes each row as data (null where a row has no floor, or a figure is not finite)', () => {
    const rows: BenchRow[] = [
      { id: 'agent-hook-mcp', figure: 'PreToolUse as mcp_tool', ours: summarize([4, 5, 6]), baseline: summarize([100, 200, 300]), baselineName: 'node -e 0', unit: 'ms', ratio: summarize([0.02, 0.03, 0.04]), goal: 'p50 ≤ 0.25×', pass: true, notes: ['n'], load: [1.5, 2] },
      { id: 'bundle', figure: 'bundle size', ours: summarize([NaN]), unit: 'B', goal: '≤ 350,000', pass: false, notes: [] },
    ];
    const doc = JSON.parse(jsonReport('bench', 'env', rows, ['x: failed'])) as { bench: string; rows: unknown[]; failures: string[]; date: string };
    expect(doc.bench).toBe('bench');
    expect(doc.failures).toEqual(['x: failed']);
    expect(Number.isNaN(Date.parse(doc.date))).toBe(false);
    expect(doc.rows[0]).toEqual({ id: 'agent-hook-mcp', figure: 'PreToolUse as mcp_tool', unit: 'ms', ours: 5, oursSpread: [4.5, 5.5], floor: 200, floorName: 'node -e 0', ratio: 0.03, spread: [0.025, 0.035], load: [1.5, 2], goal: 'p50 ≤ 0.25×', pass: true });
    expect(doc.rows[1]).toMatchObject({ id: 'bundle', ours: null, floor: null, floorName: null, ratio: null, spread: null, load: null, pass: false });
  });
});
