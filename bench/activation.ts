/**
 * Activation, measured inside code-server by the in-host suite (test/vscode/inhost/activation.test.js writes
 * `.test-runs/<stamp>/inhost-activation.json`; `npm run test:vscode -- --suite inhost --grep ^activation` makes a
 * new one). The bench prints the newest record: the time spent in `activate()` and the time from the start of
 * activation until every enabled example extension of examples/workspace is ready.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { summarize, type BenchRow } from './stats';

const ACTIVATE_GOAL_MS = 30;

interface Record {
  date: string;
  vscode: string;
  uiKind: string;
  activateMs: number;
  startedMs: number;
  ready: string[];
}

/** The newest in-host activation record under `.test-runs/`, with the run dir it came from. */
function newestRecord(root: string): { file: string; record: Record } | undefined {
  const runs = path.join(root, '.test-runs');
  if (!fs.existsSync(runs)) return undefined;
  const files = fs
    .readdirSync(runs)
    .map((d) => path.join(runs, d, 'inhost-activation.json'))
    .filter((f) => fs.existsSync(f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const file = files[0];
  return file ? { file, record: JSON.parse(fs.readFileSync(file, 'utf8')) as Record } : undefined;
}

export function benchActivation(): Promise<BenchRow[]> {
  const root = process.env.ZUT_REPO_ROOT ?? process.cwd();
  const found = newestRecord(root);
  const howTo = 'record one with: npm run test:vscode -- --suite inhost --grep ^activation';
  if (!found) {
    const none = summarize([Number.NaN]);
    return Promise.resolve([
      { id: 'activate', figure: 'Activation: time in activate() (code-server, in-host suite)', ours: none, unit: 'ms', goal: `≤ ${ACTIVATE_GOAL_MS} ms`, pass: false, notes: [`no in-host record under .test-runs/: ${howTo}`] },
    ]);
  }
  const { file, record: r } = found;
  const where = `${path.relative(root, file)} (${r.date}, VS Code ${r.vscode} ${r.uiKind}); ${howTo}`;
  return Promise.resolve([
    {
      id: 'activate',
      figure: 'Activation: time in activate() (code-server, in-host suite)',
      ours: summarize([r.activateMs]),
      unit: 'ms',
      goal: `≤ ${ACTIVATE_GOAL_MS} ms`,
      pass: r.activateMs <= ACTIVATE_GOAL_MS,
      notes: [`measured by the in-host suite: ${where}`],
    },
    {
      id: 'activation-ready',
      figure: `Activation → every example extension ready (${r.ready.length})`,
      ours: summarize([r.startedMs]),
      unit: 'ms',
      goal: 'info',
      pass: true,
      notes: [`ready: ${r.ready.join(', ')}; processes spawned in parallel after activate() returned`],
    },
  ]);
}
