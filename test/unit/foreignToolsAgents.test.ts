/** The foreign-tool table's Copilot CLI and Claude Code rows (src/host/calls/foreignTools/copilotCli.ts, claude.ts): to zut's tools and back. */
import { describe, expect, it } from 'vitest';
import type { ForeignSource } from '../../src/host/calls/foreignTools';
import { single } from '../helpers/foreignCall';

const call = (source: ForeignSource, name: string, input: Record<string, unknown>) => single(source, name, input);

describe('foreign tools: Copilot CLI → zut and back', () => {
  it('bash and powershell → bash {command, timeout (seconds)}; a rewrite keeps description, sessionId, async', () => {
    for (const name of ['bash', 'powershell']) {
      const input = { command: 'ls', description: 'list', sessionId: 's1', async: false, timeout: 90 };
      const c = call('copilot-cli', name, input);
      expect(c).toMatchObject({ name: 'bash', args: { command: 'ls', timeout: 90 }, mapped: true });
      expect(c.back(structuredClone(c.args))).toEqual({ input });
      expect(c.back({ command: 'echo safe', timeout: 30 })).toEqual({ input: { ...input, command: 'echo safe', timeout: 30 } });
      expect(c.back({ command: 'ls' })).toEqual({ input: { command: 'ls', description: 'list', sessionId: 's1', async: false } });
      expect(c.back({ command: 'ls', cwd: '/' })).toEqual({ error: `bash.cwd has no counterpart in ${name}` });
    }
  });

  it('view → read {path, offset, limit} from view_range [start, end] (end -1 = to the end), and back', () => {
    expect(call('copilot-cli', 'view', { path: '/a', view_range: [10, 19] }).args).toEqual({ path: '/a', offset: 10, limit: 10 });
    expect(call('copilot-cli', 'view', { path: '/a', view_range: [5, -1] }).args).toEqual({ path: '/a', offset: 5 });
    const c = call('copilot-cli', 'view', { path: '/a', view_range: [1, 100], extra: 1 });
    expect(c.back({ path: '/b', offset: 3, limit: 2 })).toEqual({ input: { path: '/b', view_range: [3, 4], extra: 1 } });
    expect(c.back({ path: '/a', offset: 7 })).toEqual({ input: { path: '/a', view_range: [7, -1], extra: 1 } });
    expect(c.back({ path: '/a' })).toEqual({ input: { path: '/a', extra: 1 } });
    expect(c.back({ path: '/a', offset: 0, limit: 2 })).toMatchObject({ error: expect.stringMatching(/positive integers/) });
  });

  it('create → write {path, content} (no file_text = empty), edit → edit {path, edits} (no new_str = deletion)', () => {
    const create = call('copilot-cli', 'create', { path: '/n', file_text: 'hi' });
    expect(create.args).toEqual({ path: '/n', content: 'hi' });
    expect(create.back({ path: '/m', content: 'bye' })).toEqual({ input: { path: '/m', file_text: 'bye' } });
    expect(call('copilot-cli', 'create', { path: '/empty' }).args).toEqual({ path: '/empty', content: '' });
    const edit = call('copilot-cli', 'edit', { path: '/a', old_str: 'x', new_str: 'y' });
    expect(edit.args).toEqual({ path: '/a', edits: [{ oldText: 'x', newText: 'y' }] });
    expect(edit.back({ path: '/a', edits: [{ oldText: 'x', newText: 'z' }] })).toEqual({ input: { path: '/a', old_str: 'x', new_str: 'z' } });
    expect(edit.back({ path: '/a', edits: [{ oldText: 'x', newText: 'y' }, { oldText: 'p', newText: 'q' }] })).toMatchObject({ error: expect.stringMatching(/exactly one edit/) });
    expect(call('copilot-cli', 'edit', { path: '/a', old_str: 'gone' }).args).toEqual({ path: '/a', edits: [{ oldText: 'gone', newText: '' }] });
  });

  it('grep → grep {pattern, glob, limit} (head_limit); literal: true cannot be expressed; web_fetch → web_open {url}', () => {
    const grep = call('copilot-cli', 'grep', { pattern: 'foo', path: 'src', glob: '*.ts', output_mode: 'content', head_limit: 5, '-i': true });
    expect(grep.args).toEqual({ pattern: 'foo', glob: '*.ts', limit: 5 });
    expect(grep.back({ pattern: 'bar', glob: '*.ts', limit: 5, literal: false })).toEqual({ input: { pattern: 'bar', path: 'src', glob: '*.ts', output_mode: 'content', head_limit: 5, '-i': true } });
    expect(grep.back({ pattern: 'foo', literal: true })).toEqual({ error: 'grep.literal has no counterpart in grep (its pattern is a regular expression)' });
    const web = call('copilot-cli', 'web_fetch', { url: 'https://a.test', max_length: 100 });
    expect(web.args).toEqual({ url: 'https://a.test' });
    expect(web.back({ url: 'https://b.test' })).toEqual({ input: { url: 'https://b.test', max_length: 100 } });
  });

  it('glob and task pass under their own names', () => {
    expect(call('copilot-cli', 'glob', { pattern: '**/*.ts' })).toMatchObject({ name: 'glob', mapped: false });
    expect(call('copilot-cli', 'task', { prompt: 'x' })).toMatchObject({ name: 'task', mapped: false });
  });
});

describe('foreign tools: Claude Code → zut and back', () => {
  it('Bash → bash (timeout milliseconds ↔ seconds), description and run_in_background kept', () => {
    const input = { command: 'rm -rf /', timeout: 120000, description: 'd', run_in_background: false };
    const c = call('claude', 'Bash', input);
    expect(c).toMatchObject({ name: 'bash', args: { command: 'rm -rf /', timeout: 120 }, mapped: true });
    expect(c.back(structuredClone(c.args))).toEqual({ input });
    expect(c.back({ command: 'ls', timeout: 5 })).toEqual({ input: { ...input, command: 'ls', timeout: 5000 } });
  });

  it('Read → read {path, offset, limit}; Write → write {path, content}', () => {
    const read = call('claude', 'Read', { file_path: '/a', offset: 10, limit: 20, pages: '1' });
    expect(read.args).toEqual({ path: '/a', offset: 10, limit: 20 });
    expect(read.back({ path: '/b', offset: 1 })).toEqual({ input: { file_path: '/b', offset: 1, pages: '1' } });
    expect(read.back({ path: '/b', offset: -1 })).toEqual({ error: 'read.offset must be a positive integer' });
    const write = call('claude', 'Write', { file_path: '/w', content: 'c' });
    expect(write.args).toEqual({ path: '/w', content: 'c' });
    expect(write.back({ path: '/w2', content: 'd' })).toEqual({ input: { file_path: '/w2', content: 'd' } });
    expect(write.back({ path: '/w2' })).toEqual({ error: 'write.content cannot be removed' });
  });

  it('Edit → edit {path, edits: [one]}; replace_all kept, but the texts of a replace_all edit cannot be rewritten', () => {
    const edit = call('claude', 'Edit', { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: false });
    expect(edit.args).toEqual({ path: '/a', edits: [{ oldText: 'x', newText: 'y' }] });
    expect(edit.back({ path: '/b', edits: [{ oldText: 'x', newText: 'z' }] })).toEqual({ input: { file_path: '/b', old_string: 'x', new_string: 'z', replace_all: false } });
    const all = call('claude', 'Edit', { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true });
    expect(all.back({ path: '/b', edits: [{ oldText: 'x', newText: 'y' }] })).toEqual({ input: { file_path: '/b', old_string: 'x', new_string: 'y', replace_all: true } });
    expect(all.back({ path: '/a', edits: [{ oldText: 'x', newText: 'z' }] })).toEqual({ error: 'edit.edits of a replace_all Edit cannot be rewritten' });
  });

  it('MultiEdit → edit {path, edits}; edits may be added when they carry nothing else', () => {
    const input = { file_path: '/a', edits: [{ old_string: '1', new_string: '2' }, { old_string: '3', new_string: '4' }] };
    const c = call('claude', 'MultiEdit', input);
    expect(c.args).toEqual({ path: '/a', edits: [{ oldText: '1', newText: '2' }, { oldText: '3', newText: '4' }] });
    expect(c.back(structuredClone(c.args))).toEqual({ input });
    expect(c.back({ path: '/a', edits: [{ oldText: '1', newText: '9' }] })).toEqual({ input: { file_path: '/a', edits: [{ old_string: '1', new_string: '9' }] } });
    const withAll = call('claude', 'MultiEdit', { file_path: '/a', edits: [{ old_string: '1', new_string: '2', replace_all: true }] });
    expect(withAll.back({ path: '/a', edits: [{ oldText: '1', newText: '3' }] })).toMatchObject({ error: expect.stringMatching(/replace_all cannot be rewritten/) });
    expect(call('claude', 'MultiEdit', { file_path: '/a', edits: [] })).toMatchObject({ name: 'MultiEdit', mapped: false });
  });

  it('Grep → grep; WebFetch → web_open {url} (prompt kept); Glob and WebSearch pass as they are', () => {
    const grep = call('claude', 'Grep', { pattern: 'p', glob: '*.md', head_limit: 3, output_mode: 'files_with_matches' });
    expect(grep.args).toEqual({ pattern: 'p', glob: '*.md', limit: 3 });
    expect(grep.back({ pattern: 'q', limit: 3 })).toEqual({ input: { pattern: 'q', head_limit: 3, output_mode: 'files_with_matches' } });
    const web = call('claude', 'WebFetch', { url: 'https://a.test', prompt: 'summarise' });
    expect(web.args).toEqual({ url: 'https://a.test' });
    expect(web.back({ url: 'https://b.test' })).toEqual({ input: { url: 'https://b.test', prompt: 'summarise' } });
    expect(call('claude', 'Glob', { pattern: '*' })).toMatchObject({ name: 'Glob', mapped: false });
    expect(call('claude', 'WebSearch', { query: 'q' })).toMatchObject({ name: 'WebSearch', mapped: false });
    // Names are exact: Claude Code's `bash` is not its `Bash`.
    expect(call('claude', 'bash', { command: 'ls' })).toMatchObject({ name: 'bash', mapped: false });
  });
});
