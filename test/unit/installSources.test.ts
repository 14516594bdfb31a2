/** The pieces of `zut-host ext` that need no CLI: git URL recognition, the plan text, the trash fallback. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planCommand, planDetail, planText, shadowWarning } from '../../src/host/disk/installPlan';
import { isGitUrl } from '../../src/host/disk/installSources';
import { moveToTrash } from '../../src/host/disk/trash';
import { INSTALL_PLAN_MAX_FILES } from '../../src/protocol/limits';
import { cleanupTemps, tempDir } from '../helpers/temp';

describe('isGitUrl', () => {
  it('knows URLs git accepts from folders', () => {
    for (const u of ['https://github.com/a/b.git', 'file:///srv/x.git', 'ssh://git@host/x', 'git://h/x', 'git@github.com:a/b.git', 'host:repo']) expect(isGitUrl(u), u).toBe(true);
    for (const p of ['./ext', 'ext', '/abs/ext', 'C:\\ext', 'c:/ext', 'a/b:c', '']) expect(isGitUrl(p), p).toBe(false);
  });
});

describe('planText', () => {
  it('names what runs, sanitizes what the extension supplied, and bounds the file list', () => {
    const files = Array.from({ length: INSTALL_PLAN_MAX_FILES + 5 }, (_, i) => ({ path: `f${String(i).padStart(3, '0')}\u001b[2J`, bytes: 2048, executable: i === 0 }));
    const text = planText({
      source: 'https://x/y.git',
      dest: '/h/extensions/evil',
      manifest: { name: 'evil\u001b]0;t\u0007', exec: 'python3', args: ['main.py', 'two words'], skills: [], enabled: true, description: 'line\nbreak' },
      files,
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    const lines = text.split('\n');
    expect(lines[0]).toBe('evil\\x1b]0;t\\x07');
    expect(lines[1]).toBe('  description: line break');
    expect(lines[4]).toBe('  runs:  python3 main.py "two words"   (python3 found on PATH)');
    expect(lines[5]).toBe(`  files: ${files.length} (${((files.length * 2048) / 1024).toFixed(1)} KiB)`);
    expect(lines[6]).toBe('    x f000\\x1b[2J  2.0 KiB');
    expect(lines.at(-2)).toBe('    … and 5 more');
    expect(planText({ source: 's', dest: 'd', manifest: { name: 't', args: [], skills: [], enabled: true }, files: [] })).toContain('  runs:  nothing (a theme only)\n');
  });

  it('an absolute exec is said to be an absolute path, not found on PATH', () => {
    const plan = (exec: string) => planCommand({ manifest: { name: 'a', exec, args: ['x'], skills: [], enabled: true } });
    expect(plan('/usr/bin/python3')).toBe('/usr/bin/python3 x   (an absolute path on this machine)');
    expect(plan('C:\\Tools\\run.exe')).toBe('"C:\\\\Tools\\\\run.exe" x   (an absolute path on this machine)');
    expect(plan('python3')).toBe('python3 x   (python3 found on PATH)');
    expect(plan('./run')).toBe('./run x   (in the extension folder)');
  });
});

describe('issue 32, rough edge 11: the plan in a dialog, and a name another extension has', () => {
  it('planDetail: what it runs first, no columns, "executable" spelled out, the warnings on top', () => {
    const detail = planDetail(
      { source: '/src/x', dest: '/h/extensions/x', manifest: { name: 'x', version: '1.0.0', exec: './run.sh', args: [], skills: [], enabled: true, description: 'd\x1b' }, files: [{ path: 'extension.json', bytes: 50, executable: false }, { path: 'run.sh', bytes: 2048, executable: true }] },
      ['Careful.'],
    );
    expect(detail.split('\n')).toEqual([
      'Careful.',
      '',
      'Runs: ./run.sh (in the extension folder)',
      'Description: d\\x1b',
      'Version: 1.0.0',
      'From: /src/x',
      'Into: /h/extensions/x',
      '',
      'Files: 2 (2.0 KiB)',
      '• extension.json — 50 B',
      '• run.sh — 2.0 KiB, executable',
    ]);
  });

  it('shadowWarning: installing globally a name the project uses says the global copy will be shadowed; the other way round, which one loses', () => {
    const known = [{ name: 'todo', scope: 'project' as const, dir: '/p/.zut/extensions/todo' }, { name: 'mine', scope: 'global' as const, dir: '/h/extensions/mine' }];
    expect(shadowWarning('todo', 'global', known)).toBe(
      'Another extension named "todo" is in this workspace\'s project (/p/.zut/extensions/todo) and wins here: the copy you install will be listed as shadowed and will not run in this workspace.',
    );
    expect(shadowWarning('mine', 'project', known)).toBe('Your extension named "mine" in your global extensions (/h/extensions/mine) will be shadowed in this workspace by the copy you install.');
    expect(shadowWarning('fresh', 'global', known)).toBeUndefined();
  });
});

describe('moveToTrash', () => {
  afterAll(cleanupTemps);

  it('where there is no trash (Windows), moves the folder under $ZUT_HOME/trash; refuses a folder without extension.json', async () => {
    const tmp = tempDir('zut-trash-');
    const dir = path.join(tmp, 'ext', 'x');
    await fs.mkdir(dir, { recursive: true });
    await expect(moveToTrash(dir, { zutHome: path.join(tmp, 'zut') })).rejects.toThrow(`remove: ${dir} has no extension.json; not removing it`);
    await fs.writeFile(path.join(dir, 'extension.json'), '{}');
    const r = await moveToTrash(dir, { zutHome: path.join(tmp, 'zut'), platform: 'win32' });
    expect(r.kind).toBe('fallback');
    expect(path.dirname(r.path)).toBe(path.join(tmp, 'zut', 'trash'));
    expect(await fs.readdir(r.path)).toEqual(['extension.json']);
    await expect(fs.stat(dir)).rejects.toThrow(/ENOENT/);
  });
});
