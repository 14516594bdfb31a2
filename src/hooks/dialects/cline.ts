/**
 * Cline CLI's hook dialect (cline 3.0.65, @cline/core's hook files: `~/.cline/hooks/<Event>` or `<ws>/.cline/hooks/
 * <Event>`, an executable per event named PreToolUse, PostToolUse, UserPromptSubmit, TaskStart, TaskResume,
 * TaskCancel, TaskComplete, TaskError, PreCompact, SessionShutdown). Its payload is its own: `hookName` (`tool_call`,
 * `tool_result`, `prompt_submit`, `agent_start`, …), `taskId`, `workspaceRoots`, `tool_call: {id, name, input}` /
 * `tool_result: {id, name, input, output, error}`, `userPromptSubmit: {prompt}` — read here as input.ts's fields.
 * Its answer is one JSON object on stdout (or the last `HOOK_CONTROL\t{…}` line): `{cancel: true, errorMessage}`
 * stops the whole run (the reason is the run's error: the person reads it, the model does not), `overrideInput`
 * replaces the tool's input, `contextModification` is added for the model. It reads no exit code, and a hook that
 * times out (120 s), crashes or prints nothing lets the call run: the installed script (agentSetup/agents/cline.ts)
 * turns those into a cancel. Its MCP tools are `<server>__<tool>`. PromptSubmit, TaskStart and the rest run detached
 * (their output unread): no context and no blocked prompt reach Cline from them. VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, rewriteNote, type HookDialect } from './types';

const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Cline's payload in the field names input.ts reads (the agent's own fields kept beside them). */
function normalize(raw: Record<string, unknown>): Record<string, unknown> {
  const call = obj(raw.tool_call) ?? obj(raw.tool_result);
  const result = obj(raw.tool_result);
  const roots = Array.isArray(raw.workspaceRoots) ? raw.workspaceRoots : [];
  const prompt = str(obj(raw.userPromptSubmit)?.prompt);
  return {
    ...raw,
    session_id: str(raw.taskId),
    cwd: str(roots[0]),
    ...(call && { tool_name: str(call.name), tool_input: call.input ?? {}, tool_use_id: str(call.id) }),
    ...(result && { tool_response: result.error !== undefined ? { error: result.error, output: result.output } : result.output }),
    ...(prompt !== undefined && { prompt }),
  };
}

export const CLINE: HookDialect = {
  agent: 'cline',
  eventNames: {
    taskstart: 'SessionStart',
    taskresume: 'SessionStart',
    taskcomplete: 'Stop',
    sessionshutdown: 'SessionEnd',
  },
  mcpToolPrefixes: [`${MCP_SERVER_NAME}__`],
  normalize,
  deny: (_call, reason) => json({ cancel: true, errorMessage: reason }),
  rewrite: (_call, r) => json({ cancel: false, overrideInput: r.updated, contextModification: rewriteNote(r) }),
  context: (_call, _event, text) => json({ contextModification: text }),
  blockPrompt: (_call, reason) => json({ cancel: true, errorMessage: reason }),
};
