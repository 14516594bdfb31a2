import { describe, expect, it } from 'vitest';
import { isMultiLine, NotesModel } from '../../src/ui-model/notesModel';
import { escapeIcons, escapeNotificationLinks, statusPresentation } from '../../src/ui-model/statusModel';

describe('NotesModel', () => {
  it('lists notes per extension, newest first', () => {
    const m = new NotesModel({ now: () => 0 });
    m.add('a', 'info', 'one');
    m.add('b', 'info', 'other');
    m.add('a', 'success', 'two');
    expect(m.list('a').map((n) => n.text)).toEqual(['two', 'one']);
    expect(m.list('b').map((n) => n.text)).toEqual(['other']);
    expect(m.clear('a')).toBe(true);
    expect(m.list('a')).toEqual([]);
    expect(m.list('b')).toHaveLength(1);
    expect(m.clear('a')).toBe(false);
    expect(m.clearAll()).toEqual(['b']);
    expect(m.exts()).toEqual([]);
  });

  it('toasts warn/error at most once per extension per burst', () => {
    let t = 1000;
    const m = new NotesModel({ now: () => t, toastWindowMs: 2000 });
    expect(m.add('a', 'info', 'i').toast).toBe(false);
    expect(m.add('a', 'warn', 'w1').toast).toBe(true);
    t += 500;
    expect(m.add('a', 'error', 'e1').toast).toBe(false);
    expect(m.add('b', 'error', 'other ext').toast).toBe(true);
    // A steady stream (each within the window of the previous one) stays one burst, however long it lasts.
    for (let i = 0; i < 5; i++) {
      t += 1999;
      expect(m.add('a', 'warn', `w${i + 2}`).toast).toBe(false);
    }
    // Info notes neither toast nor extend a burst.
    t += 1000;
    expect(m.add('a', 'info', 'quiet').toast).toBe(false);
    t += 1000;
    // A quiet gap of a whole window ends the burst: the next warning is a new one.
    expect(m.add('a', 'warn', 'again').toast).toBe(true);
    // Folded notes are still listed.
    expect(m.list('a').map((n) => n.text)).toEqual(['again', 'quiet', 'w6', 'w5', 'w4', 'w3', 'w2', 'e1', 'w1', 'i']);
  });

  it('says which display texts are multi-line (shown as a document, not a notification)', () => {
    expect(isMultiLine('4 words, 19 characters, 1 line')).toBe(false);
    expect(isMultiLine('one line\n')).toBe(false);
    expect(isMultiLine('one line\r\n\n')).toBe(false);
    expect(isMultiLine('Snippets:\npy-main - x')).toBe(true);
    expect(isMultiLine('a\r\nb')).toBe(true);
  });

  it('keeps a bounded number of notes per extension', () => {
    const m = new NotesModel({ maxPerExt: 3 });
    for (let i = 0; i < 10; i++) m.add('a', 'info', String(i));
    expect(m.list('a').map((n) => n.text)).toEqual(['9', '8', '7']);
  });
});

describe('status presentation', () => {
  it('maps levels to icons and backgrounds', () => {
    expect(statusPresentation('error', 'x')).toEqual({ text: '$(error) x', background: 'statusBarItem.errorBackground' });
    expect(statusPresentation('warning', 'x')).toEqual({ text: '$(warning) x', background: 'statusBarItem.warningBackground' });
    expect(statusPresentation('warn', 'x')).toEqual({ text: '$(warning) x', background: 'statusBarItem.warningBackground' });
    expect(statusPresentation('success', 'x')).toEqual({ text: '$(check) x', background: undefined });
    expect(statusPresentation('info', 'x')).toEqual({ text: '$(info) x', background: undefined });
    expect(statusPresentation(undefined, 'x')).toEqual({ text: 'x' });
    expect(statusPresentation('shiny', 'x')).toEqual({ text: 'x' });
  });

  it('escapes codicons in extension text so VS Code shows them literally', () => {
    expect(escapeIcons('$(zap) fast $(sync~spin)')).toBe('\\$(zap) fast \\$(sync~spin)');
    expect(escapeIcons('already \\$(zap)')).toBe('already \\$(zap)');
    expect(escapeIcons('cost $(5 dollars) $x')).toBe('cost $(5 dollars) $x');
    expect(statusPresentation('success', '2/4 $(check) done').text).toBe('$(check) 2/4 \\$(check) done');
  });

  it('keeps status text on one line', () => {
    expect(statusPresentation(undefined, 'a\n  b\r\nc').text).toBe('a b c');
  });

  it('breaks notification links', () => {
    const s = escapeNotificationLinks('[click](command:workbench.action.quit) and [x](https://e.invalid)');
    expect(s).not.toMatch(/\]\(/);
    expect(s.replace(/\u200b/g, '')).toBe('[click](command:workbench.action.quit) and [x](https://e.invalid)');
  });
});
