/**
 * Codex CLI's hook dialect (openai/codex hooks; Codex CLI 0.169.0 in test/agents/codex.test.mjs, payloads in
 * test/agents/fixtures/codex/): Claude Code's PascalCase events (SessionStart, UserPromptSubmit, PreToolUse,
 * PermissionRequest, PostToolUse, Stop) and snake_case input; its shell tool reaches hooks as `Bash {command}`, its
 * patch tool as `apply_patch`, MCP tools as `mcp__zut__<tool>`. A deny is `hookSpecificOutput.permissionDecision:
 * "deny"` with a non-empty reason (the model reads "Command blocked by PreToolUse hook: <reason>").
 *
 * A rewrite is answered as a **deny whose reason carries the rewritten input**, so the model can issue it again as a
 * call of its own — which then meets Codex's own rules and this hook afresh. Codex takes `updatedInput` only beside
 * `permissionDecision: "allow"` (without it the answer is a hook failure and the ORIGINAL call runs: observed), and an
 * "allow" is a decision of its own: it answers the call before Codex's approval step, so an allow would let a
 * rewritten call skip an approval prompt the person would otherwise have seen (in `codex exec` the sandbox still
 * applied to it — observed — but `exec` never prompts, so that half cannot be shown here). A guard's rewrite must never
 * widen what Codex permits: a deny cannot. A blocked prompt is `decision: "block"`; context `additionalContext`.
 * VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, specific, type HookDialect, type HookRewrite } from './types';

/** The deny a rewrite is answered with: the rewritten input as the model should issue it (a command as it is, else JSON). */
export function codexRewriteReason(r: HookRewrite): string {
  const c = (r.updated as { command?: unknown } | null)?.command;
  return `zut: the guard ${r.by.join(', ')} rewrote this ${r.toolName} call (not run); issue it as rewritten: ${r.toolName === 'Bash' && typeof c === 'string' ? c : JSON.stringify(r.updated)}`;
}

/** Codex's deny (its reason must not be empty: zut's never are, "blocked by <who>: …"). */
const denyAnswer = (reason: string) => specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason });

export const CODEX: HookDialect = {
  agent: 'codex',
  mcpToolPrefixes: [`mcp__${MCP_SERVER_NAME}__`],
  deny: (_call, reason) => denyAnswer(reason),
  rewrite: (_call, r) => denyAnswer(codexRewriteReason(r)),
  context: (_call, event, text) => specific(event, { additionalContext: text }),
  blockPrompt: (_call, reason) => json({ decision: 'block', reason }),
};
