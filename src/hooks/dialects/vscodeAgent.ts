/**
 * VS Code's agent's hook dialect (its Local harness; code.visualstudio.com "Agent hooks"): Claude Code's PascalCase
 * events and `hookSpecificOutput` answers, snake_case or camelCase input (input.ts reads both); MCP tools
 * `mcp_zut_<tool>`. A rewrite is `updatedInput` without a decision; a blocked prompt the common `continue: false`.
 * VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, rewriteNote, specific, type HookDialect } from './types';

export const VSCODE: HookDialect = {
  agent: 'vscode',
  mcpToolPrefixes: [`mcp_${MCP_SERVER_NAME}_`],
  deny: (_call, reason) => specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason }),
  rewrite: (_call, r) => specific('PreToolUse', { updatedInput: r.updated, additionalContext: rewriteNote(r) }),
  context: (_call, event, text) => specific(event, { additionalContext: text }),
  blockPrompt: (_call, reason) => json({ continue: false, stopReason: reason }),
};
