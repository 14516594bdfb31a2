/**
 * An agent's permission steps as zut's events (zut-extensions.md `tool_confirmation_requested`: fires only when the
 * agent is about to wait for the person's approval, with the call's `tool_preview`; zot's `permission_decision`):
 * - Claude Code `PermissionRequest` (fires when its permission dialog is about to be shown, `-p` included) →
 *   `tool_confirmation_requested`; `PermissionDenied` → `permission_decision` denied (by the user after a prompt, else
 *   by its policy); a PostToolUse of a call it asked about → `permission_decision` approved by the user.
 * - Copilot CLI `permissionRequest` fires before its permission service decides (auto-allows included: GitHub's hooks
 *   reference), so it only marks the call; its `notification` of type `permission_prompt` (the person is being asked)
 *   is the `tool_confirmation_requested`; a postToolUse of that call → approved by the user.
 * Our answer to each is nothing: the person, or the agent's own rules, decide. The call is found in the answerer's
 * memory of the session (callMemory.ts: its own, else the calls other processes answered, on disk) by the agent's id,
 * else by tool name and the arguments the agent repeats (Copilot CLI's permissionRequest repeats some of them); one
 * that cannot be found has no event. A denial ends the call's story: it is forgotten.
 * VS Code-free.
 */
import type { GuardRequest } from '../host/calls/toolGuard';
import type { HookAnswerHost } from './host';
import type { CallMemory, RememberedCall } from './callMemory';
import type { HookInput } from './input';
import type { HookCall } from './names';

/** What answering a permission step needs: the host, the answerer's call memory, the door's request for a call. */
export interface PermissionSteps {
  host: HookAnswerHost;
  memory: CallMemory;
  /** The door's request for the call in `input`, under `toolId` (undefined: not a call the door judges). */
  requestOf: (input: HookInput, toolId: string) => GuardRequest | undefined;
}

/** PermissionRequest: Claude Code is about to ask (the event); Copilot CLI may or may not (marked only). */
export function permissionRequest(steps: PermissionSteps, call: HookCall, input: HookInput): void {
  const session = input.sessionId;
  if (!session || !input.toolName) return;
  const c = steps.memory.find(session, { name: input.toolName, input: input.toolInput });
  if (!c) return;
  if (call.agent !== 'claude') return steps.memory.mark(session, c, 'requested');
  ask(steps, session, c, input);
}

/** Notification: Copilot CLI's `permission_prompt` asks the person about the call its permissionRequest marked. */
export function notification(steps: PermissionSteps, call: HookCall, input: HookInput): void {
  if (call.agent !== 'copilot-cli' || input.notificationType !== 'permission_prompt' || !input.sessionId) return;
  const c = steps.memory.requested(input.sessionId);
  if (c) ask(steps, input.sessionId, c, { ...input, toolName: c.name, toolInput: c.input });
}

/** PermissionDenied (Claude Code): denied by the person it asked, else by its own rules. The call will not run. */
export function permissionDenied(steps: PermissionSteps, input: HookInput): void {
  if (!input.sessionId || !input.toolName) return;
  const c = steps.memory.find(input.sessionId, input.toolUseId !== undefined ? { toolId: input.toolUseId } : { name: input.toolName, input: input.toolInput });
  if (c) steps.memory.finished(input.sessionId, c);
  const request = steps.requestOf(input, c?.toolId ?? input.toolUseId ?? '');
  if (!request || !request.toolId) return;
  steps.host.toolPermission(request, { kind: 'decision', decision: 'denied', source: c?.asked ? 'user' : 'policy', ...(input.reason !== undefined && { reason: input.reason }) });
}

/** A call that ran after the agent asked the person about it: approved by them (before its `tool_result`). */
export function ranAfterAsking(host: HookAnswerHost, c: RememberedCall | undefined, request: GuardRequest): void {
  if (c?.asked) host.toolPermission(request, { kind: 'decision', decision: 'approved', source: 'user' });
}

function ask(steps: PermissionSteps, session: string, c: RememberedCall, input: HookInput): void {
  steps.memory.mark(session, c, 'asked');
  const request = steps.requestOf(input, c.toolId);
  if (request) steps.host.toolPermission(request, { kind: 'confirmation' });
}
