/**
 * GitHub Copilot CLI's hook dialect (docs.github.com hooks reference; Copilot CLI 1.0.102 in test/agents). Its own
 * camelCase events (`preToolUse`, `userPromptSubmitted`, `agentStop`; `call.camel`) take `permissionDecision` and
 * `modifiedArgs` at the top level, no context, and ignore output on a prompt (a block is exit 2 with the reason on
 * stderr); its PascalCase events ("VS Code compatible") answer as Claude Code. MCP tools `zut-<tool>` (and Claude
 * Code's form in PascalCase events). VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, NOTHING, rewriteNote, specific, type HookDialect } from './types';

export const COPILOT_CLI: HookDialect = {
  agent: 'copilot-cli',
  eventNames: { userpromptsubmitted: 'UserPromptSubmit', agentstop: 'Stop' },
  mcpToolPrefixes: [`${MCP_SERVER_NAME}-`, `mcp__${MCP_SERVER_NAME}__`],
  deny: (call, reason) =>
    call.camel ? json({ permissionDecision: 'deny', permissionDecisionReason: reason }) : specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: reason }),
  rewrite: (call, r) => (call.camel ? json({ modifiedArgs: r.updated }) : specific('PreToolUse', { updatedInput: r.updated, additionalContext: rewriteNote(r) })),
  context: (call, event, text) => (call.camel ? NOTHING : specific(event, { additionalContext: text })),
  blockPrompt: (call, reason) => (call.camel ? { stdout: '', stderr: reason + '\n', exitCode: 2 } : json({ continue: false, stopReason: reason })),
};
