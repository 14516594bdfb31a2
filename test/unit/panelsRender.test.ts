import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRender, isRender, renderMessage, type HeldFrame } from '../../src/ui-model/panelRender';

const frame = (lines: string[], title = 'T', footer = '') => ({ title, lines, footer });

describe('renderMessage', () => {
  it('is a whole frame when what the webview holds is unknown', () => {
    expect(renderMessage(1, undefined, frame(['a'], 'T', 'F'))).toEqual({ type: 'render', seq: 1, title: 'T', lines: ['a'], footer: 'F' });
  });

  it('is the changed rows, the length, and title/footer only if they changed', () => {
    const held = { seq: 4, frame: frame(['a', 'b', 'c'], 'T', 'F') };
    expect(renderMessage(5, held, frame(['a', 'B', 'c']))).toEqual({ type: 'render', seq: 5, base: 4, length: 3, changed: [[1, 'B']], footer: '' });
    expect(renderMessage(5, held, frame(['a'], 'U', 'F'))).toEqual({ type: 'render', seq: 5, base: 4, length: 1, changed: [], title: 'U' });
    expect(renderMessage(5, held, frame(['a', 'b', 'c', 'd'], 'T', 'F'))).toEqual({ type: 'render', seq: 5, base: 4, length: 4, changed: [[3, 'd']] });
  });
});

describe('applyRender', () => {
  const held: HeldFrame = { seq: 4, title: 'T', lines: ['a', 'b', 'c'], footer: 'F' };

  it('applies a delta to the frame it is based on, and a whole frame to anything', () => {
    expect(applyRender(held, { type: 'render', seq: 5, base: 4, length: 2, changed: [[0, 'x']], footer: 'G' }))
      .toEqual({ seq: 5, title: 'T', lines: ['x', 'b'], footer: 'G' });
    expect(applyRender(undefined, { type: 'render', seq: 9, title: '', lines: ['z'], footer: '' }))
      .toEqual({ seq: 9, title: '', lines: ['z'], footer: '' });
    expect(held.lines).toEqual(['a', 'b', 'c']);
  });

  it('refuses a delta on another base, on nothing, or one that leaves rows unknown', () => {
    expect(applyRender(held, { type: 'render', seq: 5, base: 3, length: 3, changed: [] })).toBeUndefined();
    expect(applyRender(undefined, { type: 'render', seq: 5, base: 4, length: 0, changed: [] })).toBeUndefined();
    expect(applyRender(held, { type: 'render', seq: 5, base: 4, length: 5, changed: [[4, 'e'], [0, 'a']] })).toBeUndefined();
    expect(applyRender(held, { type: 'render', seq: 5, base: 4, length: 1_000_000_000, changed: [] })).toBeUndefined();
  });

  it('any sequence of frames, sent as deltas, is held exactly', () => {
    const frames = fc.array(fc.record({ title: fc.string({ maxLength: 3 }), footer: fc.string({ maxLength: 3 }), lines: fc.array(fc.constantFrom('', 'a', 'b', '▸ c'), { maxLength: 12 }) }), { minLength: 1, maxLength: 20 });
    fc.assert(fc.property(frames, (fs) => {
      let sent: { seq: number; frame: ReturnType<typeof frame> } | undefined;
      let webview: HeldFrame | undefined;
      fs.forEach((f, i) => {
        const m = renderMessage(i + 1, sent, f);
        expect(isRender(JSON.parse(JSON.stringify(m)))).toBe(true);
        webview = applyRender(webview, m);
        sent = { seq: i + 1, frame: f };
        expect(webview).toEqual({ seq: i + 1, ...f });
      });
    }));
  });
});

describe('isRender', () => {
  it('accepts whole frames and deltas', () => {
    for (const m of [
      { type: 'render', seq: 0, title: '', lines: [], footer: '' },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [[1, 'x']] },
      { type: 'render', seq: 2, base: 1, length: 0, changed: [], title: 't', footer: 'f' },
    ]) expect(isRender(m), JSON.stringify(m)).toBe(true);
  });

  it('rejects anything else', () => {
    for (const m of [
      null,
      'render',
      { type: 'render', seq: 1, title: '', lines: [1], footer: '' },
      { type: 'render', seq: 1, lines: [], footer: '' },
      { type: 'render', seq: -1, title: '', lines: [], footer: '' },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [[2, 'x']] },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [[0.5, 'x']] },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [[0, 1]] },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [[0, 'x', 'y']] },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [], lines: ['a'] },
      { type: 'render', seq: 2, base: 1, length: 2, changed: [], title: 3 },
      { type: 'render', seq: 2, base: 1, changed: [] },
      { type: 'render', seq: 2, base: 1, length: 2 },
    ]) expect(isRender(m), JSON.stringify(m)).toBe(false);
  });
});
