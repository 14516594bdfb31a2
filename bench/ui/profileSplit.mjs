// `node bench/ui/profileSplit.mjs <exthost-….cpuprofile> [...]`: splits an extension host CPU profile taken by the
// bench agent (ZUT_BENCH_PROFILE_DIR, bench/ui/agent/extension.js) by whose code ran — zut-vscode's bundles, VS Code's
// own, other extensions, Node's internals, the garbage collector, idle — from zut-vscode's API appearing (minus
// `--before MS`, default 300: its activation) until every watched extension ran. Prints ms per owner and the top
// functions of ours.
import fs from 'node:fs';

const args = process.argv.slice(2);
const before = args.includes('--before') ? Number(args[args.indexOf('--before') + 1]) : 300;
const files = args.filter((a, i) => a.endsWith('.cpuprofile') && args[i - 1] !== '--before');

function owner(url, fn) {
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(idle)') return 'idle';
  if (fn === '(program)' || fn === '(root)') return 'program (V8, unattributed)';
  if (/zut\.zut-vscode[^/]*\/dist\//.test(url)) return 'zut-vscode';
  if (url.includes('/lib/vscode/out/')) return 'VS Code';
  if (url.startsWith('node:') || url === '') return 'Node internals / native';
  if (url.includes('/extensions/')) return 'other extensions';
  return 'other';
}

for (const file of files) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8'));
  const marks = JSON.parse(fs.readFileSync(file.replace(/\.cpuprofile$/, '.marks.json'), 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const from = marks.apiAt - before;
  const to = marks.allRunningAt;
  const totals = new Map();
  const ours = new Map();
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    const at = marks.profileStartAt + (t - p.startTime) / 1000;
    if (at < from || at > to) return;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const n = byId.get(id);
    const o = owner(n.callFrame.url, n.callFrame.functionName);
    totals.set(o, (totals.get(o) ?? 0) + dt);
    if (o === 'zut-vscode') {
      const k = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
      ours.set(k, (ours.get(k) ?? 0) + dt);
    }
  });
  console.log(`${file}: ${(to - from).toFixed(0)} ms window (zut's API − ${before} ms → all running)`);
  for (const [o, ms] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`  ${o.padEnd(28)} ${ms.toFixed(1)} ms`);
  console.log('  ours, top functions (self):');
  for (const [k, ms] of [...ours].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${ms.toFixed(1)} ms ${k}`);
}
