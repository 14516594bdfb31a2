/** Discovery of the sibling ecosystems (issue 13): zot's `.zot/extensions` + `$ZOT_HOME`, e's executables. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { pickEntryPoint } from '../../src/host/disk/discoverE';
import { discover, rereadManifest } from '../../src/host/disk/discovery';
import { resolveEHome, resolveZotHome } from '../../src/host/disk/paths';
import type { DiscoveredExtension } from '../../src/host/types';

let tmp: string;
let zutHome: string;
let zotHome: string;
let eHome: string;
let w1: string;
beforeEach(async () => {
  tmp = tempDir('zut-compat-');
  zutHome = path.join(tmp, 'zut');
  zotHome = path.join(tmp, 'zot');
  eHome = path.join(tmp, 'dot-e');
  w1 = path.join(tmp, 'w1');
});
afterEach(cleanupTemps);

async function manifestExt(dir: string, name: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'extension.json'), JSON.stringify({ name, exec: 'node' }));
  return dir;
}
async function file(p: string, mode = 0o755, text = '#!/bin/sh\n'): Promise<string> {
  await fs.mkdir(path.dirname(p), { recursive: true });
  await fs.writeFile(p, text, { mode });
  return p;
}
const rel = (p: string | undefined) => p && path.relative(tmp, p);
const brief = (xs: DiscoveredExtension[]) => xs.map((x) => [x.name, x.ecosystem ?? 'zut', x.scope, x.status, rel(x.manifestPath), rel(x.shadowedBy)]);
const all = () => discover({ folders: [w1], zutHome, zot: { home: zotHome }, e: { home: eHome } });

describe('paths of the sibling ecosystems', () => {
  it('$ZOT_HOME: ZOT_HOME, else $XDG_STATE_HOME/zot, else the platform default (as zut)', () => {
    expect(resolveZotHome({ ZOT_HOME: '/z', XDG_STATE_HOME: '/x', ZUT_HOME: '/u' }, 'linux', '/home/u')).toBe('/z');
    expect(resolveZotHome({ ZOT_HOME: '', XDG_STATE_HOME: '/x' }, 'darwin', '/Users/u')).toBe('/x/zot');
    expect(resolveZotHome({ ZUT_HOME: '/u' }, 'linux', '/home/u')).toBe('/home/u/.local/state/zot');
    expect(resolveZotHome({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/zot');
    expect(resolveZotHome({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\Users\\u')).toBe('C:\\L\\zot');
    expect(resolveEHome('/home/u')).toBe(path.join('/home/u', '.e'));
  });
});

describe('discover: zot', () => {
  it('reads .zot/extensions per folder and $ZOT_HOME/extensions, project winning within zot', async () => {
    await manifestExt(path.join(w1, '.zot', 'extensions', 'todo'), 'todo');
    await manifestExt(path.join(zotHome, 'extensions', 'todo'), 'todo');
    await manifestExt(path.join(zotHome, 'extensions', 'weather'), 'weather');
    expect(brief(await all())).toEqual([
      ['todo', 'zot', 'project', 'enabled', 'w1/.zot/extensions/todo/extension.json', undefined],
      ['todo', 'zot', 'global', 'shadowed', 'zot/extensions/todo/extension.json', 'w1/.zot/extensions/todo'],
      ['weather', 'zot', 'global', 'enabled', 'zot/extensions/weather/extension.json', undefined],
    ]);
  });

  it("a name in two ecosystems is zut's, whatever the scopes; the other copy is shadowed by it", async () => {
    await manifestExt(path.join(zutHome, 'extensions', 'todo'), 'todo'); // zut, global
    await manifestExt(path.join(w1, '.zot', 'extensions', 'todo'), 'todo'); // zot, project
    await file(path.join(w1, '.e', 'extensions', 'todo.mjs')); // e, project
    await file(path.join(eHome, 'extensions', 'lint', 'index.py')); // e, global
    await manifestExt(path.join(zotHome, 'extensions', 'lint'), 'lint'); // zot beats e
    expect(brief(await all())).toEqual([
      ['todo', 'zut', 'global', 'enabled', 'zut/extensions/todo/extension.json', undefined],
      ['todo', 'zot', 'project', 'shadowed', 'w1/.zot/extensions/todo/extension.json', 'zut/extensions/todo'],
      ['lint', 'zot', 'global', 'enabled', 'zot/extensions/lint/extension.json', undefined],
      ['todo', 'e', 'project', 'shadowed', 'w1/.e/extensions/todo.mjs', 'zut/extensions/todo'],
      ['lint', 'e', 'global', 'shadowed', 'dot-e/extensions/lint/index.py', 'zot/extensions/lint'],
    ]);
  });

  it('is off unless asked for (zut.compat.zot / zut.compat.e off)', async () => {
    await manifestExt(path.join(w1, '.zot', 'extensions', 'a'), 'a');
    await file(path.join(eHome, 'extensions', 'b.sh'));
    expect(await discover({ folders: [w1], zutHome })).toEqual([]);
  });

  it('searchGlobal false skips the zot and e homes too, not their project dirs', async () => {
    await manifestExt(path.join(w1, '.zot', 'extensions', 'p'), 'p');
    await manifestExt(path.join(zotHome, 'extensions', 'g'), 'g');
    await file(path.join(eHome, 'extensions', 'g2.sh'));
    const xs = await discover({ folders: [w1], zutHome, zot: { home: zotHome }, e: { home: eHome }, searchGlobal: false });
    expect(xs.map((x) => x.name)).toEqual(['p']);
  });

  it('in an untrusted workspace a project zot copy claims no name: the global zut or zot copy is not shadowed', async () => {
    await manifestExt(path.join(w1, '.zot', 'extensions', 'a'), 'a');
    await manifestExt(path.join(zotHome, 'extensions', 'a'), 'a');
    const xs = await discover({ folders: [w1], zutHome, zot: { home: zotHome }, blockedScopes: ['project', 'explicit'] });
    expect(brief(xs).map((b) => b.slice(0, 4))).toEqual([
      ['a', 'zot', 'project', 'enabled'],
      ['a', 'zot', 'global', 'enabled'],
    ]);
    expect(xs[0]!.diagnostics).toEqual([`blocked by Workspace Trust: the global extension ${path.join(zotHome, 'extensions', 'a')} runs instead`]);
  });
});

describe('discover: e', () => {
  it('top-level executables and directories, named by stem or directory; non-executables and dot-files skipped', async () => {
    const ext = path.join(eHome, 'extensions');
    await file(path.join(ext, 'ping.sh'));
    await file(path.join(ext, 'README.md'), 0o644, '# notes');
    await file(path.join(ext, '.hidden.sh'));
    await file(path.join(ext, 'greet', 'index.mjs'));
    await file(path.join(ext, 'greet', 'helper.mjs'));
    const xs = await all();
    expect(xs).toEqual([
      {
        name: 'greet',
        dir: path.join(ext, 'greet'),
        manifestPath: path.join(ext, 'greet', 'index.mjs'),
        scope: 'global',
        ecosystem: 'e',
        eTarget: path.join(ext, 'greet'),
        manifest: { name: 'greet', exec: `.${path.sep}index.mjs`, args: [], skills: [], enabled: true, language: 'javascript' },
        status: 'enabled',
        diagnostics: [],
        skills: [],
      },
      {
        name: 'ping',
        dir: ext,
        manifestPath: path.join(ext, 'ping.sh'),
        scope: 'global',
        ecosystem: 'e',
        eTarget: path.join(ext, 'ping.sh'),
        manifest: { name: 'ping', exec: `.${path.sep}ping.sh`, args: [], skills: [], enabled: true, language: 'sh' },
        status: 'enabled',
        diagnostics: [],
        skills: [],
      },
    ]);
  });

  it('project e extensions come from <folder>/.e/extensions, before the global ones', async () => {
    await file(path.join(w1, '.e', 'extensions', 'a.py'));
    await file(path.join(eHome, 'extensions', 'a.py'));
    expect(brief(await all())).toEqual([
      ['a', 'e', 'project', 'enabled', 'w1/.e/extensions/a.py', undefined],
      ['a', 'e', 'global', 'shadowed', 'dot-e/extensions/a.py', 'w1/.e/extensions/a.py'],
    ]);
  });

  it('entry point rules: index.* first, then <dir>.*, then a sole executable; path order breaks ties', async () => {
    const d = path.join(tmp, 'tool');
    await file(path.join(d, 'zz-run'));
    await file(path.join(d, 'tool.py'));
    await file(path.join(d, 'index.py'));
    await file(path.join(d, 'index.mjs'));
    expect(await pickEntryPoint(d)).toEqual({ entry: path.join(d, 'index.mjs') });
    await fs.rm(path.join(d, 'index.mjs'));
    await fs.rm(path.join(d, 'index.py'));
    expect(await pickEntryPoint(d)).toEqual({ entry: path.join(d, 'tool.py') });
    await fs.rm(path.join(d, 'tool.py'));
    await file(path.join(d, 'data.json'), 0o644, '{}');
    expect(await pickEntryPoint(d)).toEqual({ entry: path.join(d, 'zz-run') });
    await file(path.join(d, 'other'));
    expect(await pickEntryPoint(d)).toEqual({ error: expect.stringContaining('2 executables and no index.* or tool.*') });
  });

  it('a directory without a usable entry point is an error naming it; a non-executable index.* too', async () => {
    await file(path.join(eHome, 'extensions', 'empty', 'notes.txt'), 0o644, 'x');
    await file(path.join(eHome, 'extensions', 'noexec', 'index.mjs'), 0o644, '');
    const xs = await all();
    expect(xs.map((x) => [x.name, x.status, x.error])).toEqual([
      ['empty', 'error', expect.stringMatching(/^no e entry point in .*empty: no executable/)],
      ['noexec', 'error', 'e entry point "index.mjs" is not executable (chmod +x it)'],
    ]);
  });

  it('rereadManifest follows the entry point rules again (a restart), and says when the program is gone', async () => {
    const d = path.join(eHome, 'extensions', 'greet');
    await file(path.join(d, 'greet.py'));
    const [x] = await all();
    expect(x!.manifest?.exec).toBe(`.${path.sep}greet.py`);
    await file(path.join(d, 'index.mjs'));
    const again = await rereadManifest(x!);
    expect(again.ok && again.manifest.exec).toBe(`.${path.sep}index.mjs`);
    await fs.rm(d, { recursive: true });
    expect(await rereadManifest(x!)).toEqual({ ok: false, error: `e extension ${path.join(d, 'greet.py')} is gone` });
  });
});
