import { describe, expect, it } from 'vitest';
import { PANEL_KEYS } from '../../src/protocol/frames';
import { isSelectedLine, isTabFocusToggle, mapPanelKey, planPaint, rowSpeech } from '../../src/ui-model/panelKeys';

describe('mapPanelKey', () => {
  it('maps DOM key names to the spec names', () => {
    const cases: [string, string][] = [
      ['ArrowUp', 'up'], ['ArrowDown', 'down'], ['ArrowLeft', 'left'], ['ArrowRight', 'right'],
      ['Enter', 'enter'], ['Escape', 'esc'], ['Tab', 'tab'], ['PageUp', 'pageup'], ['PageDown', 'pagedown'],
      ['Home', 'home'], ['End', 'end'], ['Backspace', 'backspace'], ['Delete', 'delete'],
    ];
    for (const [dom, spec] of cases) expect(mapPanelKey({ key: dom })).toEqual({ key: spec });
    // Every spec name except rune is reachable from a named key.
    const named = new Set(cases.map(([, s]) => s));
    expect(PANEL_KEYS.filter((k) => !named.has(k))).toEqual(['rune']);
  });

  it('turns printable characters into rune + text', () => {
    expect(mapPanelKey({ key: 'x' })).toEqual({ key: 'rune', text: 'x' });
    expect(mapPanelKey({ key: 'X' })).toEqual({ key: 'rune', text: 'X' });
    expect(mapPanelKey({ key: ' ' })).toEqual({ key: 'rune', text: ' ' });
    expect(mapPanelKey({ key: 'é' })).toEqual({ key: 'rune', text: 'é' });
    expect(mapPanelKey({ key: '😀' })).toEqual({ key: 'rune', text: '😀' });
    // AltGr (Ctrl+Alt) still types a character.
    expect(mapPanelKey({ key: '@', ctrlKey: true, altKey: true })).toEqual({ key: 'rune', text: '@' });
  });

  it('leaves shortcuts, composition and non-character keys to VS Code', () => {
    expect(mapPanelKey({ key: 'c', ctrlKey: true })).toBeUndefined();
    expect(mapPanelKey({ key: 'p', metaKey: true })).toBeUndefined();
    expect(mapPanelKey({ key: 'a', isComposing: true })).toBeUndefined();
    for (const key of ['Shift', 'Control', 'Dead', 'F5', 'Unidentified', '\u0007', '\u007f']) {
      expect(mapPanelKey({ key })).toBeUndefined();
    }
  });
});

describe('isSelectedLine', () => {
  it('recognises the selected-row markers', () => {
    expect(isSelectedLine('▸ ship panel api')).toBe(true);
    expect(isSelectedLine('● ship panel api')).toBe(true);
    expect(isSelectedLine('\u200bship panel api')).toBe(true);
    expect(isSelectedLine('  ship panel api')).toBe(false);
    expect(isSelectedLine('□ ship panel api')).toBe(false);
    expect(isSelectedLine('▸ship')).toBe(false);
  });
});

describe('rowSpeech', () => {
  it('reads a row without its selection marker or padding', () => {
    expect(rowSpeech('▸ □ Try the todo panel keys')).toBe('□ Try the todo panel keys');
    expect(rowSpeech('● done')).toBe('done');
    expect(rowSpeech('\u200bzero width')).toBe('zero width');
    expect(rowSpeech('  □ not selected  ')).toBe('□ not selected');
    expect(rowSpeech('   ')).toBe('');
  });
});

describe('isTabFocusToggle', () => {
  it('is Ctrl+M only (either case), never with other modifiers', () => {
    expect(isTabFocusToggle({ key: 'm', ctrlKey: true })).toBe(true);
    expect(isTabFocusToggle({ key: 'M', ctrlKey: true })).toBe(true);
    expect(isTabFocusToggle({ key: 'm' })).toBe(false);
    expect(isTabFocusToggle({ key: 'm', ctrlKey: true, altKey: true })).toBe(false);
    expect(isTabFocusToggle({ key: 'm', ctrlKey: true, shiftKey: true })).toBe(false);
    expect(isTabFocusToggle({ key: 'm', metaKey: true })).toBe(false);
    expect(isTabFocusToggle({ key: 'n', ctrlKey: true })).toBe(false);
    // The panel never gets Ctrl+M as a key of its own.
    expect(mapPanelKey({ key: 'm', ctrlKey: true })).toBeUndefined();
  });
});

describe('planPaint', () => {
  const lines = (sel: number, n = 200) => Array.from({ length: n }, (_, i) => `${i === sel ? '▸ ' : '  '}item ${i}`);

  it('a selection move in a 200-line panel touches the two rows that differ', () => {
    expect(planPaint(lines(4), lines(5))).toEqual({ changed: [4, 5], selected: 5 });
  });

  it('the same frame again changes nothing', () => {
    expect(planPaint(lines(7), lines(7))).toEqual({ changed: [], selected: 7 });
  });

  it('a first paint, or new rows, writes every new row; no marked row is -1', () => {
    expect(planPaint([], ['a', '▸ b'])).toEqual({ changed: [0, 1], selected: 1 });
    expect(planPaint(['a'], ['a', 'b', 'c'])).toEqual({ changed: [1, 2], selected: -1 });
  });

  it('the first marked row is the selected one', () => {
    expect(planPaint([], ['● a', '▸ b']).selected).toBe(0);
  });
});
