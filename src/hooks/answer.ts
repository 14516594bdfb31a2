/**
 * One agent hook call answered through a zut host: PreToolUse → the `tool_call` event and interception chain
 * (deny with `blocked by <guard>: <reason>`, a rewrite as `updatedInput` / `modifiedArgs`, no opinion → nothing);
 * PostToolUse → the `tool_result` event; UserPromptSubmit → `user_prompt_submit`, the `turn_start` chain (a block
 * stops the prompt) and event; SessionStart → `session_start`/`session_opened` and the `before_agent_start` system
 * text as `additionalContext`; Stop/SubagentStop → `turn_end`. The agent's session id is the zut session.
 * Output formats per agent (VS Code, Copilot CLI camelCase and PascalCase, Claude Code) are documented in README.
 * VS Code-free: the host is anything with the guarded path's event and interception calls (the Manager).
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../protocol';
import type { ExtensionHost } from '../host/api';
import { boundContent } from '../host/calls/boundContent';
import { CALL_TOOL_RESULT_MAX_BYTES } from '../protocol/limits';
import { deny } from './failure';
import type { HookInput } from './input';
import type { HookAnswer, HookCall } from './names';
import { sessionStartContext } from './skills';
import { guardView, isOwnTool } from './tools';

/** What a hook answer needs of a host. */
export type HookHost = Pick<
  ExtensionHost,
  'emit' | 'emitSessionEvent' | 'interceptToolCall' | 'interceptTurnStart' | 'interceptBeforeAgentStart' | 'setSession' | 'extensions'
>;

const NOTHING: HookAnswer = { stdout: '', exitCode: 0 };
const json = (o: unknown): HookAnswer => ({ stdout: JSON.stringify(o) + '\n', exitCode: 0 });

/** The zut session of the agent's session (the session id; one per call when the agent sends none). */
function sessionOf(input: HookInput): SessionContext {
  return { id: input.sessionId ?? `hook-${randomUUID()}`, ...(input.cwd !== undefined && { cwd: input.cwd }) };
}

/** Answers one hook call. */
export async function answerHook(host: HookHost, call: HookCall, input: HookInput): Promise<HookAnswer> {
  const session = sessionOf(input);
  host.setSession(session);
  switch (call.event) {
    case 'PreToolUse':
      return preToolUse(host, call, input);
    case 'PostToolUse':
      postToolUse(host, call, input);
      return NOTHING;
    case 'UserPromptSubmit':
      return userPromptSubmit(host, call, input);
    case 'SessionStart':
      return sessionStart(host, call, input, session);
    case 'Stop':
    case 'SubagentStop':
      host.emit({ event: 'turn_end', stop: 'end_turn' });
      return NOTHING;
    case 'SessionEnd':
      return NOTHING;
  }
}

async function preToolUse(host: HookHost, call: HookCall, input: HookInput): Promise<HookAnswer> {
  const name = input.toolName;
  if (!name || isOwnTool(call.agent, name)) return NOTHING; // ours: already guarded on the MCP path
  const view = guardView(call.agent, name, input.toolInput);
  const toolId = input.toolUseId ?? randomUUID();
  host.emit({ event: 'tool_call', tool_id: toolId, tool_name: view.name, tool_args: view.args });
  const decision = await host.interceptToolCall({ tool_id: toolId, tool_name: view.name, tool_args: view.args });
  if (decision.blocked) return deny(call, `blocked by ${decision.blocked.ext}: ${decision.blocked.reason}`);
  if (decision.args === view.args) return NOTHING; // no guard rewrote it: no opinion, never `allow`
  const back = view.back(decision.args);
  if ('error' in back) return deny(call, `blocked by zut: a guard's rewrite of ${name} cannot be applied (${back.error})`);
  const updated = input.toolInputWasString ? JSON.stringify(back.input) : back.input;
  if (call.agent === 'copilot-cli' && call.camel) return json({ modifiedArgs: updated });
  // Claude Code applies `updatedInput` with a decision; `ask` shows the rewritten call to the person (never `allow`).
  const decisionField = call.agent === 'claude' ? { permissionDecision: 'ask', permissionDecisionReason: 'arguments rewritten by a zut guard' } : {};
  return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...decisionField, updatedInput: updated } });
}

/** The `tool_result` event: the agent's response as text (bounded as zot's observation budget says). */
function postToolUse(host: HookHost, call: HookCall, input: HookInput): void {
  const name = input.toolName;
  if (!name || isOwnTool(call.agent, name)) return;
  const view = guardView(call.agent, name, input.toolInput);
  const r = input.toolResponse;
  const isError = r !== null && typeof r === 'object' && ((r as Record<string, unknown>).resultType === 'failure' || (r as Record<string, unknown>).is_error === true);
  const text = typeof r === 'string' ? r : r === undefined ? '' : JSON.stringify(r);
  const { content, truncated } = boundContent([{ type: 'text', text }], CALL_TOOL_RESULT_MAX_BYTES);
  host.emit({
    event: 'tool_result',
    tool_id: input.toolUseId ?? randomUUID(),
    tool_name: view.name,
    tool_args: view.args,
    status: isError ? 'failed' : 'completed',
    executed: true,
    result: { content, is_error: isError, ...(truncated ? { truncated } : {}) },
  });
}

async function userPromptSubmit(host: HookHost, call: HookCall, input: HookInput): Promise<HookAnswer> {
  host.emit({ event: 'user_prompt_submit', text: input.prompt ?? '' });
  const start = await host.interceptTurnStart(1, input.prompt ?? '');
  if (start.blocked) {
    const reason = `blocked by ${start.blocked.ext}: ${start.blocked.reason}`;
    if (call.agent === 'claude') return json({ decision: 'block', reason });
    // VS Code's common output stops the prompt; Copilot CLI ignores output here, so it blocks by exit code 2.
    if (call.agent === 'copilot-cli' && call.camel) return { stdout: '', stderr: reason + '\n', exitCode: 2 };
    return json({ continue: false, stopReason: reason });
  }
  host.emit({ event: 'turn_start', step: 1 });
  if (!start.context || (call.agent === 'copilot-cli' && call.camel)) return NOTHING;
  return json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: start.context } });
}

async function sessionStart(host: HookHost, call: HookCall, input: HookInput, session: SessionContext): Promise<HookAnswer> {
  host.emitSessionEvent('session_start', session);
  host.emitSessionEvent('session_opened', session);
  const system = await host.interceptBeforeAgentStart({
    session_id: session.id,
    cwd: input.cwd ?? '',
    provider: call.agent,
    model: 'unknown',
    system_prompt: '',
  });
  const context = sessionStartContext(host, system);
  if (!context || (call.agent === 'copilot-cli' && call.camel)) return NOTHING;
  return json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } });
}
