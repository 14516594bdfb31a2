/**
 * `npm run bench`: every figure is a ratio against a baseline measured in the same run on the same machine
 * (interleaved trials, warm-up discarded, medians with p25–p75). Prints a table; `--json` also writes
 * bench/results.json. `--only a,b` runs some (roundtrip, throughput, large-frame, fan-out, concurrency, memory,
 * flood, panel-storm, mcp-relay, editor-tool, agent-hook, agent-hook-warm, agent-hook-mcp, bundle, activation: the release bundle's load + activate() vs a
 * hello-world's, fingerprint); `--quick` runs fewer trials.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchActivation } from './activation';
import { benchAgentHook } from './agentHook';
import { benchAgentHookWarm } from './agentHookWarm';
import { benchAgentHookMcp } from './agentHookMcp';
import { benchBundle } from './bundle';
import { benchConcurrency } from './concurrency';
import { benchEditorTool } from './editorTool';
import { benchFanOut } from './fanout';
import { benchFloodRss } from './floodRss';
import { benchFingerprint } from './fingerprint';
import { benchLargeFrame } from './largeFrame';
import { benchMcpRelay } from './mcpRelay';
import { benchMemory } from './memory';
import { benchPanelStorm } from './panelStorm';
import { benchRoundTrip } from './roundtrip';
import { jsonReport, loadNow, table, type BenchRow } from './stats';
import { benchThroughput } from './throughput';

// Memory first: RSS only grows once the process has grown, so it is read before the other benches inflate it.
const BENCHES: [string, (quick: boolean) => Promise<BenchRow | BenchRow[]>][] = [
  ['memory', benchMemory],
  // Second: it grows this process (the in-process host); no later bench reads RSS.
  ['flood', benchFloodRss],
  ['roundtrip', benchRoundTrip],
  ['throughput', benchThroughput],
  ['large-frame', benchLargeFrame],
  ['fan-out', benchFanOut],
  ['concurrency', benchConcurrency],
  ['panel-storm', benchPanelStorm],
  ['mcp-relay', benchMcpRelay],
  ['editor-tool', benchEditorTool],
  ['agent-hook', benchAgentHook],
  ['agent-hook-warm', benchAgentHookWarm],
  ['agent-hook-mcp', benchAgentHookMcp],
  ['bundle', benchBundle],
  ['activation', benchActivation],
  ['fingerprint', benchFingerprint],
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const onlyArg = args[args.indexOf('--only') + 1];
  const only = args.includes('--only') && onlyArg ? new Set(onlyArg.split(',')) : undefined;
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  const t0 = performance.now();
  for (const [name, run] of BENCHES) {
    if (only && !only.has(name)) continue;
    const s = performance.now();
    process.stderr.write(`bench: ${name}… `);
    try {
      const l0 = loadNow();
      const r = await run(quick);
      // Every row carries the machine's load while it ran (its start → end).
      rows.push(...(Array.isArray(r) ? r : [r]).map((x) => ({ ...x, load: x.load ?? ([l0, loadNow()] as [number, number]) })));
      process.stderr.write(`${((performance.now() - s) / 1000).toFixed(1)} s\n`);
    } catch (e) {
      failures.push(`${name}: ${(e as Error).stack ?? String(e)}`);
      process.stderr.write('failed\n');
    }
  }
  const env = `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${os.platform()} ${os.release()}`;
  console.log(`\nzut-vscode bench — ${env} — ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  console.log(table(rows));
  for (const f of failures) console.log(`\nFAILED ${f}`);
  // `--json FILE`: the rows as data (stats.ts jsonRow), for a script to judge or compare runs; a bare `--json` (no
  // file named) keeps writing bench/results.json.
  if (args.includes('--json')) {
    const named = args[args.indexOf('--json') + 1];
    const file = named && !named.startsWith('--') ? path.resolve(process.env.ZUT_CALLER_CWD ?? process.cwd(), named) : path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'bench', 'results.json');
    fs.writeFileSync(file, jsonReport('bench', env, rows, failures));
    console.log(`\nwrote ${file}`);
  }
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
