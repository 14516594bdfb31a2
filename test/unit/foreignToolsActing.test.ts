/**
 * The tools that run commands or write files, as guards see them (src/host/calls/foreignTools/): each of VS Code's,
 * Copilot CLI's and Claude Code's acting tools is shown as zut's `bash`/`write`/`edit` (a patch or a multi-file edit:
 * one view per file), or under its own name with its `effect`. Inputs are the tools' own (names and shapes from their
 * schemas: see each row).
 */
import { describe, expect, it } from 'vitest';
import { foreignCall, type ForeignSource } from '../../src/host/calls/foreignTools';
import { parsePatch } from '../../src/host/calls/foreignTools/applyPatch';

const viewsOf = (source: ForeignSource, name: string, input: unknown) => foreignCall(source, name, input).views.map((v) => ({ name: v.name, args: v.args, effect: v.effect }));

const PATCH = [
  '*** Begin Patch',
  '*** Add File: /w/new.txt',
  '+hello',
  '+world',
  '*** Update File: /w/a.ts',
  '@@ function f() {',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '@@',
  '-old',
  '+new',
  '*** Delete File: /w/gone.txt',
  '*** Update File: /w/from.ts',
  '*** Move to: /w/to.ts',
  '@@',
  '-x',
  '+y',
  '*** End Patch',
].join('\n');

describe('the acting tools guards never saw before (issue 33): mapped onto bash / write / edit', () => {
  it('VS Code: send_to_terminal and create_and_run_task are bash commands (a task\'s command line: command + args)', () => {
    expect(viewsOf('vscode', 'send_to_terminal', { id: '8a0e…', command: 'rm -rf ~', waitForOutput: true })).toEqual([{ name: 'bash', args: { command: 'rm -rf ~' }, effect: 'exec' }]);
    const task = { workspaceFolder: '/w', task: { label: 'x', type: 'shell', command: 'rm', args: ['-rf', '~'], isBackground: false } };
    expect(viewsOf('vscode', 'create_and_run_task', task)).toEqual([{ name: 'bash', args: { command: 'rm -rf ~' }, effect: 'exec' }]);
    // A rewrite becomes the task's whole command line (args dropped), everything else kept.
    expect(foreignCall('vscode', 'create_and_run_task', task).back([{ command: 'echo safe' }])).toEqual({ input: { workspaceFolder: '/w', task: { label: 'x', type: 'shell', command: 'echo safe', isBackground: false } } });
  });

  it('VS Code: insert_edit_into_file is a write of its code; multi_replace_string_in_file is one edit per file, mapped back per file', () => {
    expect(viewsOf('vscode', 'insert_edit_into_file', { filePath: '/w/.env', code: 'X=1', explanation: 'e' })).toEqual([{ name: 'write', args: { path: '/w/.env', content: 'X=1' }, effect: 'write' }]);
    const input = {
      explanation: 'e',
      replacements: [
        { filePath: '/w/a', oldString: '1', newString: '2' },
        { filePath: '/w/b', oldString: '3', newString: '4' },
        { filePath: '/w/a', oldString: '5', newString: '6' },
      ],
    };
    const c = foreignCall('vscode', 'multi_replace_string_in_file', input);
    expect(c.views.map((v) => v.args)).toEqual([
      { path: '/w/a', edits: [{ oldText: '1', newText: '2' }, { oldText: '5', newText: '6' }] },
      { path: '/w/b', edits: [{ oldText: '3', newText: '4' }] },
    ]);
    const back = c.back([c.views[0].args, { path: '/w/c', edits: [{ oldText: '3', newText: 'X' }] }]);
    expect(back).toEqual({ input: { explanation: 'e', replacements: [input.replacements[0], { filePath: '/w/c', oldString: '3', newString: 'X' }, input.replacements[2]] } });
    expect(c.back([{ path: '/w/a', edits: [{ oldText: '1', newText: '2' }] }, c.views[1].args])).toMatchObject({ error: expect.stringMatching(/keeps its 2 replacement/) });
  });

  it('VS Code: fetch_webpage with several URLs is one web_open per URL', () => {
    const c = foreignCall('vscode', 'fetch_webpage', { urls: ['https://a.test', 'https://b.test'], query: 'q' });
    expect(c.views.map((v) => v.args)).toEqual([{ url: 'https://a.test' }, { url: 'https://b.test' }]);
    expect(c.back([{ url: 'https://a.test' }, { url: 'https://safe.test' }])).toEqual({ input: { urls: ['https://a.test', 'https://safe.test'], query: 'q' } });
  });

  it('apply_patch (VS Code {input}, Copilot CLI freeform) is one view per file: write, edit, and the delete and move under its own name', () => {
    const expected = [
      { name: 'write', args: { path: '/w/new.txt', content: 'hello\nworld' }, effect: 'write' },
      { name: 'edit', args: { path: '/w/a.ts', edits: [{ oldText: 'const a = 1;\nconst b = 2;', newText: 'const a = 1;\nconst b = 3;' }, { oldText: 'old', newText: 'new' }] }, effect: 'write' },
      { name: 'apply_patch', args: { operation: 'delete', path: '/w/gone.txt' }, effect: 'write' },
      { name: 'edit', args: { path: '/w/from.ts', edits: [{ oldText: 'x', newText: 'y' }] }, effect: 'write' },
      { name: 'apply_patch', args: { operation: 'move', path: '/w/from.ts', move_to: '/w/to.ts' }, effect: 'write' },
    ];
    expect(viewsOf('vscode', 'apply_patch', { input: PATCH, explanation: 'e' })).toEqual(expected);
    expect(viewsOf('copilot-cli', 'apply_patch', { input: PATCH })).toEqual(expected);
    expect(viewsOf('copilot-cli', 'apply_patch', { patch: PATCH })).toEqual(expected);
    // A rewrite of a patch cannot be applied; the untouched views give the patch back as it was.
    const c = foreignCall('vscode', 'apply_patch', { input: PATCH, explanation: 'e' });
    expect(c.back(c.views.map((v) => v.args))).toEqual({ input: { input: PATCH, explanation: 'e' } });
    expect(c.back(c.views.map((v, i) => (i === 0 ? { ...v.args, path: '/w/other' } : v.args)))).toMatchObject({ error: expect.stringMatching(/rewrite of a patch cannot be applied/) });
    // What is no patch is unfit (the guard door blocks it when a guard listens).
    expect(foreignCall('vscode', 'apply_patch', { input: 'rm -rf /' })).toMatchObject({ mapped: false, unfit: true });
  });

  it('the patch reader takes what both parsers take (first section without @@, context without its space, no end marker) and refuses the rest', () => {
    expect(parsePatch('*** Begin Patch\n*** Update File: /a\n x\n-y\n+z\n*** End Patch')).toEqual([{ op: 'update', path: '/a', edits: [{ oldText: 'x\ny', newText: 'x\nz' }] }]);
    expect(parsePatch('*** Begin Patch\n*** Update File: /a\n@@\nctx\n-y\n+z')).toEqual([{ op: 'update', path: '/a', edits: [{ oldText: 'ctx\ny', newText: 'ctx\nz' }] }]);
    expect(parsePatch('*** Begin Patch\r\n*** Add File: /a\r\n+x\r\n*** End Patch\r\n')).toEqual([{ op: 'add', path: '/a', content: 'x' }]);
    for (const bad of ['', 'not a patch', '*** Begin Patch\n*** End Patch', '*** Begin Patch\n*** Add File: /a\nno plus\n*** End Patch', '*** Begin Patch\n*** Frobnicate: /a\n*** End Patch', '*** Begin Patch\n*** Update File: /a\n*** End Patch']) {
      expect(parsePatch(bad)).toBeUndefined();
    }
  });

  it('Copilot CLI: write_bash/write_powershell are bash commands (their input); str_replace_editor by command; str_replace an edit', () => {
    for (const name of ['write_bash', 'write_powershell']) {
      const c = foreignCall('copilot-cli', name, { shellId: 's1', input: 'rm -rf /\n', delay: 2 });
      expect(c.views).toEqual([{ name: 'bash', args: { command: 'rm -rf /\n' }, effect: 'exec' }]);
      expect(c.back([{ command: 'ls\n' }])).toEqual({ input: { shellId: 's1', input: 'ls\n', delay: 2 } });
    }
    expect(viewsOf('copilot-cli', 'str_replace_editor', { command: 'view', path: '/a', view_range: [2, 3] })).toEqual([{ name: 'read', args: { path: '/a', offset: 2, limit: 2 }, effect: 'read' }]);
    expect(viewsOf('copilot-cli', 'str_replace_editor', { command: 'create', path: '/a', file_text: 'x' })).toEqual([{ name: 'write', args: { path: '/a', content: 'x' }, effect: 'write' }]);
    expect(viewsOf('copilot-cli', 'str_replace_editor', { command: 'str_replace', path: '/a', old_str: 'x', new_str: 'y' })).toEqual([
      { name: 'edit', args: { path: '/a', edits: [{ oldText: 'x', newText: 'y' }] }, effect: 'write' },
    ]);
    expect(viewsOf('copilot-cli', 'str_replace_editor', { command: 'insert', path: '/a', insert_line: 3, new_str: 'y' })).toEqual([
      { name: 'str_replace_editor', args: { command: 'insert', path: '/a', insert_line: 3, new_str: 'y' }, effect: 'write' },
    ]);
    expect(viewsOf('copilot-cli', 'str_replace', { path: '/a', old_str: 'x' })).toEqual([{ name: 'edit', args: { path: '/a', edits: [{ oldText: 'x', newText: '' }] }, effect: 'write' }]);
  });

  it('what has no zut form reaches guards under its own name with its effect: exec for runners, write for writers', () => {
    const cases: [ForeignSource, string, unknown, string][] = [
      ['vscode', 'run_task', { workspaceFolder: '/w', id: 'shell: build' }, 'exec'],
      ['vscode', 'runTests', { files: ['/w/a.test.ts'] }, 'exec'],
      ['vscode', 'run_notebook_cell', { filePath: '/w/n.ipynb', cellId: 'c1' }, 'exec'],
      ['vscode', 'run_vscode_command', { commandId: 'workbench.action.terminal.sendSequence', name: 'x', args: ['rm -rf ~\n'] }, 'exec'],
      ['vscode', 'install_extension', { id: 'evil.ext', name: 'Evil' }, 'exec'],
      ['vscode', 'edit_notebook_file', { filePath: '/w/n.ipynb', cellId: 'TOP', editType: 'insert', newCode: 'import os' }, 'write'],
      ['vscode', 'create_directory', { dirPath: '/w/new' }, 'write'],
      ['copilot-cli', 'insert', { path: '/a', insert_line: 1, new_str: 'x' }, 'write'],
      ['claude', 'NotebookEdit', { notebook_path: '/w/n.ipynb', new_source: 'x', edit_mode: 'replace' }, 'write'],
    ];
    for (const [source, name, input, effect] of cases) {
      const c = foreignCall(source, name, input);
      expect({ name, views: c.views, unfit: c.unfit }).toEqual({ name, views: [{ name, args: input, effect }], unfit: false });
    }
  });

  it("Copilot CLI's PascalCase names (Claude Code's, also in VS Code's Copilot harness) are its own tools: the one whose shape fits", () => {
    expect(viewsOf('copilot-cli', 'Edit', { path: '/a', old_str: 'x', new_str: 'y' })).toEqual([{ name: 'edit', args: { path: '/a', edits: [{ oldText: 'x', newText: 'y' }] }, effect: 'write' }]);
    expect(viewsOf('copilot-cli', 'Edit', { command: 'create', path: '/a', file_text: 'x' })).toEqual([{ name: 'write', args: { path: '/a', content: 'x' }, effect: 'write' }]);
    expect(viewsOf('copilot-cli', 'Edit', { input: PATCH }).map((v) => v.name)).toEqual(['write', 'edit', 'apply_patch', 'edit', 'apply_patch']);
    expect(viewsOf('vscode', 'Bash', { command: 'rm -rf /' })).toEqual([{ name: 'bash', args: { command: 'rm -rf /' }, effect: 'exec' }]);
    expect(viewsOf('copilot-cli', 'Write', { path: '/a', file_text: 'x' })).toEqual([{ name: 'write', args: { path: '/a', content: 'x' }, effect: 'write' }]);
    // …and Claude Code's own shapes still fit when they are what came.
    expect(viewsOf('copilot-cli', 'Edit', { file_path: '/a', old_string: 'x', new_string: 'y' })).toEqual([{ name: 'edit', args: { path: '/a', edits: [{ oldText: 'x', newText: 'y' }] }, effect: 'write' }]);
  });
});
