/**
 * Property tests of the e adapter (issue 13): whatever line an e extension writes (arbitrary JSON, e-shaped
 * messages with wrong params, any id), `decode` never throws and yields one well-formed message; every request it
 * answers itself is answered exactly once with the same id; the manifest mapper never throws. Prints
 * `e fuzz: N cases`.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { eFamily, EProtocol } from '../../src/host/protocols/e';
import { registerManifest } from '../../src/host/protocols/eManifest';
import type { ExtMessage } from '../../src/host/protocols/types';

const SCALE = Number(process.env.ZUT_STRESS_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
let cases = 0;
afterAll(() => {
  process.stdout.write(`e fuzz: ${cases} cases\n`);
});

const METHODS = ['ui.notify', 'ui.show', 'ui.status', 'ui.activity', 'ui.widget', 'ui.panel', 'ui.select', 'ui.confirm', 'ui.input', 'ui.pane', 'ui.editor', 'ui.compose', 'session.send', 'session.model', 'session.info', 'notify', 'tool.update', 'x.unknown'];
const id = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.boolean(), fc.dictionary(fc.string(), fc.integer()));
const eLine = fc.oneof(
  fc.record({ id, method: fc.constantFrom(...METHODS), params: fc.jsonValue() }),
  fc.record({ method: fc.constantFrom(...METHODS), params: fc.jsonValue() }),
  fc.record({ id: fc.oneof(fc.integer(), fc.string()), result: fc.jsonValue() }),
  fc.record({ id: fc.oneof(fc.integer(), fc.string()), error: fc.jsonValue() }),
  fc.jsonValue(),
);
const KINDS = new Set(['reply', 'notice', 'request', 'cancel', 'signal', 'batch', 'progress', 'ready', 'none', 'diagnostic']);

function check(m: ExtMessage, line: unknown): void {
  expect(KINDS.has(m.kind)).toBe(true);
  if (m.kind !== 'batch') return;
  m.messages.forEach((x) => check(x, line));
  // A request answered here: exactly one answer, carrying the request's own id.
  expect(m.send.length).toBeLessThanOrEqual(1);
  for (const s of m.send) {
    expect(s.endsWith('\n')).toBe(true);
    const answer = JSON.parse(s) as { id: unknown; result?: unknown; error?: unknown };
    expect(answer.id).toEqual((line as { id: unknown }).id);
    expect('result' in answer !== 'error' in answer).toBe(true);
  }
}

describe('e adapter fuzz', () => {
  it('decode never throws; self-answered requests get one answer with their id', () => {
    const p = new EProtocol();
    fc.assert(
      fc.property(eLine, (v) => {
        cases++;
        check(p.decode(JSON.stringify(v)), v);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('arbitrary text lines are diagnostics or messages, never exceptions', () => {
    const p = new EProtocol();
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        cases++;
        expect(KINDS.has(p.decode(s).kind)).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('any initialize answer completes or fails the handshake, with a message; the manifest mapper never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (result) => {
        cases++;
        const r = registerManifest(result);
        if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
        const step = eFamily.handshake({ name: 'x', hostInfo: () => ({ hostVersion: '1', provider: '', model: '', cwd: '/', extensionDir: '/', dataDir: '/' }) }).onLine(JSON.stringify({ id: 1, result }));
        expect(['done', 'fail']).toContain(step.kind);
      }),
      { numRuns: runs(2000) },
    );
  });
});
