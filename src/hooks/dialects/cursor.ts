/**
 * Cursor's hook dialect, from Cursor's hooks documentation (cursor.com/docs/hooks; documented only: Cursor does not
 * run here). Events in camelCase: `preToolUse`/`postToolUse` for every tool (what zut installs), also
 * `beforeShellExecution`/`beforeMCPExecution`/`beforeReadFile` and `afterShellExecution`/`afterMCPExecution`/
 * `afterFileEdit` (read as PreToolUse/PostToolUse of `Shell`, `MCP:<tool>`, `Read`, `Write`), `sessionStart`,
 * `beforeSubmitPrompt`, `stop`, `subagentStop`, `sessionEnd`. Input: snake_case with `conversation_id` (our session),
 * `workspace_roots`, `tool_name`/`tool_input`/`tool_use_id`, `tool_output` after. Answers: `{permission: "deny",
 * agent_message, user_message}` (a deny the model reads), `updated_input` WITHOUT a permission (Cursor's own approval
 * of the call stays in charge: a rewrite never widens it), `additional_context` at sessionStart, `{continue: false,
 * user_message}` for a prompt (beforeSubmitPrompt takes no context). Cursor fails OPEN on a hook that crashes or
 * times out unless the entry says `failClosed: true`, which our installer writes. No MCP prefix is ours: Cursor names
 * an MCP tool `MCP:<tool>` without its server, so a tool of another server could pass for ours — every MCP call is
 * judged on the hook path too. VS Code-free.
 */
import { json, NOTHING, type HookDialect } from './types';

/** The specific before/after events, as the tool the generic events would name. */
const SPECIFIC_TOOL: Readonly<Record<string, string>> = {
  beforeShellExecution: 'Shell',
  afterShellExecution: 'Shell',
  beforeReadFile: 'Read',
  afterFileEdit: 'Write',
};

export const CURSOR: HookDialect = {
  agent: 'cursor',
  eventNames: {
    beforesubmitprompt: 'UserPromptSubmit',
    beforeshellexecution: 'PreToolUse',
    beforemcpexecution: 'PreToolUse',
    beforereadfile: 'PreToolUse',
    aftershellexecution: 'PostToolUse',
    aftermcpexecution: 'PostToolUse',
    afterfileedit: 'PostToolUse',
  },
  mcpToolPrefixes: [],
  normalize: (raw) => {
    const event = typeof raw.hook_event_name === 'string' ? raw.hook_event_name : '';
    const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
    const out: Record<string, unknown> = { ...raw, session_id: raw.conversation_id ?? raw.session_id, cwd: raw.cwd ?? roots[0] };
    if (raw.tool_response === undefined) out.tool_response = raw.tool_output ?? raw.result_json ?? raw.output;
    const specific = Object.prototype.hasOwnProperty.call(SPECIFIC_TOOL, event) ? SPECIFIC_TOOL[event] : undefined;
    if (specific === 'Shell') Object.assign(out, { tool_name: 'Shell', tool_input: { command: raw.command, ...(raw.cwd !== undefined && { working_directory: raw.cwd }) } });
    else if (specific) Object.assign(out, { tool_name: specific, tool_input: { file_path: raw.file_path, ...(raw.edits !== undefined && { edits: raw.edits }) } });
    else if (event === 'beforeMCPExecution' || event === 'afterMCPExecution') out.tool_name = `MCP:${String(raw.tool_name)}`;
    return out;
  },
  deny: (_call, reason) => json({ permission: 'deny', agent_message: reason, user_message: reason }),
  rewrite: (_call, r) => json({ updated_input: r.updated }),
  context: (_call, event, text) => (event === 'SessionStart' ? json({ additional_context: text }) : NOTHING),
  blockPrompt: (_call, reason) => json({ continue: false, user_message: reason }),
};
