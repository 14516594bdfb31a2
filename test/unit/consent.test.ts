import { afterEach, describe, expect, it } from 'vitest';
import { CHANGE_CONSENT_HINT, consentQuestion } from '../../src/ui-model/consentQuestion';
import { decideGate, needsConsent, rememberConsent, setDisabledInWorkspace } from '../../src/host/extensions/consent';
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

  it('issue 32 point 3: the first question names each extension and what it runs, says it runs as the user, that the answer is kept per content and where to change it', () => {
    const q = consentQuestion([
      { name: 'todo', exec: './todo.mjs', args: [], description: 'A persistent todo list' },
      { name: 'evil\u202e', exec: 'sh', args: ['x.sh'], description: 'line one\nline two\x07' },
    ]);
    expect(q.first).toBe(true);
    expect(q.message).toBe('Allow 2 zut extensions from this workspace to run?');
    const lines = q.detail.split('\n');
    expect(lines.slice(0, 2)).toEqual(['• todo: runs ./todo.mjs — A persistent todo list', '• evil\\u{202e}: runs sh x.sh — line one line two\\x07']);
    expect(q.detail).toContain('They are programs from this repository (.zut/extensions). Allowed, they run as you, with your files, network and credentials');
    expect(q.detail).toContain('guards that see and can block tool calls');
    expect(q.detail).toContain('kept in this workspace for exactly this content: if an extension\'s files change, you are asked again');
    expect(q.detail).toContain(CHANGE_CONSENT_HINT);
    expect(consentQuestion([{ name: 'a', args: [] }]).message).toBe('Allow the zut extension "a" from this workspace to run?');
    const many = consentQuestion(Array.from({ length: 20 }, (_, i) => ({ name: `e${i}`, exec: './run.sh', args: [], description: 'x'.repeat(500) })));
    expect(many.detail.split('\n').filter((l) => l.startsWith('• '))).toHaveLength(12);
    expect(many.detail).toContain('… and 8 more');
    expect(Math.max(...many.detail.split('\n').filter((l) => l.startsWith('• ')).map((l) => l.length))).toBe(160);
  });

  it('content changed since it was allowed: a notification, not a modal', () => {
    expect(consentQuestion([{ name: 'a', args: [], allowedBefore: true }])).toEqual({ first: false, message: 'a changed since you allowed it: run the new content? (zut extension from this workspace)', detail: '' });
    expect(consentQuestion([{ name: 'a', args: [], allowedBefore: true }, { name: 'b', args: [], allowedBefore: true }]).message).toBe('a and b changed since you allowed them: run the new content? (zut extensions from this workspace)');
    expect(consentQuestion([{ name: 'a', args: [], allowedBefore: true }, { name: 'b', args: [] }]).first).toBe(true);
  });
});
