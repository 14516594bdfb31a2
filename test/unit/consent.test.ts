import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consentPrompt, contentFingerprint, decideGate, rememberConsent, setDisabledInWorkspace } from '../../src/host/extensions/consent';
import { MemoryChoices, cleanupTemps, tempDir, writeExt } from './helpers/hostFixtures';

afterEach(cleanupTemps);

describe('consent decisions', () => {
  it('project scope in "ask" needs an answer for the current fingerprint; global and explicit never; trustedWorkspace never', async () => {
    const choices = new MemoryChoices();
    const ask = { mode: () => 'ask' as const, choices };
    const proj = { dir: '/w/.zut/extensions/a', scope: 'project' as const };
    expect(decideGate(proj, 'f1', ask)).toBe('consent');
    expect(decideGate({ ...proj, scope: 'global' }, 'f1', ask)).toBeUndefined();
    expect(decideGate({ ...proj, scope: 'explicit' }, 'f1', ask)).toBeUndefined();
    expect(decideGate(proj, 'f1', { ...ask, mode: () => 'trustedWorkspace' })).toBeUndefined();
    await rememberConsent(choices, proj.dir, { answer: 'allow', fingerprint: 'f1' });
    expect(decideGate(proj, 'f1', ask)).toBeUndefined();
    expect(decideGate(proj, 'f2', ask)).toBe('consent');
    await rememberConsent(choices, proj.dir, { answer: 'deny', fingerprint: 'f2' });
    expect(decideGate(proj, 'f2', ask)).toBe('denied');
    choices.set(`zut.consent:${proj.dir}`, { answer: 'maybe', fingerprint: 'f2' });
    expect(decideGate(proj, 'f2', ask)).toBe('consent');
    await setDisabledInWorkspace(choices, proj.dir, true);
    expect(decideGate({ ...proj, scope: 'global' }, undefined, ask)).toBe('workspace-disabled');
  });

  it('the fingerprint covers extension.json, the executable and script arguments inside the directory', async () => {
    const root = tempDir();
    const dir = writeExt(root, 'x', { name: 'x', exec: 'node', args: ['main.js', '--flag'] }, { 'main.js': 'v1', 'other.txt': 'a' });
    const ext = { dir, manifestPath: path.join(dir, 'extension.json'), exec: 'node', args: ['main.js', '--flag'] };
    const f1 = await contentFingerprint(ext);
    expect(await contentFingerprint(ext)).toBe(f1);
    fs.writeFileSync(path.join(dir, 'other.txt'), 'b');
    expect(await contentFingerprint(ext)).toBe(f1); // unrelated files do not count
    fs.writeFileSync(path.join(dir, 'main.js'), 'v2');
    const f2 = await contentFingerprint(ext);
    expect(f2).not.toBe(f1);
    fs.writeFileSync(ext.manifestPath, JSON.stringify({ name: 'x', exec: 'node', args: ['main.js', '--flag'], description: 'd' }));
    expect(await contentFingerprint(ext)).not.toBe(f2);
    const sh = writeExt(root, 'y', { name: 'y', exec: './run.sh' }, { 'run.sh': '#!/bin/sh\n' });
    const g1 = await contentFingerprint({ dir: sh, manifestPath: path.join(sh, 'extension.json'), exec: './run.sh' });
    fs.writeFileSync(path.join(sh, 'run.sh'), '#!/bin/sh\necho changed\n');
    expect(await contentFingerprint({ dir: sh, manifestPath: path.join(sh, 'extension.json'), exec: './run.sh' })).not.toBe(g1);
  });

  it('the prompt names every pending extension', () => {
    expect(consentPrompt(['a', 'b', 'c'])).toBe('This workspace wants to run 3 zut extensions: a, b, c');
    expect(consentPrompt(['a'])).toBe('This workspace wants to run 1 zut extension: a');
  });
});
