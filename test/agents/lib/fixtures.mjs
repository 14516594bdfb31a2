// @ts-check
// Contract fixtures: the hook payloads the real agents wrote on stdin, kept in test/agents/fixtures/<agent>/ for the
// unit tests. A captured payload has the sandbox's path replaced by SANDBOX_PATH; it must have the committed
// fixture's shape (the same keys, value types and nesting; ids, times and texts may differ run to run), so a new
// agent version that changes its payload fails here. ZUT_AGENTS_UPDATE_FIXTURES=1 writes the captured payloads
// instead (then review the diff).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** What a sandbox's temp directory reads as in a fixture. */
export const SANDBOX_PATH = '/tmp/zut-agents-sandbox';

/**
 * `value` with every occurrence of the sandbox root (in any string, keys included) replaced by SANDBOX_PATH, also in
 * the dashed form Claude Code names its transcript folders with (`-tmp-zut-agents-…-ws`).
 */
export function normalize(value, root) {
  const dashed = (p) => p.replace(/[^A-Za-z0-9]/g, '-');
  return JSON.parse(JSON.stringify(value).replaceAll(root, SANDBOX_PATH).replaceAll(dashed(root), dashed(SANDBOX_PATH)));
}

/** The shape of a JSON value: its type, an object's keys with theirs, the union of an array's element shapes. */
export function shape(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return [...new Set(v.map((e) => JSON.stringify(shape(e))))].sort().map((s) => JSON.parse(s));
  if (typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape(v[k])]));
  return typeof v;
}

/**
 * Checks (or, when updating, writes) the fixture `<agent>/<name>.json` against a captured payload.
 * @param {string} agent @param {string} name @param {unknown} payload @param {string} root the sandbox root
 */
export function contractFixture(agent, name, payload, root) {
  const file = path.join(FIXTURES, agent, `${name}.json`);
  const captured = normalize(payload, root);
  if (process.env.ZUT_AGENTS_UPDATE_FIXTURES === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(captured, null, 2) + '\n');
    return captured;
  }
  assert.ok(fs.existsSync(file), `no fixture ${path.relative(process.cwd(), file)}: run with ZUT_AGENTS_UPDATE_FIXTURES=1 to write it`);
  const committed = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(shape(captured), shape(committed), `${agent} ${name}: the payload's shape changed (ZUT_AGENTS_UPDATE_FIXTURES=1 rewrites ${file})\ncaptured: ${JSON.stringify(captured)}`);
  return captured;
}
