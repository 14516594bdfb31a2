/**
 * A denial in the agent's format, and the agent's documented behaviour for a hook that fails (malformed input, our
 * own failure): open for VS Code and Claude Code (exit 1, a warning on stderr), closed for Copilot CLI's preToolUse:
 * a deny on stdout with exit 0, since GitHub's hooks reference says a failing hook (non-zero exit, timeout) is
 * logged and skipped, while a deny with exit 0 blocks under every reading; the reason also goes to stderr. Shared
 * by the CLI, the light entry (src/hook.ts) and the answers. VS Code-free.
 */
import { sanitizeText } from '../host/disk/doctor';
import type { HookAnswer, HookCall } from './names';

const json = (o: unknown): HookAnswer => ({ stdout: JSON.stringify(o) + '\n', exitCode: 0 });

/** A denial in the agent's format. */
export function deny(call: HookCall, reason: string): HookAnswer {
  if (call.agent === 'copilot-cli' && call.camel) return json({ permissionDecision: 'deny', permissionDecisionReason: reason });
  return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
}

/** The answer of a hook that failed, saying why on stderr. */
export function hookFailure(call: HookCall, why: string): HookAnswer {
  const text = sanitizeText(`zut-host hook: ${why}`);
  if (call.agent === 'copilot-cli' && call.event === 'PreToolUse') return { ...deny(call, text), stderr: text + '\n', exitCode: 0 };
  return { stdout: '', stderr: text + '\n', exitCode: 1 };
}
