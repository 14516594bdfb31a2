import { afterEach, describe, expect, it } from 'vitest';
import { consentPrompt, decideGate, needsConsent, rememberConsent, setDisabledInWorkspace } from '../../src/host/extensions/consent';
import { MemoryChoices, cleanupTemps } from '../helpers/hostFixtures';

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

  it('point 1: a global or explicit extension inside a workspace folder needs consent like a project one', () => {
    const choices = new MemoryChoices();
    const ask = { mode: () => 'ask' as const, choices };
    const folders = ['/w'];
    expect(decideGate({ dir: '/w/tools/ext', scope: 'explicit' }, 'f1', ask, folders)).toBe('consent');
    expect(decideGate({ dir: '/w/.zuthome/extensions/x', scope: 'global' }, 'f1', ask, folders)).toBe('consent');
    expect(decideGate({ dir: '/home/me/zut/extensions/x', scope: 'global' }, 'f1', ask, folders)).toBeUndefined();
    expect(decideGate({ dir: '/w2/x', scope: 'explicit' }, 'f1', ask, folders)).toBeUndefined();
    expect(needsConsent({ dir: '/w/tools/ext', scope: 'explicit' }, 'trustedWorkspace', folders)).toBe(false);
  });

  it('the prompt names every pending extension', () => {
    expect(consentPrompt(['a', 'b', 'c'])).toBe('This workspace wants to run 3 zut extensions: a, b, c');
    expect(consentPrompt(['a'])).toBe('This workspace wants to run 1 zut extension: a');
  });
});
