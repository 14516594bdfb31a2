import { describe, expect, it } from 'vitest';
import { MODEL_TOOL_NAME, assignModelNames, isModelToolName, sanitiseToolName } from '../../src/host/calls/toolNames';

describe('model-facing tool names', () => {
  it('keeps valid names as they are', () => {
    const m = assignModelNames(['weather', 'get-forecast_2', 'A'.repeat(64)]);
    expect(m.toModel('weather')).toBe('weather');
    expect(m.toModel('get-forecast_2')).toBe('get-forecast_2');
    expect(m.toModel('A'.repeat(64))).toBe('A'.repeat(64));
    expect(m.toZut('weather')).toBe('weather');
  });

  it('sanitises invalid names (spaces, punctuation, dots, 300 chars, non-ASCII) to valid, stable names', () => {
    const bad = ['my tool!', 'x'.repeat(300), 'zut.chat', 'météo', '!!!', 'a'.repeat(65)];
    const m = assignModelNames(bad);
    const seen = new Set<string>();
    for (const n of bad) {
      const model = m.toModel(n)!;
      expect(model).toMatch(MODEL_TOOL_NAME);
      expect(isModelToolName(n)).toBe(false);
      expect(m.toZut(model)).toBe(n); // the extension still receives its own name
      seen.add(model);
    }
    expect(seen.size).toBe(bad.length);
    expect(m.toModel('my tool!')).toMatch(/^my_tool_[0-9a-f]{8}$/);
    expect(m.toModel('zut.chat')).toMatch(/^zut_chat_[0-9a-f]{8}$/);
    expect(m.toModel('x'.repeat(300))).toHaveLength(64);
    expect(m.toModel('!!!')).toMatch(/^tool_[0-9a-f]{8}$/);
    // Stable: the same whatever else is registered, and in whatever order.
    expect(assignModelNames(['other', 'my tool!', 'zzz']).toModel('my tool!')).toBe(m.toModel('my tool!'));
    expect(assignModelNames([...bad].reverse()).toModel('zut.chat')).toBe(m.toModel('zut.chat'));
  });

  it('names that sanitise alike stay apart (the hash of the original name)', () => {
    const m = assignModelNames(['a b', 'a!b', 'a?b']);
    const names = ['a b', 'a!b', 'a?b'].map((n) => m.toModel(n));
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(/^a_b_[0-9a-f]{8}$/);
  });

  it('a collision with a valid or reserved name takes the longer hash, then a counter', () => {
    const clash = sanitiseToolName('my tool!');
    const m = assignModelNames(['my tool!', clash]);
    expect(m.toModel(clash)).toBe(clash); // the valid name keeps itself
    expect(m.toModel('my tool!')).toBe(sanitiseToolName('my tool!', 16));
    const r = assignModelNames(['zut.chat'], [sanitiseToolName('zut.chat'), sanitiseToolName('zut.chat', 16)]);
    expect(r.toModel('zut.chat')).toMatch(/^zut_chat_[0-9a-f]{16}_2$/);
    // A reserved (host) name is never handed to an extension tool.
    const s = assignModelNames(['skill'], ['skill']);
    expect(s.toModel('skill')).not.toBe('skill');
    expect(s.toModel('skill')).toMatch(MODEL_TOOL_NAME);
  });
});
