/**
 * The project folder of a hook that no window answers (issue 37, finding 7), as a rule (src/hooks/projectFolder.ts):
 * the outermost folder of `cwd` and its parents with project extensions, below the user's home, never for a global
 * extension home, never a parent someone else could write to. The hooks through dist/hook.js: hookScope.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectFolder } from '../../src/hooks/projectFolder';
import { cleanupTemps, tempDir } from '../helpers/temp';

afterAll(cleanupTemps);

const mk = (...parts: string[]) => {
  const d = path.join(...parts);
  fs.mkdirSync(d, { recursive: true });
  return d;
};
/** `folder` with a project extensions directory of `kind` (`.zut`, `.zot`, `.e`). */
const project = (folder: string, kind = '.zut') => (mk(folder, kind, 'extensions'), folder);

describe('the project folder of a hook (finding 7)', () => {
  const home = tempDir('zut-project-home-');
  const env = { ZUT_HOME: path.join(home, 'state', 'zut'), ZOT_HOME: path.join(home, 'state', 'zot') };
  const find = (cwd: string, o: { noZot?: boolean; noE?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
    projectFolder(cwd, { noZot: o.noZot ?? false, noE: o.noE ?? false, env: o.env ?? env, home });

  it('a subfolder of a repository with project extensions: the repository (cd src keeps its guard)', () => {
    const repo = project(mk(home, 'code', 'repo'));
    expect(find(mk(repo, 'src', 'deep'))).toBe(repo);
    expect(find(repo)).toBe(repo);
  });

  it('a project folder nested in another: the outer one (a window on the repository does not load vendor/pkg either)', () => {
    const repo = project(mk(home, 'code', 'nested'));
    const pkg = project(mk(repo, 'vendor', 'pkg'));
    expect(find(pkg)).toBe(repo);
    expect(find(mk(pkg, 'lib'))).toBe(repo);
    // zot's and e's project directories make a project folder too, unless that protocol is not loaded.
    const zotOuter = project(mk(home, 'code', 'zot-outer'), '.zot');
    const inner = project(mk(zotOuter, 'inner'));
    expect(find(inner)).toBe(zotOuter);
    expect(find(inner, { noZot: true })).toBe(inner);
    const eOuter = project(mk(home, 'code', 'e-outer'), '.e');
    expect(find(project(mk(eOuter, 'inner')))).toBe(eOuter);
    expect(find(path.join(eOuter, 'inner'), { noE: true })).toBe(path.join(eOuter, 'inner'));
  });

  it('no project folder on the way: the cwd itself, as given', () => {
    const plain = mk(home, 'code', 'plain', 'sub');
    expect(find(plain)).toBe(plain);
    expect(find(path.join(plain, '..', 'sub'))).toBe(plain);
  });

  it('the walk stops below the home directory: ~/.zut/extensions (a global home or not) is never the project of a folder in it', () => {
    project(home);
    project(home, '.e'); // e's global home, ~/.e
    const work = mk(home, 'work', 'x');
    expect(find(work)).toBe(work);
    expect(find(home)).toBe(home); // the agent works in ~ itself: as before, the cwd
  });

  it('a global extension directory is no project: $ZUT_HOME=/…/p/.zut, $XDG_STATE_HOME, $ZOT_HOME', () => {
    const p = mk(home, 'code', 'p-global');
    const cwd = mk(p, 'sub');
    project(p);
    expect(find(cwd)).toBe(p);
    expect(find(cwd, { env: { ...env, ZUT_HOME: path.join(p, '.zut') } })).toBe(cwd);
    // Compared as the file system knows them: p2/.zut a link to $XDG_STATE_HOME/zut, whose extensions/ is zut's global.
    const xdg = mk(home, 'state-xdg');
    mk(xdg, 'zut', 'extensions');
    const p2 = mk(home, 'code', 'p-xdg');
    fs.symlinkSync(path.join(xdg, 'zut'), path.join(p2, '.zut'));
    expect(find(mk(p2, 'sub'))).toBe(p2);
    expect(find(path.join(p2, 'sub'), { env: { XDG_STATE_HOME: xdg, ZOT_HOME: env.ZOT_HOME } })).toBe(path.join(p2, 'sub'));
    const z = mk(home, 'code', 'z-global');
    project(z, '.zot');
    expect(find(mk(z, 'sub'), { env: { ...env, ZOT_HOME: path.join(z, '.zot') } })).toBe(path.join(z, 'sub'));
  });

  it('a parent others can write to, or that belongs to another user, is never a project (/tmp/.zut/extensions)', () => {
    const shared = project(mk(home, 'code', 'shared'));
    const cwd = mk(shared, 'mine');
    fs.chmodSync(shared, 0o777);
    expect(find(cwd)).toBe(cwd);
    expect(find(shared)).toBe(shared); // the cwd itself is where the agent works: as before
    fs.chmodSync(shared, 0o755);
    expect(find(cwd)).toBe(shared);
    if (process.getuid?.() === 0) {
      fs.chownSync(shared, 65534, 65534);
      expect(find(cwd)).toBe(cwd);
      fs.chownSync(shared, 0, 0);
    }
  });
});
