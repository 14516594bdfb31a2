import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installExtension, removeExtension } from '../../src/host/disk/install';

let tmp: string;
let dest: string;
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'zut-install-')));
  dest = path.join(tmp, 'home', 'extensions');
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

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
  it('copies everything but .git into <dest>/<manifest name>, keeping modes and relative symlinks', async () => {
    const dir = await src('hello-src', { name: 'hello', exec: './bin/hello', skills: ['skills'] }, {
      'bin/hello': ['#!/bin/sh\necho hi\n', 0o755],
      'skills/a/SKILL.md': ['# a'],
      '.git/HEAD': ['ref: refs/heads/main'],
      'node_modules/dep/index.js': ['module.exports = 1'],
      '.env.example': ['X=1'],
    });
    await fs.symlink('bin/hello', path.join(dir, 'run'));
    const r = await installExtension(dir, dest);
    expect(r).toEqual({ name: 'hello', dir: path.join(dest, 'hello') });
    expect(await left()).toEqual(['hello']);
    const entries = (await fs.readdir(r.dir)).sort();
    expect(entries).toEqual(['.env.example', 'bin', 'extension.json', 'node_modules', 'run', 'skills']);
    expect((await fs.stat(path.join(r.dir, 'bin', 'hello'))).mode & 0o777).toBe(0o755);
    expect(await fs.readlink(path.join(r.dir, 'run'))).toBe('bin/hello');
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

  it('rolls back the staging directory when the staged copy is invalid', async () => {
    // The executable is a symlink to a file outside the source: valid in place, dangling once copied verbatim.
    const outside = path.join(tmp, 'outside-bin');
    await fs.writeFile(outside, '#!/bin/sh\n', { mode: 0o755 });
    const dir = await src('linky', { name: 'linky', exec: './bin/run' });
    await fs.mkdir(path.join(dir, 'bin'));
    await fs.symlink(path.relative(path.join(dir, 'bin'), outside), path.join(dir, 'bin', 'run'));
    await expect(installExtension(dir, dest)).rejects.toThrow(/^install: staged copy of .*: exec "\.\/bin\/run" not found in .*\.staging-/);
    expect(await left()).toEqual([]);
  });

  it('rolls back when the copy itself fails (destination inside the source)', async () => {
    const dir = await src('self', { name: 'self', exec: 'node' });
    const inside = path.join(dir, 'nested', 'extensions');
    await expect(installExtension(dir, inside)).rejects.toThrow(/^install: /);
    expect(await fs.readdir(inside)).toEqual([]);
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
