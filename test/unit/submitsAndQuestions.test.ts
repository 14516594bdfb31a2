// Issue 20, "Also seen in the code": the `@zut` submit queue is bounded per extension (SubmitQueue), and an
// extension's questions are rate-limited and refused after "Don't ask again" (QuestionGate).
import { describe, expect, it } from 'vitest';
import { SubmitQueue } from '../../src/ui-model/submitQueue';
import { QuestionGate, QuestionRefusedError } from '../../src/ui-model/questionGate';
import { CHAT_PENDING_SUBMITS_PER_EXT, QUESTION_WINDOW_MS, QUESTIONS_PER_WINDOW } from '../../src/protocol/limits';

function drain(q: SubmitQueue): string[] {
  const out: string[] = [];
  for (let s = q.shift(); s; s = q.shift()) out.push(`${s.ext}:${s.text}`);
  return out;
}

describe('SubmitQueue (one pending @zut submit per extension)', () => {
  it('a flood of 10,000 submits from one extension leaves one pending: its latest', () => {
    const q = new SubmitQueue();
    expect(CHAT_PENDING_SUBMITS_PER_EXT).toBe(1);
    let replaced = 0;
    for (let i = 0; i < 10_000; i++) if (q.push('flood', `p${i}`)) replaced++;
    expect(replaced).toBe(9_999);
    expect(q.size).toBe(1);
    expect(drain(q)).toEqual(['flood:p9999']);
    expect(q.size).toBe(0);
  });

  it('says which submit it replaced; extensions do not replace each other; names are case-insensitive', () => {
    const q = new SubmitQueue();
    expect(q.push('a', 'one')).toBeUndefined();
    expect(q.push('b', 'two')).toBeUndefined();
    expect(q.push('A', 'three')).toEqual({ ext: 'a', text: 'one' });
    // Order is each pending submit's latest arrival: b's, then A's replacement.
    expect(drain(q)).toEqual(['b:two', 'A:three']);
  });
});

describe('QuestionGate (questions per extension: a rate, and "Don\'t ask again")', () => {
  it(`admits ${QUESTIONS_PER_WINDOW} questions per window, refuses the next with an error naming the extension, admits again later`, () => {
    let t = 1_000_000;
    const gate = new QuestionGate(() => t);
    for (let i = 0; i < QUESTIONS_PER_WINDOW; i++) gate.admit('nagger');
    expect(() => gate.admit('nagger')).toThrow(QuestionRefusedError);
    expect(() => gate.admit('NAGGER')).toThrow(/question refused: NAGGER asked 3 questions/);
    // Another extension is not affected.
    gate.admit('polite');
    t += QUESTION_WINDOW_MS;
    for (let i = 0; i < QUESTIONS_PER_WINDOW; i++) gate.admit('nagger');
    expect(() => gate.admit('nagger')).toThrow(QuestionRefusedError);
  });

  it('refuses every later question of a silenced extension, and one admitted before the choice', () => {
    let t = 0;
    const gate = new QuestionGate(() => t);
    gate.admit('nagger'); // waiting its turn behind the modal
    gate.silence('nagger');
    expect(() => gate.stillAllowed('nagger')).toThrow(/Don't ask again/);
    t += 10 * QUESTION_WINDOW_MS;
    expect(() => gate.admit('Nagger')).toThrow(/question refused: Nagger may not ask again this session/);
    gate.admit('polite');
    gate.stillAllowed('polite');
  });
});
