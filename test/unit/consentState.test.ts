/**
 * Consent is about code, not state (issue 32, point 1), through the real Manager and real child processes. A
 * project extension's `hello_ack.data_dir` lies outside the repository (`<zut home>/project-data/<name>-<hash>`),
 * so the todo example, which keeps its todos.json in its data_dir, never asks again however often it is used; its
 * folder is still all code: a file it writes there, a link from it into the data_dir, ask again like any change.
 * A global extension keeps zut's default data_dir, its own directory. And what the user installs into a project
 * through us (point 2) is theirs: allowed for exactly the staged copy they confirmed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stageInstall } from '../../src/host/disk/install';
import { projectDataDir } from '../../src/host/disk/paths';
import { EXAMPLES_DIR } from '../helpers/stdioDriver';
import { consentSetup, shBody } from '../helpers/consentFixture';
import { cleanupTemps, stopManagers, tempDir, until, writeExt } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

const isInside = (p: string, dir: string): boolean => !path.relative(dir, p).startsWith('..');

describe('point 1: an extension\'s own state never asks again', () => {
  it('the todo example, used for ten edits with a restart after each and a new window after them, never re-asks', async () => {
    const s = consentSetup();
    const dir = path.join(s.projectExts, 'todo');
    fs.cpSync(path.join(EXAMPLES_DIR, 'todo'), dir, { recursive: true });
    const asked: string[][] = [];
    s.m.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    await s.m.start();
    expect(asked).toEqual([['todo']]);
    await s.m.answerConsent(['todo'], 'allow');
    const renders = () => s.ui.calls.filter((c) => c.method === 'panelRender' && c.ext === 'todo').length;
    for (let i = 1; i <= 10; i++) {
      expect(s.info('todo').state).toBe('running');
      await s.m.invokeCommand('todo', '');
      const before = renders();
      s.m.panelKey('todo', 'todo-main', 'rune', 'a');
      s.m.panelKey('todo', 'todo-main', 'rune', `edit ${i}`);
      s.m.panelKey('todo', 'todo-main', 'enter');
      await until(() => renders() >= before + 3, 10_000, `todo rendered edit ${i}`);
      await s.m.restart('todo');
    }
    const dataDir = projectDataDir(s.home, dir, 'todo');
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'todos.json'), 'utf8')) as { todos: { text: string }[] };
    expect(saved.todos.map((t) => t.text).slice(-10)).toEqual(Array.from({ length: 10 }, (_, i) => `edit ${i + 1}`));
    expect(fs.existsSync(path.join(dir, 'todos.json'))).toBe(false);
    expect(isInside(dataDir, s.project)).toBe(false);
    await s.m.reload();
    expect(s.info('todo').state).toBe('running');
    // A new window over the same workspace state: the answer still holds, and the todos are there.
    await s.m.stop();
    const again = s.make({ consent: { mode: () => 'ask', choices: s.choices } });
    again.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    await again.start();
    expect(again.extensions().find((e) => e.name === 'todo')!.state).toBe('running');
    const list = await again.invokeTool('todo_list', {}, { session: { id: 's1' }, origin: 'chat' });
    expect(list.content.map((b) => b.text).join('\n')).toContain('edit 10');
    expect(asked).toEqual([['todo']]);
  });

  it('hello_ack.data_dir: outside the repository for a project extension, created 0700; a global one keeps its own directory', async () => {
    const s = consentSetup();
    const record = (name: string) => `printf '%s\\n' "$l" > '${s.marker}-${name}'`;
    const proj = writeExt(s.projectExts, 'proj', { name: 'proj', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('proj', ':', record('proj'))}` });
    const glob = writeExt(s.exts, 'glob', { name: 'glob', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('glob', ':', record('glob'))}` });
    await s.m.start();
    await s.m.answerConsent(['proj'], 'allow');
    const ack = (name: string) => JSON.parse(fs.readFileSync(`${s.marker}-${name}`, 'utf8')) as { data_dir: string; extension_dir: string };
    expect(ack('proj')).toMatchObject({ extension_dir: proj, data_dir: projectDataDir(s.home, proj, 'proj') });
    expect(ack('proj').data_dir).toMatch(new RegExp(`^${s.home}/project-data/proj-[0-9a-f]{16}$`));
    expect(fs.statSync(ack('proj').data_dir).mode & 0o777).toBe(0o700);
    expect(ack('glob')).toMatchObject({ extension_dir: glob, data_dir: glob });
  });
});

describe('point 1: the folder is still all code (red team)', () => {
  it('a file the extension writes into its own directory (extension_dir) asks again at the next start', async () => {
    const s = consentSetup();
    writeExt(s.projectExts, 'own', { name: 'own', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('own', `echo run >> '${s.marker}'; echo state >> ./state`)}` });
    await s.m.start();
    expect(s.m.pendingConsent()[0]!.allowedBefore).toBeUndefined(); // never answered: the first question (a modal)
    await s.m.answerConsent(['own'], 'allow');
    expect(s.ran()).toBe('run\n');
    await s.m.restart('own');
    expect(s.info('own').state).toBe('consent');
    expect(s.m.pendingConsent()[0]!.allowedBefore).toBe(true); // changed since allowed: a notification
    expect(s.ran()).toBe('run\n');
  });

  it('a repository extension\'s file saved in the editor is not the user\'s own edit: it asks again', async () => {
    const s = consentSetup();
    const dir = writeExt(s.projectExts, 'repo', { name: 'repo', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('repo', `echo v1 >> '${s.marker}'`)}` });
    await s.m.start();
    await s.m.answerConsent(['repo'], 'allow');
    const v2 = `#!/bin/sh\n${shBody('repo', `echo v2 >> '${s.marker}'`)}`;
    fs.writeFileSync(path.join(dir, 'run.sh'), v2);
    expect(await s.m.allowOwnEdit(path.join(dir, 'run.sh'), Buffer.from(v2))).toBe(false);
    await s.m.restart('repo');
    expect(s.info('repo').state).toBe('consent');
    expect(s.ran()).toBe('v1\n');
  });

  it('a link from the extension\'s directory into its data_dir: a change written there asks again', async () => {
    const s = consentSetup();
    const dir = path.join(s.projectExts, 'linked');
    const dataDir = projectDataDir(s.home, dir, 'linked');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'lib.sh'), `echo v1 >> '${s.marker}'\n`);
    writeExt(s.projectExts, 'linked', { name: 'linked', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('linked', '. ./lib.sh')}` });
    fs.symlinkSync(path.join(dataDir, 'lib.sh'), path.join(dir, 'lib.sh'));
    await s.m.start();
    await s.m.answerConsent(['linked'], 'allow');
    expect(s.ran()).toBe('v1\n');
    fs.writeFileSync(path.join(dataDir, 'lib.sh'), `echo v2 >> '${s.marker}'\n`);
    await s.m.restart('linked');
    expect(s.info('linked').state).toBe('consent');
    expect(s.ran()).toBe('v1\n');
  });
});

describe('point 2: what the user installs into a project through us is theirs', () => {
  it('Install: allowed for exactly the staged copy, so it runs at once; a file slipped in before the rename asks', async () => {
    const s = consentSetup();
    const src = writeExt(tempDir('zut-src-'), 'inst', { name: 'inst', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('inst', `echo v1 >> '${s.marker}'`)}` });
    const src2 = writeExt(tempDir('zut-src-'), 'inst2', { name: 'inst2', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('inst2', `echo w1 >> '${s.marker}'`)}` });
    const asked: string[] = [];
    s.m.onDidRequestConsent((infos) => asked.push(...infos.map((i) => i.name)));
    await s.m.start();
    const staged = await stageInstall(src, s.projectExts);
    await s.m.allowOwnContent(staged.staging, staged.plan.dest);
    await staged.commit();
    await s.m.reload();
    expect(s.info('inst').state).toBe('running');
    expect(s.ran()).toBe('v1\n');
    // Exactly what was confirmed: a file added after the answer was recorded is not covered.
    const sneaky = await stageInstall(src2, s.projectExts);
    await s.m.allowOwnContent(sneaky.staging, sneaky.plan.dest);
    fs.writeFileSync(path.join(sneaky.staging, 'lib.sh'), 'echo extra\n');
    await sneaky.commit();
    await s.m.reload();
    expect(s.info('inst2').state).toBe('consent');
    expect(asked).toEqual(['inst2']);
    expect(s.ran()).toBe('v1\nv1\n'); // inst ran again on the reload; inst2 never
    // A global destination is never asked for: nothing is recorded for it.
    const globalCopy = await stageInstall(src2, s.exts);
    await s.m.allowOwnContent(globalCopy.staging, globalCopy.plan.dest);
    await globalCopy.discard();
    expect([...s.choices.values.keys()].filter((k) => k.includes(s.exts))).toEqual([]);
  });
});
