/**
 * Claude Code's `mcp_tool` hooks answered by zut's MCP server (`zut-host mcp`): the hook tool's name, the `input` an
 * installed entry gives it per event, reading those arguments back into a hook input, and a hook answer as the tool's
 * result. Claude Code 2.1.328 (test/agents/mcpHook.test.mjs): an entry `{"type": "mcp_tool", "server", "tool",
 * "input", "timeout", "onFailure"}` calls the tool with `input`, each string value's `${path}` replaced by that path of
 * the hook's input JSON (an object as its JSON text, a missing path as ""; there is no form for the whole input); the
 * tool answers with a hook's JSON output as text — `{}` or nothing is no opinion. An error result, text that is not
 * such JSON, a server not connected or a timeout is a failure: with `onFailure: "block"` the action is blocked. mcp_tool
 * hooks do not run at SessionStart (startup, resume: no MCP client yet), so that event stays a command hook.
 * VS Code-free, and free of src/mcp (which imports this).
 */
import * as z from 'zod';
import { HOOK_INPUT_MAX_BYTES } from '../protocol/limits';
import { HOOK_AGENTS, MCP_SERVER_NAME, type HookAgent, type HookAnswer, type HookCall } from './names';
import { hookEventOf } from './dialects';

/** The hook tool of zut's MCP server: offered to Claude Code only, never to its model (src/mcp/hookTool.ts). */
export const MCP_HOOK_TOOL = 'zut_hook';

/** The only MCP client offered the hook tool: Claude Code (its `initialize` says `clientInfo.name: "claude-code"`). */
export const MCP_HOOK_CLIENT = 'claude-code';

/** The interpolations of the hook input every entry passes, and those of each event (Claude Code's field names). */
const COMMON_FIELDS = ['session_id', 'cwd', 'hook_event_name'] as const;
const EVENT_FIELDS: Record<string, readonly string[]> = {
  PreToolUse: ['tool_name', 'tool_input', 'tool_use_id'],
  PostToolUse: ['tool_name', 'tool_input', 'tool_use_id', 'tool_response'],
  PermissionRequest: ['tool_name', 'tool_input', 'tool_use_id'],
  PermissionDenied: ['tool_name', 'tool_input', 'tool_use_id', 'reason'],
  UserPromptSubmit: ['prompt'],
  Stop: [],
  SubagentStop: [],
};

/** The events an mcp_tool entry can answer (all of Claude Code's we install but SessionStart). */
export const MCP_HOOK_EVENTS: readonly string[] = Object.keys(EVENT_FIELDS);

/** Fields whose interpolation is an object's JSON text: read back as JSON. */
const JSON_FIELDS: ReadonlySet<string> = new Set(['tool_input', 'tool_response']);

/** The `input` of an installed entry for `event`: who is asking, then `${field}` for each field answerHook reads. */
export function mcpHookArguments(agent: HookAgent, event: string): Record<string, string> {
  const fields = [...COMMON_FIELDS, ...(EVENT_FIELDS[event] ?? [])];
  return { agent, event, ...Object.fromEntries(fields.map((f) => [f, `\${${f}}`])) };
}

/** One mcp_tool hook entry's handler (Claude Code's settings shape), calling `server`'s hook tool. */
export function mcpHookHandler(agent: HookAgent, event: string, timeoutSeconds: number, block: boolean): Record<string, unknown> {
  return { type: 'mcp_tool', server: MCP_SERVER_NAME, tool: MCP_HOOK_TOOL, input: mcpHookArguments(agent, event), timeout: timeoutSeconds, ...(block && { onFailure: 'block' }) };
}

/** Whether `handler` is one of ours (an mcp_tool entry calling zut's hook tool, whatever its input). */
export function isOwnMcpHookHandler(handler: unknown): boolean {
  if (handler === null || typeof handler !== 'object') return false;
  const h = handler as Record<string, unknown>;
  return h.type === 'mcp_tool' && h.server === MCP_SERVER_NAME && h.tool === MCP_HOOK_TOOL;
}

const Arguments = z.object({ agent: z.string(), event: z.string() }).catchall(z.unknown());

/** The call and the hook input's raw JSON (for readHookInput) in the hook tool's arguments, or why they are not. */
export function readMcpHookArguments(args: unknown): { call: HookCall; raw: string } | string {
  const r = Arguments.safeParse(args);
  if (!r.success) return `the hook tool's arguments need "agent" and "event" (${r.error.issues[0]?.message})`;
  const { agent, event: name, ...fields } = r.data;
  const event = HOOK_AGENTS.includes(agent as HookAgent) ? hookEventOf(name, agent as HookAgent) : undefined;
  if (!event || !HOOK_AGENTS.includes(agent as HookAgent)) return `unknown hook ${agent} ${name}`;
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    // An empty interpolation is a field the hook input did not have.
    if (v === '' || v === undefined) continue;
    if (typeof v === 'string' && JSON_FIELDS.has(k)) {
      try {
        input[k] = JSON.parse(v);
      } catch {
        input[k] = v; // a tool response that is text
      }
    } else input[k] = v;
  }
  const raw = JSON.stringify(input);
  if (Buffer.byteLength(raw) > HOOK_INPUT_MAX_BYTES) return `the hook input is over ${HOOK_INPUT_MAX_BYTES} bytes`;
  return { call: { agent: agent as HookAgent, event, camel: false }, raw };
}

/**
 * A command hook's answer as the hook tool's result: its JSON output (or `{}`, no opinion); a block by exit code 2
 * in JSON (PreToolUse a deny, UserPromptSubmit a block); a failure (another exit code) an error result, which Claude
 * Code treats as the hook failing (blocking where the entry says `onFailure: "block"`).
 */
export function mcpHookResult(call: HookCall, a: HookAnswer): { text: string; isError: boolean } {
  const reason = (a.stderr ?? '').trim();
  if (a.exitCode === 0) return { text: a.stdout.trim() || '{}', isError: false };
  if (a.exitCode === 2 && call.event === 'PreToolUse') {
    return { text: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }), isError: false };
  }
  if (a.exitCode === 2 && call.event === 'UserPromptSubmit') return { text: JSON.stringify({ decision: 'block', reason }), isError: false };
  return { text: reason || `zut: the hook failed (exit ${a.exitCode})`, isError: true };
}
