/** Every limit of the host is a named constant in src/protocol/limits.ts (house rule): no numeric constant elsewhere. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as limits from '../../src/protocol/limits';

const SRC = path.resolve(__dirname, '../../src');
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

describe('limits', () => {
  it('no module but limits.ts declares a numeric constant (the protocol version is not a limit)', () => {
    const offenders = files(SRC)
      .filter((f) => !f.endsWith(path.join('protocol', 'limits.ts')))
      .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').map((l, i) => ({ f, l, i })))
      .filter(({ l }) => /^\s*(export\s+)?const\s+[A-Z][A-Z0-9_]*\s*(:\s*\w+\s*)?=\s*[\d(]/.test(l) && !l.includes('PROTOCOL_VERSION'))
      .map(({ f, l, i }) => `${path.relative(SRC, f)}:${i + 1}: ${l.trim()}`);
    expect(offenders).toEqual([]);
  });

  it('the per-extension caps are the issue\'s numbers and every limit is a positive number', () => {
    expect([limits.MAX_COMMANDS_PER_EXT, limits.MAX_TOOLS_PER_EXT, limits.MAX_STATUS_KEYS_PER_EXT, limits.MAX_WIDGETS_PER_EXT]).toEqual([128, 128, 64, 64]);
    expect([limits.MAX_WIDGET_LINES, limits.MAX_NOTES_PER_EXT, limits.MAX_DIAGNOSTICS_PER_EXT]).toEqual([500, 200, 100]);
    expect(limits.DEFAULT_START_TIMEOUT_MS).toBe(60_000);
    for (const [name, v] of Object.entries(limits)) expect(v, name).toBeGreaterThan(0);
  });
});
