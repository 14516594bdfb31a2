/**
 * Consent holds against the repository itself (issue 20, points 1–3 and 15), through the real Manager and real
 * child processes: once an extension is allowed, changed code it runs — a sourced lib.sh, a script an argument
 * names outside its directory, a json.py dropped beside a Python extension — waits for a new answer at the next
 * spawn, automatic restarts after a crash included; Allow given for content that changed while the question showed
 * asks again; an extension too large to fingerprint is refused naming its dir and log; an explicit path inside a
 * workspace folder is the repository's code and asks. Each script appends its version to a marker file when it
 * starts, so "did not run" is checked on disk, not inferred from a state.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { logPathFor } from '../../src/host/disk/paths';
import { FINGERPRINT_MAX_ENTRIES } from '../../src/protocol/limits';
import { consentSetup, shBody } from '../helpers/consentFixture';
import { cleanupTemps, stopManagers, tempDir, until, writeExt } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** Starts, allows `name`, checks it ran `v1`; then `change()`, restarts it, and checks it waits without running. */
async function allowThenChange(s: ReturnType<typeof consentSetup>, name: string, change: () => void): Promise<void> {
  await s.m.start();
  expect(s.info(name).state).toBe('consent');
  await s.m.answerConsent([name], 'allow');
  expect(s.info(name).state).toBe('running');
  expect(s.ran()).toBe('v1\n');
  change();
  await s.m.restart(name);
  expect(s.info(name).state).toBe('consent');
  expect(s.info(name).pid).toBeUndefined();
  expect(s.ran()).toBe('v1\n'); // the changed code never started
}

describe('point 2: the fingerprint is the whole directory plus the files exec/args name', () => {
  it('a lib.sh the executable sources', async () => {
    const s = consentSetup();
    const dir = writeExt(s.projectExts, 'lib', { name: 'lib', exec: './run.sh' }, {
      'run.sh': `#!/bin/sh\n${shBody('lib', `. ./lib.sh`)}`,
      'lib.sh': `echo v1 >> '${s.marker}'\n`,
    });
    await allowThenChange(s, 'lib', () => fs.writeFileSync(path.join(dir, 'lib.sh'), `echo v2 >> '${s.marker}'\n`));
  });

  it('a script an argument names outside the directory (sh ../../../tools/x.sh)', async () => {
    const s = consentSetup();
    const tool = path.join(s.project, 'tools', 'x.sh');
    fs.mkdirSync(path.dirname(tool), { recursive: true });
    fs.writeFileSync(tool, shBody('out', `echo v1 >> '${s.marker}'`));
    writeExt(s.projectExts, 'out', { name: 'out', exec: 'sh', args: ['../../../tools/x.sh'] });
    await allowThenChange(s, 'out', () => fs.writeFileSync(tool, shBody('out', `echo v2 >> '${s.marker}'`)));
  });

  it('a new json.py dropped beside a Python extension (it shadows the standard library)', async () => {
    const s = consentSetup();
    const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name: 'py', version: '1.0.0', capabilities: [] });
    const main = [
      'import json, sys',
      `open(${JSON.stringify(s.marker)}, "a").write("v1\\n")`,
      `print(${JSON.stringify(hello)}, flush=True)`,
      'print(json.dumps({"type": "ready"}), flush=True)',
      'for line in sys.stdin:',
      '    if \'"shutdown"\' in line: break',
      '',
    ].join('\n');
    const dir = writeExt(s.projectExts, 'py', { name: 'py', exec: 'python3', args: ['main.py'] }, { 'main.py': main });
    const shadow = `open(${JSON.stringify(s.marker)}, "a").write("shadow\\n")\nimport importlib, sys\ndel sys.modules["json"]\nsys.path.pop(0)\nglobals().update(importlib.import_module("json").__dict__)\n`;
    await allowThenChange(s, 'py', () => fs.writeFileSync(path.join(dir, 'json.py'), shadow));
  });
});

describe('point 3: every spawn passes the gate, automatic restarts included', () => {
  it('allow, change run.sh, kill the process: the new run.sh waits for a new answer', async () => {
    const s = consentSetup({ autoRestart: true });
    const dir = writeExt(s.projectExts, 'crashy', { name: 'crashy', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('crashy', `echo v1 >> '${s.marker}'`)}` });
    await s.m.start();
    await s.m.answerConsent(['crashy'], 'allow');
    const pid = s.info('crashy').pid!;
    expect(s.ran()).toBe('v1\n');
    fs.writeFileSync(path.join(dir, 'run.sh'), `#!/bin/sh\n${shBody('crashy', `echo v2 >> '${s.marker}'`)}`);
    const asked: string[][] = [];
    s.m.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    process.kill(pid, 'SIGKILL');
    await until(() => s.info('crashy').state === 'consent', 10_000, `crashy waiting for consent (${s.info('crashy').state})`);
    expect(asked).toEqual([['crashy']]);
    expect(s.ran()).toBe('v1\n');
    await s.m.answerConsent(['crashy'], 'allow');
    expect(s.info('crashy').state).toBe('running');
    expect(s.ran()).toBe('v1\nv2\n');
  });
});

describe('point 15: Allow binds to the content the question was asked for', () => {
  it('content changed while the question showed: Allow asks again instead of starting it', async () => {
    const s = consentSetup();
    const dir = writeExt(s.projectExts, 'quick', { name: 'quick', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('quick', `echo v1 >> '${s.marker}'`)}` });
    const asked: string[][] = [];
    s.m.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    await s.m.start();
    const shown = s.m.pendingConsent().find((e) => e.name === 'quick')!.fingerprint!;
    fs.writeFileSync(path.join(dir, 'run.sh'), `#!/bin/sh\n${shBody('quick', `echo v2 >> '${s.marker}'`)}`);
    await s.m.answerConsent(['quick'], 'allow', { quick: shown });
    expect(s.info('quick').state).toBe('consent');
    expect(s.info('quick').fingerprint).not.toBe(shown);
    expect(asked).toEqual([['quick'], ['quick']]);
    expect(s.ran()).toBe('');
    // The row's Allow (no `seen`) is for the content it now waits with.
    await s.m.answerConsent(['quick'], 'allow');
    expect(s.info('quick').state).toBe('running');
    expect(s.ran()).toBe('v2\n');
  });
});

describe('bounds and settings', () => {
  it(`an extension of more than ${FINGERPRINT_MAX_ENTRIES} entries is refused, naming it, its directory and its log`, async () => {
    const s = consentSetup();
    const dir = writeExt(s.projectExts, 'huge', { name: 'huge', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('huge', `echo v1 >> '${s.marker}'`)}` });
    fs.mkdirSync(path.join(dir, 'node_modules'));
    for (let i = 0; i < FINGERPRINT_MAX_ENTRIES; i++) fs.writeFileSync(path.join(dir, 'node_modules', `m${i}.js`), '');
    const report = await s.m.start();
    const info = s.info('huge');
    expect(info.state).toBe('error');
    const error = report.errors.find((e) => e.ext === 'huge')!.message;
    expect(error).toContain(`huge (${dir}) not started`);
    expect(error).toContain(`more than ${FINGERPRINT_MAX_ENTRIES} entries`);
    expect(error).toContain(`Log: ${logPathFor(s.home, 'huge')}`);
    expect(info.diagnostics).toContain(error);
    expect(s.m.pendingConsent()).toEqual([]);
    expect(s.ran()).toBe('');
    // Back under the bound: it waits for consent like any other.
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true });
    await s.m.restart('huge');
    expect(s.info('huge').state).toBe('consent');
  });

  it('point 1: an explicit path inside a workspace folder is the repository\'s code: it waits for consent', async () => {
    const s = consentSetup();
    const dir = writeExt(path.join(s.project, 'tools'), 'ext', { name: 'tooled', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('tooled', `echo v1 >> '${s.marker}'`)}` });
    const outside = writeExt(tempDir('zut-explicit-'), 'mine', { name: 'mine', exec: './run.sh' }, { 'run.sh': `#!/bin/sh\n${shBody('mine', ':')}` });
    const m = s.make({ extensionPaths: [dir, outside] });
    await m.start();
    const state = (n: string) => m.extensions().find((e) => e.name === n)!.state;
    expect(state('tooled')).toBe('consent');
    expect(state('mine')).toBe('running');
    expect(s.ran()).toBe('');
    await m.answerConsent(['tooled'], 'allow');
    expect(state('tooled')).toBe('running');
  });
});
