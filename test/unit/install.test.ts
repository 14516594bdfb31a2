import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { installExtension, removeExtension, stageInstall } from '../../src/host/disk/install';

let tmp: string;
let dest: string;
beforeEach(async () => {
  tmp = tempDir('zut-install-');
  dest = path.join(tmp, 'home', 'extensions');
});
afterEach(cleanupTemps);

async function src(name: string, manifest: object | string, files: Record<string, [string, number?]> = {}): Promise<string> {
  const dir = path.join(tmp, 'src', name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'extension.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  for (const [rel, [content, mode]] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content, { mode: mode ?? 0o644 });
  }
  return dir;
}

/** What is left in the destination root (staging dirs included). */
const left = async () => (await fs.readdir(dest).catch(() => [] as string[])).sort();

describe('installExtension', () => {
  it('copies everything but .git into <dest>/<manifest name>, keeping modes; a link inside the folder becomes its content', async () => {
    const dir = await src('hello-src', { name: 'hello', exec: './bin/hello', skills: ['skills'] }, {
      'bin/hello': ['#!/bin/sh\necho hi\n', 0o755],
      'skills/a/SKILL.md': ['# a'],
      '.git/HEAD': ['ref: refs/heads/main'],
      'node_modules/dep/index.js': ['module.exports = 1'],
      '.env.example': ['X=1'],
    });
    await fs.symlink('bin/hello', path.join(dir, 'run'));
    await fs.symlink('skills', path.join(dir, 'more-skills'));
    const r = await installExtension(dir, dest);
    expect(r).toEqual({ name: 'hello', dir: path.join(dest, 'hello') });
    expect(await left()).toEqual(['hello']);
    const entries = (await fs.readdir(r.dir)).sort();
    expect(entries).toEqual(['.env.example', 'bin', 'extension.json', 'more-skills', 'node_modules', 'run', 'skills']);
    expect((await fs.stat(path.join(r.dir, 'bin', 'hello'))).mode & 0o777).toBe(0o755);
    // Links are copied as what they point to: nothing installed points back into the source.
    const run = await fs.lstat(path.join(r.dir, 'run'));
    expect(run.isFile() && !run.isSymbolicLink()).toBe(true);
    expect(run.mode & 0o777).toBe(0o755);
    expect(await fs.readFile(path.join(r.dir, 'run'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect((await fs.lstat(path.join(r.dir, 'more-skills'))).isDirectory()).toBe(true);
    expect(await fs.readFile(path.join(r.dir, 'more-skills', 'a', 'SKILL.md'), 'utf8')).toBe('# a');
    expect(await fs.readFile(path.join(r.dir, 'skills', 'a', 'SKILL.md'), 'utf8')).toBe('# a');
  });

  it('installs a theme-only extension and one with a bare launcher', async () => {
    await installExtension(await src('look', { name: 'look' }, { 'theme.json': ['{}'] }), dest);
    await installExtension(await src('py', { name: 'py', exec: 'python3', args: ['main.py'] }, { 'main.py': [''] }), dest);
    expect(await left()).toEqual(['look', 'py']);
  });

  it('refuses an existing destination and leaves it untouched', async () => {
    const dir = await src('hello', { name: 'hello', exec: 'node' });
    await fs.mkdir(path.join(dest, 'hello'), { recursive: true });
    await fs.writeFile(path.join(dest, 'hello', 'todos.json'), '[1]');
    await expect(installExtension(dir, dest)).rejects.toThrow(`install: ${path.join(dest, 'hello')} already exists`);
    expect(await left()).toEqual(['hello']);
    expect(await fs.readdir(path.join(dest, 'hello'))).toEqual(['todos.json']);
  });

  it('refuses an invalid manifest without creating anything', async () => {
    await expect(installExtension(await src('bad', '{"name":'), dest)).rejects.toThrow(/^install: .*: parse manifest: /);
    await expect(installExtension(await src('noname', { exec: 'node' }), dest)).rejects.toThrow(/: manifest: name is required$/);
    await expect(installExtension(await src('noexec', { name: 'x' }), dest)).rejects.toThrow(/: manifest: exec is required$/);
    await expect(installExtension(path.join(tmp, 'src', 'missing'), dest)).rejects.toThrow(/^install: .*ENOENT/);
    expect(await left()).toEqual([]);
  });

  it('refuses a missing relative executable, or one outside the source', async () => {
    await expect(installExtension(await src('a', { name: 'a', exec: './bin/a' }), dest)).rejects.toThrow(/: exec "\.\/bin\/a" not found in /);
    await expect(installExtension(await src('b', { name: 'b', exec: '../b/run' }, { run: ['', 0o755] }), dest)).rejects.toThrow(
      /: exec "\.\.\/b\/run" is outside the extension directory$/,
    );
    expect(await left()).toEqual([]);
  });

  it('refuses a link that leaves the folder, naming it, and leaves nothing behind (issue 20, point 10)', async () => {
    // The executable is an absolute link into the source repository: installed as is, the global (never asked)
    // extension would run whatever the repository later puts there.
    const outside = path.join(tmp, 'repo-run.sh');
    await fs.writeFile(outside, '#!/bin/sh\n', { mode: 0o755 });
    const dir = await src('linky', { name: 'linky', exec: './bin/run' });
    await fs.mkdir(path.join(dir, 'bin'));
    await fs.symlink(outside, path.join(dir, 'bin', 'run'));
    await expect(installExtension(dir, dest)).rejects.toThrow(
      `install: ${dir}: refused: bin/run is a symbolic link to ${outside}, outside the extension folder`,
    );
    expect(await left()).toEqual([]);
    // The same through a relative link, and a directory link that leaves.
    await fs.rm(path.join(dir, 'bin', 'run'));
    await fs.symlink(path.relative(path.join(dir, 'bin'), outside), path.join(dir, 'bin', 'run'));
    await expect(installExtension(dir, dest)).rejects.toThrow(/refused: bin\/run is a symbolic link to .*repo-run\.sh, outside the extension folder/);
    await fs.rm(path.join(dir, 'bin', 'run'));
    await fs.writeFile(path.join(dir, 'bin', 'run'), '#!/bin/sh\n', { mode: 0o755 });
    await fs.symlink(tmp, path.join(dir, 'lib'));
    await expect(installExtension(dir, dest)).rejects.toThrow(`refused: lib is a symbolic link to ${tmp}, outside the extension folder`);
    expect(await left()).toEqual([]);
  });

  it('refuses a dangling link, a link loop and a FIFO', async () => {
    const dir = await src('odd', { name: 'odd', exec: 'node' });
    await fs.symlink('nowhere', path.join(dir, 'gone'));
    await expect(installExtension(dir, dest)).rejects.toThrow('refused: gone is a symbolic link to "nowhere", which does not exist');
    await fs.rm(path.join(dir, 'gone'));
    await fs.mkdir(path.join(dir, 'sub'));
    await fs.symlink('..', path.join(dir, 'sub', 'up'));
    await expect(installExtension(dir, dest)).rejects.toThrow('refused: sub/up is a symbolic link to its own ancestor ".." (a loop)');
    await fs.rm(path.join(dir, 'sub'), { recursive: true });
    if (process.platform !== 'win32') {
      const { execFileSync } = await import('node:child_process');
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      await expect(installExtension(dir, dest)).rejects.toThrow('refused: pipe is not a regular file or directory');
    }
    expect(await left()).toEqual([]);
  });

  it('rolls back when the copy itself fails (destination inside the source)', async () => {
    const dir = await src('self', { name: 'self', exec: 'node' });
    const inside = path.join(dir, 'nested', 'extensions');
    await expect(installExtension(dir, inside)).rejects.toThrow(/^install: /);
    expect(await fs.readdir(inside)).toEqual([]);
  });
});

describe('stageInstall', () => {
  it('stages a copy whose plan lists the manifest and every file; discard leaves nothing, commit installs it', async () => {
    const dir = await src('plan', { name: 'plan', exec: './run.sh', args: ['--fast'] }, { 'run.sh': ['#!/bin/sh\n', 0o755], 'lib/a.txt': ['abc'] });
    const staged = await stageInstall(dir, dest, { label: 'the source' });
    expect(staged.plan.source).toBe('the source');
    expect(staged.plan.dest).toBe(path.join(dest, 'plan'));
    expect(staged.plan.manifest).toMatchObject({ name: 'plan', exec: './run.sh', args: ['--fast'] });
    expect(staged.plan.files).toEqual([
      { path: 'extension.json', bytes: expect.any(Number), executable: false },
      { path: 'lib/a.txt', bytes: 3, executable: false },
      { path: 'run.sh', bytes: 10, executable: true },
    ]);
    expect((await left()).filter((n) => n.startsWith('.staging-'))).toHaveLength(1);
    await staged.discard();
    expect(await left()).toEqual([]);
    const again = await stageInstall(dir, dest);
    expect(await again.commit()).toEqual({ name: 'plan', dir: path.join(dest, 'plan') });
    expect(await left()).toEqual(['plan']);
  });

  it('a destination that appears between staging and commit is refused, and the staged copy removed', async () => {
    const dir = await src('race', { name: 'race', exec: 'node' });
    const staged = await stageInstall(dir, dest);
    await fs.mkdir(path.join(dest, 'race'));
    await expect(staged.commit()).rejects.toThrow(`install: ${path.join(dest, 'race')} already exists`);
    expect(await left()).toEqual(['race']);
  });
});

describe('removeExtension', () => {
  it('removes an installed extension directory with its state', async () => {
    const { dir } = await installExtension(await src('x', { name: 'x', exec: 'node' }, { 'state.json': ['{}'] }), dest);
    await removeExtension(dir);
    expect(await left()).toEqual([]);
  });

  it('refuses a directory without extension.json', async () => {
    const dir = path.join(dest, 'leftover');
    await fs.mkdir(dir, { recursive: true });
    await expect(removeExtension(dir)).rejects.toThrow(`remove: ${dir} has no extension.json; not removing it`);
    expect(await left()).toEqual(['leftover']);
    await expect(removeExtension(path.join(dest, 'nope'))).rejects.toThrow(/^remove: .*ENOENT/);
  });

  it('removes only the link of a symlinked extension', async () => {
    const real = await src('dev', { name: 'dev', exec: 'node' });
    await fs.mkdir(dest, { recursive: true });
    await fs.symlink(real, path.join(dest, 'dev'));
    await removeExtension(path.join(dest, 'dev'));
    expect(await left()).toEqual([]);
    expect(await fs.readdir(real)).toEqual(['extension.json']);
  });
});
