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

/** The rewritten input as the model should issue it: a shell command as it is, anything else as JSON. */
function rewrittenText(r: HookRewrite): string {
  const u = r.updated;
  const command = typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>).command : undefined;
  return r.toolName === 'Bash' && typeof command === 'string' ? command : JSON.stringify(u);
}

/** The deny a rewrite is answered with (exported for the tests). */
export function codexRewriteReason(r: HookRewrite): string {
  return `zut: the guard ${r.by.join(', ')} rewrote this ${r.toolName} call instead of running it; it did not run. To go on, issue the rewritten call yourself: ${rewrittenText(r)}`;
}

const denyAnswer = (reason: string) => specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason || 'blocked by zut' });

export const CODEX: HookDialect = {
  agent: 'codex',
  mcpToolPrefixes: [`mcp__${MCP_SERVER_NAME}__`],
  deny: (_call, reason) => denyAnswer(reason),
  rewrite: (_call, r) => denyAnswer(codexRewriteReason(r)),
  context: (_call, event, text) => specific(event, { additionalContext: text }),
  blockPrompt: (_call, reason) => json({ decision: 'block', reason }),
};
