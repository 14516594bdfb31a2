/**
 * Markdown building blocks for extension text shown as data (the doctor report, chat output, tool results).
 * Imports no `vscode`.
 */

/** The longest run of `ch` in `s`. */
export function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * A fenced code block holding `text` verbatim: the fence (at least three backticks) is longer than any backtick
 * run inside, so no content line can close it. `info` is the info string (e.g. `text`).
 */
export function fencedBlock(text: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}
