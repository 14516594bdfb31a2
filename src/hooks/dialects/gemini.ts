/**
 * Gemini CLI's hook dialect (Gemini CLI 0.61.0 in test/agents, its bundle's hookRunner/hookAggregator/scheduler;
 * payloads recorded in test/agents/fixtures/gemini/). Its own PascalCase events: `BeforeTool` (our PreToolUse),
 * `AfterTool` (PostToolUse), `BeforeAgent` (UserPromptSubmit: `prompt`), `AfterAgent` (Stop), `SessionStart`,
 * `SessionEnd`, `Notification`; snake_case input (`session_id`, `cwd`, `tool_name`, `tool_input`, `tool_response`,
 * `prompt`, `source`), no tool call id. Answers are top-level: a deny `{"decision": "deny", "reason"}` (the model
 * reads `Tool execution blocked: <reason>`; Claude Code's `hookSpecificOutput.permissionDecision` is ignored), a
 * rewrite `hookSpecificOutput.tool_input` — the scheduler builds the call from it whole and only then runs its own
 * policy (`checkPolicy` after `evaluateBeforeToolHook`), so a rewrite never widens what Gemini CLI's own rules let
 * run —, context `hookSpecificOutput.additionalContext` (SessionStart, BeforeAgent: added to the prompt), a blocked
 * prompt `decision: "deny"` on BeforeAgent. Its failure rule is open (exit 1, a timeout, a process killed before
 * writing: the call runs): our own failures answer a deny on stdout (failure.ts), and the installed BeforeTool
 * command maps any other exit to exit 2 with a reason on stderr, which Gemini CLI reads as a deny
 * (agentSetup/agents/geminiSettings.ts). MCP tools `mcp_<server>_<tool>`: ours `mcp_zut_<tool>`. VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, type HookDialect } from './types';

/** Gemini CLI's tool result (`{llmContent, returnDisplay, error?}`) as the `{textResultForLlm, resultType}` answer.ts reads. */
function toolResponse(r: unknown): unknown {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return r;
  const o = r as Record<string, unknown>;
  if (typeof o.llmContent !== 'string') return r;
  return { textResultForLlm: o.llmContent, resultType: o.error === undefined || o.error === null ? 'success' : 'failure' };
}

export const GEMINI: HookDialect = {
  agent: 'gemini',
  eventNames: { beforetool: 'PreToolUse', aftertool: 'PostToolUse', beforeagent: 'UserPromptSubmit', afteragent: 'Stop' },
  mcpToolPrefixes: [`mcp_${MCP_SERVER_NAME}_`],
  normalize: (raw) => (raw.tool_response === undefined ? raw : { ...raw, tool_response: toolResponse(raw.tool_response) }),
  deny: (_call, reason) => json({ decision: 'deny', reason }),
  rewrite: (_call, r) => json({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: r.updated } }),
  context: (_call, event, text) => json({ hookSpecificOutput: { hookEventName: event === 'SessionStart' ? 'SessionStart' : 'BeforeAgent', additionalContext: text } }),
  blockPrompt: (_call, reason) => json({ decision: 'deny', reason }),
};
