/** The foreign-tool table (src/host/calls/foreignTools/): VS Code's tools as zut's, both ways. */
import { describe, expect, it } from 'vitest';
import { FOREIGN_ROWS, foreignCall, fromZutArgs, mappingOf, toZutArgs } from '../../src/host/calls/foreignTools';
import { single } from '../helpers/foreignCall';

const vs = (name: string) => {
  const m = mappingOf('vscode', name);
  if (!m) throw new Error(`no row for ${name}`);
  return m;
};
const terminal = { command: 'ls -la', explanation: 'list', goal: 'look', mode: 'sync', isBackground: false, futureField: { x: 1 } };

describe('foreign tools: VS Code → zut', () => {
  it('maps each counterpart to zut name and argument shape', () => {
    expect(single('vscode', 'run_in_terminal', terminal)).toMatchObject({ name: 'bash', args: { command: 'ls -la' }, foreign: 'run_in_terminal', mapped: true });
    expect(toZutArgs(vs('run_in_terminal'), { ...terminal, timeout: 1500 })).toEqual({ command: 'ls -la', timeout: 2 });
    expect(toZutArgs(vs('read_file'), { filePath: '/a.ts', startLine: 10, endLine: 19 })).toEqual({ path: '/a.ts', offset: 10, limit: 10 });
    expect(toZutArgs(vs('read_file'), { filePath: '/a.ts', offset: 3, limit: 4 })).toEqual({ path: '/a.ts', offset: 3, limit: 4 });
    expect(toZutArgs(vs('create_file'), { filePath: '/n.txt', content: 'hi' })).toEqual({ path: '/n.txt', content: 'hi' });
    expect(toZutArgs(vs('replace_string_in_file'), { filePath: '/a', oldString: 'x', newString: 'y', explanation: 'e' })).toEqual({
      path: '/a',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
    const multi = { explanation: 'e', replacements: [{ filePath: '/a', oldString: '1', newString: '2', explanation: 'a' }, { filePath: '/a', oldString: '3', newString: '4', explanation: 'b' }] };
    expect(single('vscode', 'multi_replace_string_in_file', multi).args).toEqual({ path: '/a', edits: [{ oldText: '1', newText: '2' }, { oldText: '3', newText: '4' }] });
    expect(toZutArgs(vs('grep_search'), { query: 'foo', isRegexp: false, includePattern: '**/*.ts', maxResults: 5 })).toEqual({ pattern: 'foo', literal: true, glob: '**/*.ts', limit: 5 });
    expect(single('vscode', 'fetch_webpage', { urls: ['https://x.test'], query: 'q' }).args).toEqual({ url: 'https://x.test' });
  });

  it('inputs without a zut form pass under their own name and shape, with what the tool does (unknown tools: nothing)', () => {
    expect(single('vscode', 'runTests', { files: [] })).toMatchObject({ name: 'runTests', args: { files: [] }, foreign: 'runTests', mapped: false, effect: 'exec' });
    expect(single('vscode', 'some_extension_tool', { a: 1 })).toEqual(expect.objectContaining({ name: 'some_extension_tool', mapped: false, effect: undefined }));
    // A tool the table shows as zut's, with an input of another shape: unfit (the guard door blocks it).
    expect(foreignCall('vscode', 'run_in_terminal', { explanation: 'no command' })).toMatchObject({ mapped: false, unfit: true });
    expect(foreignCall('vscode', 'runTests', {})).toMatchObject({ mapped: false, unfit: false });
    // Names are exact: VS Code's tool names are case-sensitive.
    expect(mappingOf('vscode', 'RUN_IN_TERMINAL')).toBeUndefined();
  });

  it('the table has one row per (source, foreign name)', () => {
    const keys = FOREIGN_ROWS.map((m) => `${m.source}/${m.foreign}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('foreign tools: a guard’s modified_args back onto the original input', () => {
  it('round trip: unchanged args give back the original exactly, unknown fields kept', () => {
    const call = single('vscode', 'run_in_terminal', { ...terminal, timeout: 1500 });
    expect(call.back(call.args)).toEqual({ input: { ...terminal, timeout: 1500 } });
    for (const [name, input] of [
      ['read_file', { filePath: '/a', startLine: 2, endLine: 2, extra: true }],
      ['replace_string_in_file', { filePath: '/a', oldString: 'x', newString: 'y', explanation: 'e' }],
      ['grep_search', { query: 'q', isRegexp: true }],
    ] as const) {
      const c = single('vscode', name, input);
      expect(c.back(structuredClone(c.args))).toEqual({ input });
    }
  });

  it('a rewrite replaces the mapped fields and keeps the rest', () => {
    const call = single('vscode', 'run_in_terminal', terminal);
    expect(call.back({ command: 'echo GUARDED: ls', timeout: 30 })).toEqual({ input: { ...terminal, command: 'echo GUARDED: ls', timeout: 30000 } });
    const read = single('vscode', 'read_file', { filePath: '/a', startLine: 1, endLine: 100 });
    expect(read.back({ path: '/b', offset: 5, limit: 10 })).toEqual({ input: { filePath: '/b', startLine: 5, endLine: 14 } });
    const edit = single('vscode', 'replace_string_in_file', { filePath: '/a', oldString: 'x', newString: 'y', explanation: 'e' });
    expect(edit.back({ path: '/a', edits: [{ oldText: 'x', newText: 'z' }] })).toEqual({ input: { filePath: '/a', oldString: 'x', newString: 'z', explanation: 'e' } });
    const multi = single('vscode', 'multi_replace_string_in_file', { explanation: 'e', replacements: [{ filePath: '/a', oldString: '1', newString: '2', explanation: 'r' }] });
    expect(multi.back({ path: '/c', edits: [{ oldText: '1', newText: '9' }] })).toEqual({
      input: { explanation: 'e', replacements: [{ filePath: '/c', oldString: '1', newString: '9', explanation: 'r' }] },
    });
    const grep = single('vscode', 'grep_search', { query: 'a', isRegexp: true, maxResults: 3 });
    expect(grep.back({ pattern: 'b', literal: true })).toEqual({ input: { query: 'b', isRegexp: false } });
  });

  it('an unmappable change is refused with the reason (fail closed)', () => {
    const call = single('vscode', 'run_in_terminal', terminal);
    expect(call.back({ command: 'ls', cwd: '/tmp' })).toEqual({ error: 'bash.cwd has no counterpart in run_in_terminal' });
    expect(call.back({})).toEqual({ error: 'bash.command cannot be removed' });
    expect(call.back({ command: 42 })).toEqual({ error: 'bash.command must be a string' });
    expect(call.back({ command: 'ls', timeout: -1 })).toMatchObject({ error: expect.stringMatching(/timeout must be a positive integer/) });
    expect(call.back('rm')).toEqual({ error: 'modified_args must be a JSON object' });
    // Keys every object inherits are no counterpart either: refused, not dropped (JSON.parse makes them own keys).
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(call.back(JSON.parse(`{"command": "ls", "${key}": "x"}`)), key).toEqual({ error: `bash.${key} has no counterpart in run_in_terminal` });
    }
    const edit = single('vscode', 'replace_string_in_file', { filePath: '/a', oldString: 'x', newString: 'y' });
    expect(edit.back({ path: '/a', edits: [{ oldText: 'x', newText: 'y' }, { oldText: 'p', newText: 'q' }] })).toMatchObject({ error: expect.stringMatching(/exactly one edit/) });
    expect(edit.back({ path: '/a', edits: [{ oldText: 'x', newText: 'y', replaceAll: true }] })).toMatchObject({ error: expect.stringMatching(/replaceAll has no counterpart/) });
    expect(fromZutArgs(vs('read_file'), { path: '/a', offset: 1 }, { filePath: '/a', startLine: 1, endLine: 5 })).toMatchObject({ error: expect.stringMatching(/both a start and an end line/) });
  });

  it('unmapped tools take the modified args as they are (an object), or refuse a non-object', () => {
    const c = single('vscode', 'runTests', { files: ['a'] });
    expect(c.back({ files: ['b'] })).toEqual({ input: { files: ['b'] } });
    expect(c.back([1])).toEqual({ error: 'modified_args must be a JSON object' });
  });
});
