/**
 * `@zut` round marks for `npm run bench:ui` (src/host/chat/roundMarks.ts): off unless ZUT_BENCH_MARKS=1, bounded, and
 * the loop marks a tool call's start and answer around the real guarded call.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoop } from '../../src/host/chat/loop';
import { ROUND_MARKS_KEY, roundMark, type RoundMark } from '../../src/host/chat/roundMarks';
import { CHAT_ROUND_MARKS_MAX } from '../../src/protocol/limits';
import { EXAMPLES, RecordingSink, ScriptedModel, call, cleanup, startManager, text } from '../fixtures/chat/helpers';

const g = globalThis as Record<symbol, unknown>;
const marks = () => g[ROUND_MARKS_KEY] as RoundMark[] | undefined;
const saved = process.env.ZUT_BENCH_MARKS;

afterEach(async () => {
  delete g[ROUND_MARKS_KEY];
  if (saved === undefined) delete process.env.ZUT_BENCH_MARKS;
  else process.env.ZUT_BENCH_MARKS = saved;
  await cleanup();
});

describe('@zut round marks', () => {
  it('records nothing without ZUT_BENCH_MARKS=1', () => {
    roundMark('modelSend', {});
    roundMark('modelSend', { ZUT_BENCH_MARKS: '0' });
    expect(marks()).toBeUndefined();
  });

  it('records each mark in order, with an epoch time, when switched on', () => {
    const before = performance.timeOrigin + performance.now();
    roundMark('modelSend', { ZUT_BENCH_MARKS: '1' });
    roundMark('modelEnd', { ZUT_BENCH_MARKS: '1' });
    const m = marks()!;
    expect(m.map(([n]) => n)).toEqual(['modelSend', 'modelEnd']);
    expect(m[0][1]).toBeGreaterThanOrEqual(before);
    expect(m[1][1]).toBeGreaterThanOrEqual(m[0][1]);
    expect(m[1][1]).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('keeps only the newest CHAT_ROUND_MARKS_MAX', () => {
    for (let i = 0; i < CHAT_ROUND_MARKS_MAX + 5; i++) roundMark(i < CHAT_ROUND_MARKS_MAX + 4 ? 'modelPart' : 'modelEnd', { ZUT_BENCH_MARKS: '1' });
    expect(marks()).toHaveLength(CHAT_ROUND_MARKS_MAX);
    expect(marks()!.at(-1)![0]).toBe('modelEnd');
  });

  it("the loop marks a tool call's start, then its answer", async () => {
    process.env.ZUT_BENCH_MARKS = '1';
    const host = await startManager([path.join(EXAMPLES, 'weather')]);
    const model = new ScriptedModel([[call('weather', { city: 'Berlin' })], [text('Foggy.')]]);
    const r = await runLoop({ host, model, sink: new RecordingSink(), history: [], prompt: 'hi', maxRounds: 4, signal: new AbortController().signal, session: { id: 'marks' } });
    expect(r.stop).toBe('end_turn');
    expect(marks()!.map(([n]) => n)).toEqual(['toolStart', 'toolResolved']);
    expect(marks()![1][1]).toBeGreaterThan(marks()![0][1]);
  });
});
