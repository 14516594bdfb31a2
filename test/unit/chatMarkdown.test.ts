/** Extension text in chat is data: the escaping keeps every character and leaves nothing markdown could act on. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeBlock, codeName, escapeMarkdown } from '../../src/host/chat/markdown';

const PUNCT = /[!-/:-@[-`{-~]/;

/** Reads escaped text back: `\x` → `x`, hard breaks → newlines. Fails on any unescaped punctuation. */
function unescape(md: string): string {
  let out = '';
  for (let i = 0; i < md.length; i++) {
    const c = md[i];
    if (c === '\\') {
      expect(md[i + 1]).toMatch(PUNCT);
      out += md[++i];
    } else if (md.startsWith('  \n', i)) {
      out += '\n';
      i += 2;
    } else {
      expect(c).not.toMatch(PUNCT);
      out += c;
    }
  }
  return out;
}

describe('chat markdown helpers', () => {
  it('escapes links, autolinks, HTML, emphasis and code', () => {
    const evil = '[click](command:zut.reload) https://evil.example <img src=x> **bold** `code` a@b.co $(zap)';
    const md = escapeMarkdown(evil);
    expect(md.startsWith('\\[click\\]\\(command\\:zut\\.reload\\) https\\:\\/\\/evil\\.example \\<img')).toBe(true);
    expect(unescape(md)).toBe(evil);
  });

  it('round-trips any text (nothing lost, nothing left unescaped)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(unescape(escapeMarkdown(s))).toBe(s.replace(/\r\n?/g, '\n'));
      }),
    );
  });

  it('fences code blocks longer than any backtick run inside', () => {
    expect(codeBlock('a ``` b')).toBe('````text\na ``` b\n````\n');
    expect(codeBlock('plain')).toBe('```text\nplain\n```\n');
    expect(codeName('we`ird\nname')).toBe('weirdname');
    expect(codeName('')).toBe('?');
  });
});
