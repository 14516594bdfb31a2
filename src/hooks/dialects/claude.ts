/**
 * Claude Code's hook dialect (code.claude.com hooks reference; Claude Code 2.1.328 in test/agents): PascalCase
 * events, snake_case input, `hookSpecificOutput` answers; MCP tools `mcp__zut__<tool>`. A rewrite is `updatedInput`
 * without a decision (its own permission rules stay in charge: `ask` is a denial where nobody can be asked, `claude
 * -p`); a blocked prompt `decision: "block"`. VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, rewriteNote, specific, type HookDialect } from './types';

export const CLAUDE: HookDialect = {
  agent: 'claude',
  mcpToolPrefixes: [`mcp__${MCP_SERVER_NAME}__`],
  deny: (_call, reason) => specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason }),
  rewrite: (_call, r) => specific('PreToolUse', { updatedInput: r.updated, additionalContext: rewriteNote(r) }),
  context: (_call, event, text) => specific(event, { additionalContext: text }),
  blockPrompt: (_call, reason) => json({ decision: 'block', reason }),
};
