import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { FILE_TIME_SLACK_MS } from '../../src/protocol/limits';
import { changedExtensions, manifestSignature, modifiedSince, watchedFiles } from '../../src/host/disk/manifestSignature';

let tmp: string;
beforeEach(async () => {
  tmp = tempDir('zut-sig-');
});
afterEach(cleanupTemps);

async function ext(root: string, name: string, manifest: object): Promise<string> {
  const dir = path.join(root, name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'extension.json'), JSON.stringify(manifest));
  return dir;
}

describe('manifestSignature', () => {
  it('is stable while nothing changes, and ignores files other than manifests', async () => {
    const root = path.join(tmp, 'exts');
    const dir = await ext(root, 'a', { name: 'a', exec: './a' });
    const before = await manifestSignature([root, path.join(tmp, 'missing')], [dir]);
    await fs.writeFile(path.join(dir, 'todos.json'), '{}');
    expect(await manifestSignature([root, path.join(tmp, 'missing')], [dir])).toBe(before);
  });

  it('changes when a manifest is edited, added or removed, or an extension directory appears', async () => {
    const root = path.join(tmp, 'exts');
    await ext(root, 'a', { name: 'a', exec: './a' });
    const s0 = await manifestSignature([root], []);
    await fs.writeFile(path.join(root, 'a', 'extension.json'), JSON.stringify({ name: 'a', exec: './a', enabled: false }));
    const s1 = await manifestSignature([root], []);
    expect(s1).not.toBe(s0);
    await fs.mkdir(path.join(root, 'b'));
    const s2 = await manifestSignature([root], []);
    expect(s2).not.toBe(s1);
    await fs.writeFile(path.join(root, 'b', 'extension.json'), '{"name":"b","exec":"./b"}');
    const s3 = await manifestSignature([root], []);
    expect(s3).not.toBe(s2);
    await fs.rm(path.join(root, 'b'), { recursive: true });
    expect(await manifestSignature([root], [])).toBe(s1);
  });

  it('covers explicit extension directories', async () => {
    const dir = await ext(tmp, 'x', { name: 'x', exec: './x' });
    const s0 = await manifestSignature([], [dir]);
    await fs.rm(path.join(dir, 'extension.json'));
    expect(await manifestSignature([], [dir])).not.toBe(s0);
  });
});

describe('changedExtensions', () => {
  const exts = [
    { name: 'a', dir: '/w/.zut/extensions/a', manifestPath: '/w/.zut/extensions/a/extension.json', state: 'running' },
    { name: 'ab', dir: '/w/.zut/extensions/ab', manifestPath: '/w/.zut/extensions/ab/extension.json', state: 'running' },
    { name: 'b', dir: '/h/extensions/b', manifestPath: '/h/extensions/b/extension.json', state: 'shadowed' },
  ];
  it('a manifest or a file of a loaded extension restarts that one; the rest is "other"', () => {
    const r = changedExtensions(
      ['/w/.zut/extensions/a/extension.json', '/w/.zut/extensions/ab/bin/run', '/w/.zut/extensions/new', '/h/extensions/b/extension.json'],
      exts,
    );
    expect([...r.restart]).toEqual([
      ['a', 'manifest'],
      ['ab', 'executable'],
    ]);
    expect(r.other).toEqual(['/w/.zut/extensions/new', '/h/extensions/b/extension.json']);
    expect([...r.files]).toEqual([
      ['a', ['/w/.zut/extensions/a/extension.json']],
      ['ab', ['/w/.zut/extensions/ab/bin/run']],
    ]);
  });
});

describe('modifiedSince', () => {
  it('files older than the time are not modified since; a newer, missing or whole-second one is', async () => {
    const f = path.join(tmp, 'run.sh');
    await fs.writeFile(f, 'echo 1\n');
    const at = Math.floor((await fs.stat(f)).mtimeMs / 1000) * 1000 + 500.25; // sub-second, as on ext4/APFS/NTFS
    const after = at + FILE_TIME_SLACK_MS + 5;
    await fs.utimes(f, at / 1000, at / 1000);
    expect(await modifiedSince([f], after)).toBe(false);
    await fs.utimes(f, (after + 10) / 1000, (after + 10) / 1000);
    expect(await modifiedSince([f], after)).toBe(true);
    // Just before: the kernel's file clock lags the wall clock by up to a tick, so it may have changed after.
    await fs.utimes(f, (after - FILE_TIME_SLACK_MS / 2) / 1000, (after - FILE_TIME_SLACK_MS / 2) / 1000);
    expect(await modifiedSince([f], after)).toBe(true);
    await fs.utimes(f, 1000, 1000); // whole seconds: a coarse filesystem cannot tell
    expect(await modifiedSince([f], after)).toBe(true);
    expect(await modifiedSince([path.join(tmp, 'gone.sh')], after)).toBe(true);
    expect(await modifiedSince([], after)).toBe(false);
  });
});

describe('changedExtensions: e extensions', () => {
  it('only the entry file of an e extension is its own (an executable change); siblings of a top-level one are "other"', () => {
    const exts = [
      { name: 'ping', dir: '/h/.e/extensions', manifestPath: '/h/.e/extensions/ping.sh', state: 'running', ecosystem: 'e' },
      { name: 'greet', dir: '/h/.e/extensions/greet', manifestPath: '/h/.e/extensions/greet/index.mjs', state: 'running', ecosystem: 'e' },
    ];
    const r = changedExtensions(['/h/.e/extensions/ping.sh', '/h/.e/extensions/new.sh', '/h/.e/extensions/greet/index.mjs'], exts);
    expect([...r.restart]).toEqual([
      ['ping', 'executable'],
      ['greet', 'executable'],
    ]);
    expect(r.other).toEqual(['/h/.e/extensions/new.sh']);
  });
});

describe('watchedFiles', () => {
  const dir = path.join(path.sep, 'w', '.zut', 'extensions', 'a');
  it('the relative executable and the argument files inside the directory, nothing outside, no PATH programs', () => {
    expect(watchedFiles({ dir, exec: './run.sh', args: ['main.go', '--flag', '../other/x.js', 'lib/util.py'] })).toEqual([
      path.join(dir, 'run.sh'), path.join(dir, 'main.go'), path.join(dir, '--flag'), path.join(dir, 'lib', 'util.py'),
    ]);
    expect(watchedFiles({ dir, exec: 'node', args: ['main.js'] })).toEqual([path.join(dir, 'main.js')]);
    expect(watchedFiles({ dir, exec: 'python3' })).toEqual([]);
  });

  it("its skills' SKILL.md files too (a changed skill restarts it: new name and description, consent again), none outside", () => {
    const skill = path.join(dir, 'skills', 'review', 'SKILL.md');
    expect(watchedFiles({ dir, exec: './run.sh', skills: [{ path: skill }, { path: path.join(path.sep, 'elsewhere', 'SKILL.md') }] })).toEqual([path.join(dir, 'run.sh'), skill]);
  });
});
