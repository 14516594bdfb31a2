/**
 * The hook tool of `zut-host mcp` (`zut_hook`): Claude Code's `mcp_tool` hooks (src/hooks/mcpHook.ts) answered by the
 * MCP server's own host, its extensions already warm and its guard door in this process — no process per tool call.
 * It stays out of every model's way: it is listed only to a client that says it is Claude Code (`initialize`'s
 * `clientInfo.name`), and there with MCP Apps' `_meta.ui.visibility: ["app"]`, which Claude Code 2.1.328 honours by
 * leaving the tool out of the model's tool list while its hooks may still call it (its model then gets "No such tool
 * available"; test/agents/mcpHook.test.mjs); a call on any other connection is refused. A call answers through
 * answerInTime, bounded by the hook budget (names.ts hookBudgetMs), and skips this server's own tools as a hook does
 * (answer.ts): each call guarded once. VS Code-free.
 */
import { CallMemory } from '../hooks/callMemory';
import { answerInTime } from '../hooks/server';
import type { HookAnswerHost } from '../hooks/answer';
import { hookFailure } from '../hooks/failure';
import { readHookInput } from '../hooks/input';
import { MCP_HOOK_TOOL, mcpHookResult, readMcpHookArguments } from '../hooks/mcpHook';
import { hookBudgetMs } from '../hooks/names';
import type { McpHookTool } from './server';

/**
 * The hook tool answered by `host` (stdio.ts hands it to the connection), with one memory of the agent's calls for
 * the server's life, as a HookServer keeps: a PermissionRequest or PostToolUse finds the PreToolUse it follows.
 */
export function hookTool(host: HookAnswerHost): McpHookTool {
  const memory = new CallMemory();
  return { definition, call: (args) => callHookTool(host, memory, args) };
}

/** The tool's definition as listed to Claude Code. */
const definition: McpHookTool['definition'] = {
  name: MCP_HOOK_TOOL,
  title: "zut's agent hook (not for the model)",
  description:
    "Claude Code's mcp_tool hooks call this to have zut's guards judge a tool call or hear an event (zut-host hook install --agent claude --with-mcp). Not for the model.",
  inputSchema: { type: 'object', properties: { agent: { type: 'string' }, event: { type: 'string' } }, required: ['agent', 'event'] },
  annotations: { title: "zut's agent hook (not for the model)", readOnlyHint: false, openWorldHint: false },
  _meta: { ui: { visibility: ['app'] } },
};

/** One hook tool call: the hook input in `args` answered by `host`; the result Claude Code reads as the hook's output. */
async function callHookTool(host: HookAnswerHost, memory: CallMemory, args: unknown): Promise<{ content: { type: 'text'; text: string }[]; isError: boolean }> {
  const read = readMcpHookArguments(args);
  if (typeof read === 'string') return { content: [{ type: 'text', text: `zut: ${read}` }], isError: true };
  const input = readHookInput(read.raw, read.call);
  const answer = typeof input === 'string' ? hookFailure(read.call, input) : await answerInTime(host, read.call, input, hookBudgetMs(), memory);
  const r = mcpHookResult(read.call, answer);
  return { content: [{ type: 'text', text: r.text }], isError: r.isError };
}
