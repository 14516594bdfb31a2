/**
 * JSON edited as text (src/host/disk/jsonText.ts): what we add is formatted like its neighbours, every other byte
 * stays, and removing what was appended gives the original text back, whatever the user's layout (indent unit,
 * tabs, CRLF, one line, empty containers, a key given twice).
 */
import { describe, expect, it } from 'vitest';
import { appendItem, appendMember, memberOf, parseJsonText, removeItem, removeMember, replaceValue } from '../../src/host/disk/jsonText';

const ENTRY = { type: 'command', command: "'/x y/zut-host' hook", timeout: 30 };

const DOCS: Record<string, string> = {
  'two spaces': '{\n  "a": 1,\n  "hooks": {\n    "Pre": [\n      {"x": 1}\n    ]\n  }\n}\n',
  'four spaces, no final newline': '{\n    "hooks": {\n        "Pre": [ {"x": 1}, {"y": 2} ]\n    },\n    "z": [1,2]\n}',
  tabs: '{\n\t"hooks": {\n\t\t"Pre": [\n\t\t\t{"x": 1}\n\t\t]\n\t}\n}\n',
  crlf: '{\r\n  "hooks": {\r\n    "Pre": [\r\n      {"x": 1}\r\n    ]\r\n  }\r\n}\r\n',
  'one line': '{"hooks":{"Pre":[{"x":1}]},"note":"k"}',
  'empty containers': '{\n  "hooks": {\n    "Pre": []\n  }\n}\n',
  'a key twice': '{\n  "hooks": {"Pre": [1]},\n  "hooks": {\n    "Pre": [\n      {"x": 1}\n    ]\n  }\n}\n',
};

describe('jsonText', () => {
  for (const [name, doc] of Object.entries(DOCS)) {
    it(`${name}: append an item and a member, both parse as JSON.parse sees them, removal gives the bytes back`, () => {
      const hooks = () => memberOf(parseJsonText(doc2), 'hooks')!;
      let doc2 = appendItem(doc, memberOf(memberOf(parseJsonText(doc), 'hooks'), 'Pre')!, ENTRY);
      const parsed = JSON.parse(doc2) as { hooks: { Pre: unknown[] } };
      expect(parsed.hooks.Pre.at(-1)).toEqual(ENTRY);
      expect(parsed.hooks.Pre.slice(0, -1)).toEqual((JSON.parse(doc) as typeof parsed).hooks.Pre);
      const afterItem = doc2;
      doc2 = appendMember(doc2, hooks(), 'Post', [ENTRY]);
      expect((JSON.parse(doc2) as { hooks: { Post: unknown[] } }).hooks.Post).toEqual([ENTRY]);
      doc2 = removeMember(doc2, hooks(), 'Post');
      expect(doc2).toBe(afterItem);
      const pre = memberOf(hooks(), 'Pre')!;
      doc2 = removeItem(doc2, pre, pre.items.length - 1);
      expect(doc2).toBe(doc);
    });
  }

  it('formats what it adds like its neighbours', () => {
    const doc = DOCS['four spaces, no final newline']!;
    const out = appendMember(doc, parseJsonText(doc), 'version', { v: 1 });
    expect(out).toBe('{\n    "hooks": {\n        "Pre": [ {"x": 1}, {"y": 2} ]\n    },\n    "z": [1,2],\n    "version": {\n        "v": 1\n    }\n}');
    const one = DOCS['one line']!;
    expect(appendMember(one, parseJsonText(one), 'v', 1)).toBe('{"hooks":{"Pre":[{"x":1}]},"note":"k","v":1}');
    expect(appendMember('{\n}\n', parseJsonText('{\n}\n'), 'hooks', { A: [1] })).toBe('{\n  "hooks": {\n    "A": [\n      1\n    ]\n  }\n}\n');
  });

  it('replaces a value in place and removes the first of several items', () => {
    const doc = '{\n  "a": [ 1, 2, 3 ],\n  "b": true\n}\n';
    const root = parseJsonText(doc);
    expect(replaceValue(doc, memberOf(root, 'b')!, false)).toBe('{\n  "a": [ 1, 2, 3 ],\n  "b": false\n}\n');
    expect(removeItem(doc, memberOf(root, 'a')!, 0)).toBe('{\n  "a": [ 2, 3 ],\n  "b": true\n}\n');
    expect(removeItem(doc, memberOf(root, 'a')!, 1)).toBe('{\n  "a": [ 1, 3 ],\n  "b": true\n}\n');
    expect(removeMember(doc, root, 'a')).toBe('{\n  "b": true\n}\n');
  });

  it('reads strings with escapes and numbers as JSON.parse does', () => {
    const doc = '{"k\\"ey": "a\\\\\\"}", "n": -1.5e3, "t": [true, null]}';
    const root = parseJsonText(doc);
    expect(root.members.map((m) => m.key)).toEqual(['k"ey', 'n', 't']);
    expect(doc.slice(memberOf(root, 'n')!.start, memberOf(root, 'n')!.end)).toBe('-1.5e3');
    expect(memberOf(root, 't')!.items).toHaveLength(2);
  });
});
