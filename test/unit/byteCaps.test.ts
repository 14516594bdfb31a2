/** Byte caps per field and per extension (src/host/extensions/byteCaps.ts). */
import { describe, expect, it } from 'vitest';
import { ByteCaps, cutBytes, DEFAULT_BYTE_LIMITS } from '../../src/host/extensions/byteCaps';

const small = { ...DEFAULT_BYTE_LIMITS, description: 8, schema: 40, note: 8, status: 8, widgetLine: 4, widget: 10, panel: 12, panels: 2, total: 200 };

describe('cutBytes', () => {
  it('cuts on a character boundary and marks the cut; short text is untouched', () => {
    expect(cutBytes('short', 8)).toBe('short');
    expect(cutBytes('abcdefghij', 4)).toBe('abcd…');
    // 'é' is 2 bytes: 5 bytes would split the third one.
    expect(cutBytes('éééééé', 5)).toBe('éé…');
    expect(cutBytes('😀😀', 5)).toBe('😀…');
  });
});

describe('ByteCaps', () => {
  it('cuts descriptions, refuses an oversized schema, reports each kind once', () => {
    const reports: string[] = [];
    const b = new ByteCaps((m) => reports.push(m), small);
    expect(b.registration('t', 'a', 'x'.repeat(100), { type: 'object' })).toEqual({ description: 'xxxxxxxx…' });
    expect(b.registration('t', 'b', 'y'.repeat(100), { type: 'object' })).toEqual({ description: 'yyyyyyyy…' });
    expect(b.registration('t', 'c', 'ok', { type: 'object', properties: { long: { type: 'string' } } })).toBeUndefined();
    expect(b.registration('t', 'd', 'ok', { type: 'object', properties: { long: { type: 'string' } } })).toBeUndefined();
    expect(reports).toEqual([expect.stringMatching(/description over 8 bytes: cut/), expect.stringMatching(/schema over 40 bytes/)]);
  });

  it('the per-extension total refuses new entries; releasing one makes room; re-sending a key replaces its bytes', () => {
    const reports: string[] = [];
    const b = new ByteCaps((m) => reports.push(m), { ...small, total: 25 });
    expect(b.status('k1', 'abcdefgh')).toBe('abcdefgh');
    expect(b.status('k1', 'abcdefgh')).toBe('abcdefgh'); // same key: replaced, not added
    const before = b.total;
    expect(b.widget('w', undefined, ['1234', '1234', '1234'])).toEqual({ lines: ['1234', '1234'] });
    expect(b.status('k2', 'abcdefgh')).toBeUndefined();
    expect(reports.some((r) => /further ones refused/.test(r))).toBe(true);
    b.release('w:w');
    expect(b.total).toBe(before);
    expect(b.status('k2', 'abcdefgh')).toBe('abcdefgh');
    expect(b.status('k2', '')).toBe('');
    expect(b.total).toBe(before);
  });

  it('panels: at most `panels` open; a render without lines keeps its charge; close frees the slot', () => {
    const b = new ByteCaps(() => undefined, small);
    expect(b.panel('p1', { lines: ['1234567890123456'] }, true)).toEqual({ lines: [] });
    expect(b.panel('p1', { lines: ['12345'] }, false)).toEqual({ lines: ['12345'] });
    const t = b.total;
    expect(b.panel('p1', { title: 't' }, false)).toEqual({ title: 't' });
    expect(b.total).toBeGreaterThanOrEqual(t);
    expect(b.panel('p2', {}, true)).toEqual({});
    expect(b.panel('p3', {}, true)).toBeUndefined();
    // A render of a panel not opened here is cut, not charged, not counted.
    expect(b.panel('elsewhere', { lines: ['1234567890123456'] }, false)).toEqual({ lines: [] });
    expect(b.total).toBeGreaterThanOrEqual(t);
    b.release('p:p1');
    expect(b.panel('p3', {}, true)).toEqual({});
  });
});
