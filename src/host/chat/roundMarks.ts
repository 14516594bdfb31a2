/**
 * Timing marks of `@zut`'s rounds for `npm run bench:ui`, whose row 4 splits a tool round into our code, the guarded
 * call and VS Code's hops. Recorded only when the extension host's environment has ZUT_BENCH_MARKS=1 (set by the bench
 * alone); otherwise `roundMark` returns at once. Kept (the newest CHAT_ROUND_MARKS_MAX) on `globalThis` under a
 * registered symbol, where the bench agent, in the same extension host, reads and clears them (the marks are made in
 * dist/chat.js, which the bench cannot import).
 */
import { CHAT_ROUND_MARKS_MAX as MARKS_MAX } from '../../protocol/limits';

/** Where in a round: the model request sent, a part of its reply received, its reply ended, a tool call started / answered. */
export type RoundMarkName = 'modelSend' | 'modelPart' | 'modelEnd' | 'toolStart' | 'toolResolved';
/** A mark: its name and when (epoch ms, high resolution). */
export type RoundMark = [RoundMarkName, number];

/** The key of the list on `globalThis` (bench/ui/inhost.mjs reads `Symbol.for` of the same name). */
export const ROUND_MARKS_KEY = Symbol.for('zut.bench.roundMarks');

export function roundMark(name: RoundMarkName, env: NodeJS.ProcessEnv = process.env): void {
  if (env.ZUT_BENCH_MARKS !== '1') return;
  const g = globalThis as Record<symbol, unknown>;
  const list = Array.isArray(g[ROUND_MARKS_KEY]) ? (g[ROUND_MARKS_KEY] as RoundMark[]) : (g[ROUND_MARKS_KEY] = []);
  list.push([name, performance.timeOrigin + performance.now()]);
  if (list.length > MARKS_MAX) list.splice(0, list.length - MARKS_MAX);
}
