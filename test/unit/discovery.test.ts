import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { discover } from '../../src/host/disk/discovery';
import type { DiscoveredExtension } from '../../src/host/types';

let tmp: string;
let home: string;
let w1: string;
let w2: string;
beforeEach(async () => {
  tmp = tempDir('zut-discovery-');
  home = path.join(tmp, 'home');
  w1 = path.join(tmp, 'w1');
  w2 = path.join(tmp, 'w2');
});
afterEach(cleanupTemps);

/** Creates an extension directory with a manifest (object, raw text, or none) and extra files. */
async function mk(dir: string, manifest: object | string | null, files: Record<string, string> = {}): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  if (manifest !== null) {
    await fs.writeFile(path.join(dir, 'extension.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  }
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content);
  }
  return dir;
}
const proj = (w: string, d: string) => path.join(w, '.zut', 'extensions', d);
const glob = (d: string) => path.join(home, 'extensions', d);
const brief = (xs: DiscoveredExtension[]) =>
  xs.map((x) => [x.name, x.scope, x.status, path.relative(tmp, x.dir), x.shadowedBy && path.relative(tmp, x.shadowedBy)]);

describe('discover', () => {
  it('finds nothing when no search dir exists', async () => {
    expect(await discover({ folders: [w1], zutHome: home })).toEqual([]);
  });

  it('reads project and global extensions with their manifest, skills and diagnostics', async () => {
    await mk(proj(w1, 'weather'), { name: 'weather', exec: 'node', skills: ['skills', '../x'] }, { 'skills/a/SKILL.md': '# a' });
    await mk(glob('todo'), { name: 'todo', version: '2', exec: 'node' });
    const xs = await discover({ folders: [w1], zutHome: home });
    expect(xs).toEqual([
      {
        name: 'weather',
        dir: proj(w1, 'weather'),
        manifestPath: path.join(proj(w1, 'weather'), 'extension.json'),
        scope: 'project',
        folder: w1,
        manifest: { name: 'weather', exec: 'node', args: [], skills: ['skills', '../x'], enabled: true },
        status: 'enabled',
        diagnostics: ['skills: "../x": path escapes the extension directory'],
        skills: [{ name: 'a', path: path.join(proj(w1, 'weather'), 'skills', 'a', 'SKILL.md') }],
      },
      {
        name: 'todo',
        dir: glob('todo'),
        manifestPath: path.join(glob('todo'), 'extension.json'),
        scope: 'global',
        manifest: { name: 'todo', version: '2', exec: 'node', args: [], skills: [], enabled: true },
        status: 'enabled',
        diagnostics: [],
        skills: [],
      },
    ]);
  });

  it('gives priority explicit > project (folder order) > global, by manifest name, recording the winner', async () => {
    await mk(glob('a'), { name: 'a', exec: 'node' });
    await mk(glob('b-global'), { name: 'b', exec: 'node' });
    await mk(glob('c'), { name: 'c', exec: 'node' });
    await mk(proj(w1, 'a'), { name: 'a', exec: 'node' });
    await mk(proj(w2, 'a'), { name: 'a', exec: 'node' });
    await mk(proj(w2, 'b'), { name: 'b', exec: 'node' });
    const dev = await mk(path.join(tmp, 'dev', 'work-in-progress'), { name: 'a', exec: 'node' });
    const xs = await discover({ folders: [w1, w2], zutHome: home, explicit: [dev] });
    expect(brief(xs)).toEqual([
      ['a', 'explicit', 'enabled', 'dev/work-in-progress', undefined],
      ['a', 'project', 'shadowed', 'w1/.zut/extensions/a', 'dev/work-in-progress'],
      ['a', 'project', 'shadowed', 'w2/.zut/extensions/a', 'dev/work-in-progress'],
      ['b', 'project', 'enabled', 'w2/.zut/extensions/b', undefined],
      ['a', 'global', 'shadowed', 'home/extensions/a', 'dev/work-in-progress'],
      ['b', 'global', 'shadowed', 'home/extensions/b-global', 'w2/.zut/extensions/b'],
      ['c', 'global', 'enabled', 'home/extensions/c', undefined],
    ]);
    expect(xs[1]!.folder).toBe(w1);
    expect(xs[2]!.folder).toBe(w2);
  });

  it('lets the first workspace folder win between folders', async () => {
    await mk(proj(w1, 'x'), { name: 'x', exec: 'node' });
    await mk(proj(w2, 'x'), { name: 'x', exec: 'node' });
    expect(brief(await discover({ folders: [w2, w1], zutHome: home }))).toEqual([
      ['x', 'project', 'enabled', 'w2/.zut/extensions/x', undefined],
      ['x', 'project', 'shadowed', 'w1/.zut/extensions/x', 'w2/.zut/extensions/x'],
    ]);
  });

  it('does not let a disabled extension shadow others, and reports it as disabled', async () => {
    await mk(proj(w1, 'x'), { name: 'x', exec: 'node', enabled: false });
    await mk(glob('x'), { name: 'x', exec: 'node' });
    await mk(glob('y'), { name: 'y', exec: 'node', enabled: false });
    await mk(proj(w1, 'y'), { name: 'y', exec: 'node' });
    expect(brief(await discover({ folders: [w1], zutHome: home }))).toEqual([
      ['x', 'project', 'disabled', 'w1/.zut/extensions/x', undefined],
      ['y', 'project', 'enabled', 'w1/.zut/extensions/y', undefined],
      ['x', 'global', 'enabled', 'home/extensions/x', undefined],
      ['y', 'global', 'disabled', 'home/extensions/y', undefined],
    ]);
  });

  it('lists theme-only extensions, which claim their name', async () => {
    await mk(proj(w1, 'look'), { name: 'look' }, { 'themes/theme.json': '{}' });
    await mk(glob('look'), { name: 'look', exec: 'node' });
    expect(brief(await discover({ folders: [w1], zutHome: home }))).toEqual([
      ['look', 'project', 'theme-only', 'w1/.zut/extensions/look', undefined],
      ['look', 'global', 'shadowed', 'home/extensions/look', 'w1/.zut/extensions/look'],
    ]);
  });

  it('skips dot-directories, plain files and directories without extension.json', async () => {
    await mk(glob('.staging-abc'), { name: 'staged', exec: 'node' });
    await mk(glob('.hidden'), { name: 'hidden', exec: 'node' });
    await mk(glob('leftover-state'), null, { 'todos.json': '[]' });
    await fs.writeFile(path.join(home, 'extensions', 'README.md'), 'not an extension');
    await mk(glob('real'), { name: 'real', exec: 'node' });
    expect(brief(await discover({ folders: [], zutHome: home }))).toEqual([['real', 'global', 'enabled', 'home/extensions/real', undefined]]);
  });

  it('reports manifest errors named after the directory, claiming no name', async () => {
    await mk(proj(w1, 'broken-dir'), '{"name": "x", ');
    await mk(proj(w1, 'noexec'), { name: 'x' });
    await mk(glob('x'), { name: 'x', exec: 'node' });
    const xs = await discover({ folders: [w1], zutHome: home });
    expect(brief(xs)).toEqual([
      ['broken-dir', 'project', 'error', 'w1/.zut/extensions/broken-dir', undefined],
      ['noexec', 'project', 'error', 'w1/.zut/extensions/noexec', undefined],
      ['x', 'global', 'enabled', 'home/extensions/x', undefined],
    ]);
    expect(xs[0]!.error).toMatch(/^parse manifest: /);
    expect(xs[1]!.error).toBe('manifest: exec is required');
    expect(xs[0]!.manifest).toBeUndefined();
  });

  it('reports an explicit path without a manifest (or missing) as an error', async () => {
    const empty = await mk(path.join(tmp, 'empty'), null);
    const xs = await discover({ folders: [], zutHome: home, explicit: [empty, path.join(tmp, 'missing')] });
    expect(xs.map((x) => [x.name, x.status, x.scope])).toEqual([
      ['empty', 'error', 'explicit'],
      ['missing', 'error', 'explicit'],
    ]);
    // An empty folder is none of the three layouts (zut/zot folder, e file, e folder): the error names them.
    expect(xs[0]!.error).toMatch(/ is not an extension: it is none of the three layouts — a zut or zot extension folder \(with extension\.json\), an e extension file/);
    expect(xs[1]!.error).toMatch(/^read manifest: ENOENT/);
  });

  it('follows symlinked extension directories and lists a directory reached twice once', async () => {
    const src = await mk(path.join(tmp, 'src', 'linked'), { name: 'linked', exec: 'node' });
    await fs.mkdir(path.join(home, 'extensions'), { recursive: true });
    await fs.symlink(src, glob('linked'));
    await fs.symlink(path.join(tmp, 'nowhere'), glob('dangling'));
    expect(brief(await discover({ folders: [], zutHome: home }))).toEqual([['linked', 'global', 'enabled', 'home/extensions/linked', undefined]]);
    // The same directory as an explicit path and via the global dir: listed once, as explicit.
    const xs = await discover({ folders: [w1, w1], zutHome: home, explicit: [src, src] });
    expect(brief(xs)).toEqual([['linked', 'explicit', 'enabled', 'src/linked', undefined]]);
  });

  it('is deterministic: explicit entries ordered by name', async () => {
    const b = await mk(path.join(tmp, 'b'), { name: 'b', exec: 'node' });
    const a = await mk(path.join(tmp, 'a'), { name: 'a', exec: 'node' });
    const xs = await discover({ folders: [], zutHome: home, explicit: [b, a] });
    expect(xs.map((x) => x.name)).toEqual(['a', 'b']);
  });
});
