/** The Problems panel's decisions (src/host/disk/problems.ts): which problems, on which manifest, where, naming the log. */
import { describe, expect, it } from 'vitest';
import { manifestProblems, problemRange } from '../../src/host/disk/problems';
import type { ExtensionInfo } from '../../src/host/types';
import { extensionInfo } from '../helpers/extensionInfo';

const info = (over: Partial<ExtensionInfo>): ExtensionInfo => extensionInfo(over);

describe('manifestProblems', () => {
  it('a clean extension has none (so its entries are cleared); errors and diagnostics name the log', () => {
    expect(manifestProblems([info({})]).size).toBe(0);
    const p = manifestProblems([
      info({ state: 'error', error: 'manifest: exec is required' }),
      info({ name: 'y', manifestPath: '/y/extension.json', logPath: '/z/logs/ext-y.log', diagnostics: ['register_tool: reserved name "bash"'] }),
      info({ name: 'c', manifestPath: '/c/extension.json', state: 'crashed', error: 'crashed (stderr log: /z/logs/ext-c.log)', logPath: '/z/logs/ext-c.log' }),
    ]);
    expect(p.get('/w/.zut/extensions/x/extension.json')).toEqual([
      { severity: 'error', message: 'manifest: exec is required (log: /z/logs/ext-x.log)', field: 'exec' },
    ]);
    expect(p.get('/y/extension.json')).toEqual([{ severity: 'warning', message: 'register_tool: reserved name "bash" (log: /z/logs/ext-y.log)' }]);
    // The log is not repeated when the message already names it.
    expect(p.get('/c/extension.json')![0]!.message).toBe('crashed (stderr log: /z/logs/ext-c.log)');
  });

  it('shadowed copies report nothing; a stale error on a running extension is not a problem', () => {
    expect(manifestProblems([info({ state: 'shadowed', diagnostics: ['d'] }), info({ state: 'running', error: 'old' })]).size).toBe(0);
  });

  it('places problems: a JSON syntax error at its position, a named field at its key, else line 1', () => {
    const text = '{\n  "name": "x",\n  "exec": 42\n}\n';
    const [fieldP] = manifestProblems([info({ state: 'error', error: 'parse manifest: /x/extension.json: field "exec": expected string, got number' })]).get(
      '/w/.zut/extensions/x/extension.json',
    )!;
    expect(fieldP!.field).toBe('exec');
    expect(problemRange(text, fieldP!)).toEqual({ line: 2, character: 2, endLine: 2, endCharacter: 8 });
    // JSON.parse errors that give a position (`… in JSON at position 28`) are placed there; VS Code's own JSON
    // validation marks the exact spot of the others, and ours goes on line 1.
    const broken = '{\n  "name": "x",\n  "exec": \n}';
    const withPos = 'parse manifest: /x/extension.json: Unexpected token \'}\' in JSON at position 28';
    const [syntax] = manifestProblems([info({ state: 'error', error: withPos })]).get('/w/.zut/extensions/x/extension.json')!;
    expect(syntax!.offset).toBe(28);
    expect(problemRange(broken, syntax!)).toEqual({ line: 3, character: 0, endLine: 3, endCharacter: 1 });
    expect(problemRange('{"a":1}', { severity: 'error', message: 'spawn failed' })).toEqual({ line: 0, character: 0, endLine: 0, endCharacter: 7 });
  });
});
