/**
 * Qwen Code's hook dialect (@qwen-code/qwen-code 0.24.4; its hooks are Claude Code's: `hooks.<Event>[{matcher,
 * hooks: [{type: "command", command, timeout}]}]` in `~/.qwen/settings.json` or `.qwen/settings.json`, PascalCase
 * events, snake_case input `tool_name`/`tool_input`/`tool_use_id`). What it honours (its hook output classes and
 * firePreToolUseHook): on PreToolUse `hookSpecificOutput.permissionDecision` deny (the reason goes back to the model as
 * the tool's error), ask, `continue: false`, and `additionalContext`; `updatedInput` only in a PermissionRequest's
 * `decision` — so a rewrite in PreToolUse cannot be taken and is denied, naming the rewrite. A blocked prompt is
 * `decision: "block"`. A hook that fails (exit other than 0 and 2, a timeout, a crash) lets the call run; exit 2 denies
 * with stderr: the installed command line (agentSetup/agents/qwen.ts) maps a failure to exit 2. Its MCP tools are
 * `mcp__<server>__<tool>`. VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, specific, type HookDialect } from './types';

const denial = (reason: string) => specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason });

export const QWEN: HookDialect = {
  agent: 'qwen',
  mcpToolPrefixes: [`mcp__${MCP_SERVER_NAME}__`],
  deny: (_call, reason) => denial(reason),
  rewrite: (_call, r) =>
    denial(`zut: the guard ${r.by.join(', ')} would change this ${r.toolName} call's input, and Qwen Code cannot take a changed input from a PreToolUse hook: blocked. Retry with the changed input: ${JSON.stringify(r.updated)}`),
  context: (_call, event, text) => specific(event, { additionalContext: text }),
  blockPrompt: (_call, reason) => json({ decision: 'block', reason }),
};
