// Workspaces of `npm run bench:ui` (bench/ui/run.mjs): the zut extensions it measures, written as files.
//   uibench  (Node)  /uibench-panel opens a 200-line panel; ↓/↑/Home move the selection (a full frame per key, its
//                    footer carrying the child's receive/send times); /uibench-storm sends 10,000 panel_render
//                    frames in one burst; tool uibench_echo answers with its receive/send times.
//   mix-*    20 small extensions, sh / Python / Node mixed (one command each), and `handshake()`: the same 20
//            started and handshaken by a bare script, no host (row 3's floor; `writeFloorAtStart` has the bench
//            agent run it as its window starts).
//   termsel.mjs      the terminal baseline of row 1: the same selection, redrawn by a raw-mode program.
import fs from 'node:fs';
import path from 'node:path';

export const PANEL_LINES = 200;
export const STORM_FRAMES = 10_000;
export const TERM_LINES = 20;

/** The panel's lines with row `sel` selected (the same function runs in the extension and in the local echo). */
export function panelLines(sel, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(`${i === sel ? '▸ ' : '  '}item ${String(i).padStart(3, '0')} · some text so the row is as wide as a real one`);
  return out;
}

const UIBENCH = `#!/usr/bin/env node
// TEST ONLY (npm run bench:ui): panel, storm and tool of the UI benchmark. Node standard library only.
import { createInterface } from 'node:readline';
const N = ${PANEL_LINES};
const STORM = ${STORM_FRAMES};
const PANEL_ID = 'uibench';
const panelLines = ${panelLines.toString()};
const now = () => performance.timeOrigin + performance.now();
const emit = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
let sel = 0;
let open = false;
const frame = (footer) => ({ title: 'uibench', lines: panelLines(sel, N), footer });
emit({ type: 'hello', protocol_version: 2, name: 'uibench', version: '1.0.0', capabilities: ['commands', 'tools', 'panels'] });
createInterface({ input: process.stdin }).on('line', (line) => {
  const recv = now();
  const m = JSON.parse(line);
  switch (m.type) {
    case 'hello_ack':
      emit({ type: 'register_command', name: 'uibench-panel', description: 'open the bench panel' });
      emit({ type: 'register_command', name: 'uibench-storm', description: '10,000 renders in a burst' });
      emit({ type: 'register_tool', name: 'uibench_echo', description: 'Echo with timestamps (bench).', schema: { type: 'object', properties: { i: { type: 'number' } } } });
      emit({ type: 'ready' });
      return;
    case 'command_invoked':
      if (m.name === 'uibench-panel') {
        open = true;
        sel = 0;
        emit({ type: 'command_response', id: m.id, action: 'open_panel', open_panel: { id: PANEL_ID, ...frame('ready') } });
      } else if (m.name === 'uibench-storm') {
        emit({ type: 'command_response', id: m.id, action: 'noop' });
        let out = '';
        for (let i = 1; i <= STORM; i++) {
          sel = i % N;
          out += JSON.stringify({ type: 'panel_render', panel_id: PANEL_ID, ...frame(i === STORM ? 'storm done' : 'storm ' + i) }) + '\\n';
          if (out.length > 1 << 20) { process.stdout.write(out); out = ''; }
        }
        process.stdout.write(out);
      } else emit({ type: 'command_response', id: m.id, action: 'noop', error: 'unknown command' });
      return;
    case 'tool_call':
      emit({ type: 'tool_result', id: m.id, content: [{ type: 'text', text: JSON.stringify({ recv, sent: now() }) }] });
      return;
    case 'panel_key': {
      if (!open) return;
      if (m.key === 'down') sel = (sel + 1) % N;
      else if (m.key === 'up') sel = (sel + N - 1) % N;
      else if (m.key === 'home') sel = 0;
      else return;
      const f = frame('');
      f.footer = 't ' + recv.toFixed(3) + ' ' + now().toFixed(3);
      emit({ type: 'panel_render', panel_id: PANEL_ID, ...f });
      return;
    }
    case 'panel_close':
      open = false;
      return;
    case 'shutdown':
      process.exit(0);
  }
});
`;

const TERMSEL = `// TEST ONLY (npm run bench:ui): row 1's terminal baseline, a raw-mode program redrawing a selection per key.
const N = ${TERM_LINES};
let sel = 0;
const row = (i) => '\\x1b[' + (i + 1) + ';1H\\x1b[2K' + (i === sel ? '▸ ' : '  ') + 'item ' + String(i).padStart(3, '0');
process.stdout.write('\\x1b[?25l\\x1b[2J' + Array.from({ length: N }, (_, i) => row(i)).join(''));
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => {
  const s = d.toString();
  const old = sel;
  if (s === '\\x1b[B' || s === '\\x1bOB') sel = (sel + 1) % N;
  else if (s === '\\x1b[H' || s === '\\x1bOH') sel = 0;
  else if (s === 'q' || s === '\\x03') process.exit(0);
  else return;
  process.stdout.write(row(old) + row(sel));
});
`;

function write(dir, file, text, mode = 0o644) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, file), text, { mode });
}

/** The 20 mixed extensions: [name, language, file, source]. */
export function mixedExtensions(count = 20) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const lang = ['sh', 'python', 'javascript'][i % 3];
    const name = `mix-${lang === 'javascript' ? 'node' : lang === 'python' ? 'py' : 'sh'}-${String(i).padStart(2, '0')}`;
    const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name, version: '1.0.0', capabilities: ['commands'] });
    const reg = JSON.stringify({ type: 'register_command', name: `${name}-hi`, description: 'hi' });
    const ready = JSON.stringify({ type: 'ready' });
    let file;
    let src;
    if (lang === 'sh') {
      file = 'run.sh';
      src = `#!/bin/sh
# TEST ONLY (npm run bench:ui): a minimal sh zut extension.
printf '%s\\n' '${hello}'
IFS= read -r ack
printf '%s\\n' '${reg}' '${ready}'
while IFS= read -r l; do
  case "$l" in
    *'"shutdown"'*) exit 0;;
    *'"command_invoked"'*) id=$(printf '%s' "$l" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p'); printf '{"type":"command_response","id":"%s","action":"display","display":"ok ${name}"}\\n' "$id";;
  esac
done
`;
    } else if (lang === 'python') {
      file = 'main.py';
      src = `#!/usr/bin/env python3
# TEST ONLY (npm run bench:ui): a minimal Python zut extension.
import json, sys
def emit(f):
    sys.stdout.write(f + "\\n"); sys.stdout.flush()
emit('${hello}')
sys.stdin.readline()
emit('${reg}'); emit('${ready}')
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "shutdown": break
    if m.get("type") == "command_invoked":
        emit(json.dumps({"type": "command_response", "id": m["id"], "action": "display", "display": "ok ${name}"}))
`;
    } else {
      file = 'main.mjs';
      src = `#!/usr/bin/env node
// TEST ONLY (npm run bench:ui): a minimal Node zut extension.
import { createInterface } from 'node:readline';
const emit = (s) => process.stdout.write(s + '\\n');
emit('${hello}');
let acked = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (!acked) { acked = true; emit('${reg}'); emit('${ready}'); return; }
  if (m.type === 'shutdown') process.exit(0);
  if (m.type === 'command_invoked') emit(JSON.stringify({ type: 'command_response', id: m.id, action: 'display', display: 'ok ${name}' }));
});
`;
    }
    out.push({ name, lang, file, src });
  }
  return out;
}

/** Writes the extensions of a bench workspace into `<folder>/.zut/extensions`; returns their names. */
export function writeWorkspace(folder, { uibench = true, mixed = 0 } = {}) {
  const root = path.join(folder, '.zut', 'extensions');
  const names = [];
  if (uibench) {
    write(path.join(root, 'uibench'), 'main.mjs', UIBENCH, 0o755);
    write(path.join(root, 'uibench'), 'extension.json', JSON.stringify({ name: 'uibench', version: '1.0.0', exec: './main.mjs', language: 'javascript' }, null, 2));
    names.push('uibench');
  }
  for (const e of mixedExtensions(mixed)) {
    const dir = path.join(root, e.name);
    write(dir, e.file, e.src, 0o755);
    write(dir, 'extension.json', JSON.stringify({ name: e.name, version: '1.0.0', exec: `./${e.file}`, language: e.lang }, null, 2));
    names.push(e.name);
  }
  write(folder, 'termsel.js', TERMSEL);
  return names;
}

/**
 * The floor of row 3: the 20 mixed programs of `<folder>/.zut/extensions` spawned at once by a bare script (no
 * host), each handshaken (hello → hello_ack → ready). Resolves with the ms until every one said `ready`.
 * Self-contained (its modules come in `deps`) so the bench can also run it inside the extension host (`toString`).
 */
export async function handshake(folder, names, env, { spawn, fs, path }) {
  const t0 = performance.now();
  const children = [];
  try {
    await Promise.all(names.map((name) => new Promise((resolve, reject) => {
      const dir = path.join(folder, '.zut', 'extensions', name);
      const m = JSON.parse(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8'));
      const child = spawn(path.join(dir, m.exec), [], { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
      children.push(child);
      let buf = '';
      child.on('error', reject);
      child.stdout.on('data', (d) => {
        buf += d;
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const f = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          if (f.type === 'hello') child.stdin.write(JSON.stringify({ type: 'hello_ack', protocol_version: 2, extension_dir: dir, data_dir: dir }) + '\n');
          if (f.type === 'ready') resolve();
        }
      });
    })));
    return performance.now() - t0;
  } finally {
    for (const c of children) {
      c.stdin.end(JSON.stringify({ type: 'shutdown' }) + '\n');
      await new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', r)));
    }
  }
}

/**
 * Row 3's fair floor: the files the bench agent (bench/ui/agent, ZUT_BENCH_FLOOR_AT_START = the returned path) reads
 * as it activates, so that a window without zut-vscode spawns and handshakes the same `names` of `folder` at the moment
 * it starts, sharing that start as zut-vscode's extensions do. `handshake` itself, as a CommonJS module beside it.
 */
export function writeFloorAtStart(dir, folder, names) {
  fs.mkdirSync(dir, { recursive: true });
  const module = path.join(dir, 'floor-handshake.cjs');
  fs.writeFileSync(module, `'use strict';\nmodule.exports = ${handshake.toString()};\n`);
  const spec = path.join(dir, 'floor-at-start.json');
  fs.writeFileSync(spec, JSON.stringify({ module, folder, names }));
  return spec;
}
