/**
 * One agent hook call answered through a zut host. PreToolUse → the guard door (the host's `guardTool`: the
 * `tool_call` event and interception, the agent's tool seen as zut's, strict: a silent guard blocks): a block is a
 * deny `blocked by <guard>: <reason>`, a rewrite the agent's own field for a changed input (never a permission
 * decision: the agent's own confirmation rules stay in charge), no opinion nothing; PostToolUse → the `tool_result`
 * event; UserPromptSubmit → `user_prompt_submit`, the `turn_start` chain (a block stops the prompt) and event;
 * SessionStart → `session_start`/`session_opened` and the `before_agent_start` system text, then the running
 * extensions' skills (skills.ts), as `additionalContext`;
 * Stop/SubagentStop → `turn_end`; the permission events → permissions.ts. Every event that reaches extensions waits
 * for those still starting (within its deadline). A call the guards let through is remembered in the answerer's
 * memory (callMemory.ts) for its later events. The agent's session id is the zut session. Output formats per agent
 * (VS Code, Copilot CLI camelCase and PascalCase, Claude Code) are documented in README. VS Code-free: the host is
 * anything with those calls (the Manager).
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../protocol';
import type { HookAnswerHost } from './host';
import type { GuardRequest } from '../host/calls/toolGuard';
import { deny } from './failure';
import { dialectOf } from './dialects';
import type { HookInput } from './input';
import type { HookAnswer, HookCall } from './names';
import { sessionStartContext } from './skills';
import { activeSkills, SKILL_TOOL_NAME } from '../host/chat/skills';
import { hasOwnPrefix, isOwnMcpName, servedElsewhere } from './tools';
import { onDiskFor, type CallMemory } from './callMemory';
import { notification, permissionDenied, permissionRequest, ranAfterAsking, type PermissionSteps } from './permissions';

export type { HookAnswerHost } from './host';

const NOTHING: HookAnswer = { stdout: '', exitCode: 0 };

/** The zut session of the agent's session (the session id; one per call when the agent sends none). */
function sessionOf(input: HookInput): SessionContext {
  return { id: input.sessionId ?? `hook-${randomUUID()}`, ...(input.cwd !== undefined && { cwd: input.cwd }) };
}

/**
 * Answers one hook call with `memory`, the answerer's memory of the session's calls (callMemory.ts: a server keeps
 * one for all its calls). `deadline` (ms since epoch) bounds how long an event waits for extensions still starting:
 * every event that reaches extensions is answered once those of this host are up (a host that has just started —
 * the warm host at its first call — has not heard their subscriptions yet), or at the deadline with those that are;
 * a PreToolUse's guards that could not be asked by then deny the call (the door). The caller bounds the whole
 * (server.ts answerInTime).
 */
export async function answerHook(host: HookAnswerHost, call: HookCall, input: HookInput, deadline: number, memory: CallMemory): Promise<HookAnswer> {
  // The door waits for the guards itself (a running guard's block need not wait for the others).
  if (call.event !== 'PreToolUse' && call.event !== 'SessionEnd') await host.whenSettled(deadline);
  const session = sessionOf(input);
  host.setSession(session);
  const steps: PermissionSteps = { host, memory, requestOf: (i, toolId) => guardRequest(host, call, i, toolId) };
  switch (call.event) {
    case 'PreToolUse':
      return preToolUse(host, call, input, deadline, memory);
    case 'PostToolUse':
      postToolUse(steps, call, input);
      return NOTHING;
    case 'PermissionRequest':
      permissionRequest(steps, call, input);
      return NOTHING;
    case 'PermissionDenied':
      permissionDenied(steps, input);
      return NOTHING;
    case 'Notification':
      notification(steps, call, input);
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

/**
 * The door's request for the agent's tool call in `input` (under `toolId`: the agent's, else one made for it);
 * undefined for none, or for one of our own MCP tools.
 */
function guardRequest(host: HookAnswerHost, call: HookCall, input: HookInput, toolId = input.toolUseId ?? randomUUID()): GuardRequest | undefined {
  const name = input.toolName;
  if (!name || isOurs(host, call, name, input.cwd)) return undefined;
  return { name, input: input.toolInput, source: call.agent, toolId, strict: true };
}

/**
 * Ours (judged on the MCP path): an extension's tool, or the host's `skill` while one bundles skills. Only a name in
 * the agent's spelling of our MCP server's tools is looked up (most calls are the agent's own tools: no lookup).
 */
function isOurs(host: HookAnswerHost, call: HookCall, name: string, cwd: string | undefined): boolean {
  if (!hasOwnPrefix(call.agent, name)) return false;
  const hostTools = activeSkills(host).length > 0 ? [SKILL_TOOL_NAME] : [];
  // Served here, or by a zut MCP server of this folder in another process (a project server beside a global hook host).
  return isOwnMcpName(call.agent, name, host.allTools(), hostTools) || servedElsewhere(call.agent, name, cwd);
}

async function preToolUse(host: HookAnswerHost, call: HookCall, input: HookInput, deadline: number, memory: CallMemory): Promise<HookAnswer> {
  // Whether a tool named as ours is one this host serves is known once its extensions are up (a warm host that has
  // just started may not have them yet): wait for them, within the budget; still unknown then, it is guarded.
  if (input.toolName && hasOwnPrefix(call.agent, input.toolName)) await host.whenSettled(deadline);
  const request = guardRequest(host, call, input);
  if (!request) return NOTHING;
  const { verdict } = await host.guardTool({ ...request, deadline });
  if (verdict.blocked) return deny(call, `blocked by ${verdict.blocked.ext}: ${verdict.blocked.reason}`);
  // Let through: remembered (before the answer: the agent's next event may come at once, to another process) with
  // the input the agent will run, so its later events (permission, result) find it (callMemory.ts).
  const runs = verdict.rewrittenBy.length > 0 ? (verdict.input as Record<string, unknown>) : input.toolInput;
  if (input.sessionId) memory.called(input.sessionId, { toolId: request.toolId!, name: request.name, input: runs }, onDiskFor(host.extensions(), input.toolUseId === undefined));
  if (verdict.rewrittenBy.length === 0) return NOTHING; // no guard rewrote it: no opinion, never `allow`
  const updated = input.toolInputWasString ? JSON.stringify(verdict.input) : verdict.input;
  // Each agent's own form, its own permission rules still in charge (dialects/*.ts).
  return dialectOf(call.agent).rewrite(call, { updated, toolName: request.name, by: verdict.rewrittenBy });
}

/**
 * The `tool_result` event (under the id of the call's PreToolUse when it is remembered: by the agent's id, else by
 * name and the arguments the agent repeats): the agent's response as text, bounded as zot's observation budget says;
 * after `permission_decision` approved when the person was asked. The call is then forgotten.
 */
function postToolUse(steps: PermissionSteps, call: HookCall, input: HookInput): void {
  const { host, memory } = steps;
  const by = input.toolUseId !== undefined ? { toolId: input.toolUseId } : { name: input.toolName, input: input.toolInput };
  const remembered = input.sessionId && input.toolName ? memory.find(input.sessionId, by) : undefined;
  const request = guardRequest(host, call, input, remembered?.toolId);
  if (remembered) memory.finished(input.sessionId!, remembered);
  if (!request) return;
  ranAfterAsking(host, remembered, request);
  const { text, isError } = responseOf(input.toolResponse);
  host.toolRan(request, { content: [{ type: 'text', text }], isError });
}

/**
 * An agent's tool response as text: Copilot CLI's `{resultType, textResultForLlm}` (its PascalCase events:
 * `{result_type, text_result_for_llm}`) as the text the model got; anything else as it came (JSON when an object).
 */
function responseOf(r: unknown): { text: string; isError: boolean } {
  if (r === null || typeof r !== 'object') return { text: typeof r === 'string' ? r : r === undefined ? '' : JSON.stringify(r), isError: false };
  const o = r as Record<string, unknown>;
  const type = o.resultType ?? o.result_type;
  const llm = o.textResultForLlm ?? o.text_result_for_llm;
  return { text: typeof llm === 'string' ? llm : JSON.stringify(r), isError: type === 'failure' || type === 'denied' || type === 'rejected' || o.is_error === true };
}

async function userPromptSubmit(host: HookAnswerHost, call: HookCall, input: HookInput): Promise<HookAnswer> {
  host.emit({ event: 'user_prompt_submit', text: input.prompt ?? '' });
  const start = await host.interceptTurnStart(1, input.prompt ?? '');
  if (start.blocked) {
    return dialectOf(call.agent).blockPrompt(call, `blocked by ${start.blocked.ext}: ${start.blocked.reason}`);
  }
  host.emit({ event: 'turn_start', step: 1 });
  return start.context ? dialectOf(call.agent).context(call, 'UserPromptSubmit', start.context) : NOTHING;
}

async function sessionStart(host: HookAnswerHost, call: HookCall, input: HookInput, session: SessionContext): Promise<HookAnswer> {
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
  return context ? dialectOf(call.agent).context(call, 'SessionStart', context) : NOTHING;
}
