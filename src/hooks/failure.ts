/**
 * A denial in the agent's format, and what a hook that failed (malformed or oversized input, our own failure)
 * answers. A PreToolUse the guards could not judge is **denied** for every agent — a deny on stdout with exit 0, the
 * reason also on stderr — since each agent treats a failing hook (a non-zero exit other than 2, a timeout) as
 * "continue": VS Code a warning, Claude Code a non-blocking error, Copilot CLI "logged and skipped" (GitHub's hooks
 * reference). Other events fail the agent's way: exit 1 with a warning on stderr. Shared by the CLI, the light entry
 * (src/hook.ts) and the answers. VS Code-free.
 */
import { sanitizeText } from '../host/terminalText';
import type { HookAnswer, HookCall } from './names';
import { dialectOf } from './dialects';

/** A denial in the agent's format (its dialect). */
export function deny(call: HookCall, reason: string): HookAnswer {
  return dialectOf(call.agent).deny(call, reason);
}

/** The answer of a hook that failed, saying why on stderr: PreToolUse denies (fail closed). */
export function hookFailure(call: HookCall, why: string): HookAnswer {
  const text = sanitizeText(`zut-host hook: ${why}`);
  if (call.event === 'PreToolUse') return { ...deny(call, `blocked by zut: ${text}`), stderr: text + '\n', exitCode: 0 };
  return { stdout: '', stderr: text + '\n', exitCode: 1 };
}

/** What the hook's deadline gives when `who` did not answer within `budgetMs`: PreToolUse denies, the rest fail. */
export function lateAnswer(call: HookCall, who: string, budgetMs: number): HookAnswer {
  const why = `${who} did not answer within ${Math.round(budgetMs / 1000)} s`;
  return hookFailure(call, why);
}
