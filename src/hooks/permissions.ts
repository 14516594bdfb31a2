/**
 * An agent's permission steps as zut's events (zut-extensions.md `tool_confirmation_requested`: fires only when the
 * agent is about to wait for the person's approval, with the call's `tool_preview`; zot's `permission_decision`):
 * - Claude Code `PermissionRequest` (fires when its permission dialog is about to be shown, `-p` included) →
 *   `tool_confirmation_requested`; `PermissionDenied` → `permission_decision` denied (by the user after a prompt, else
 *   by its policy); a PostToolUse of a call it asked about → `permission_decision` approved by the user.
 * - Copilot CLI `permissionRequest` fires before its permission service decides (auto-allows included: GitHub's hooks
 *   reference), so it only marks the call; its `notification` of type `permission_prompt` (the person is being asked)
 *   is the `tool_confirmation_requested`; a postToolUse of that call → approved by the user.
 * Our answer to each is nothing: the person, or the agent's own rules, decide. The call is found in the memory of the
 * session (callMemory.ts: this host's, else the calls other hosts answered, on disk); one that cannot be found has no
 * event.
 * VS Code-free.
 */
import type { GuardRequest } from '../host/calls/toolGuard';
import type { HookHost } from './host';
import { memoryOf, type RememberedCall } from './callMemory';
import type { HookInput } from './input';
import type { HookCall } from './names';

/** The door's request for a remembered call. */
type RequestOf = (input: HookInput, toolId: string) => GuardRequest | undefined;

/** PermissionRequest: Claude Code is about to ask (the event); Copilot CLI may or may not (marked only). */
export function permissionRequest(host: HookHost, call: HookCall, input: HookInput, requestOf: RequestOf): void {
  const session = input.sessionId;
  if (!session || !input.toolName) return;
  const claude = call.agent === 'claude';
  const c = memoryOf(host).find(session, { name: input.toolName, ...(claude && { input: input.toolInput }) });
  if (!c) return;
  if (!claude) return memoryOf(host).mark(session, c, 'requested');
  ask(host, session, c, input, requestOf);
}

/** Notification: Copilot CLI's `permission_prompt` asks the person about the call its permissionRequest marked. */
export function notification(host: HookHost, call: HookCall, input: HookInput, requestOf: RequestOf): void {
  if (call.agent !== 'copilot-cli' || input.notificationType !== 'permission_prompt' || !input.sessionId) return;
  const c = memoryOf(host).requested(input.sessionId);
  if (c) ask(host, input.sessionId, c, { ...input, toolName: c.name, toolInput: c.input }, requestOf);
}

/** PermissionDenied (Claude Code): denied by the person it asked, else by its own rules. */
export function permissionDenied(host: HookHost, input: HookInput, requestOf: RequestOf): void {
  if (!input.sessionId || !input.toolName) return;
  const c = memoryOf(host).find(input.sessionId, input.toolUseId !== undefined ? { toolId: input.toolUseId } : { name: input.toolName, input: input.toolInput });
  const request = requestOf(input, c?.toolId ?? input.toolUseId ?? '');
  if (!request || !request.toolId) return;
  host.toolPermission(request, { kind: 'decision', decision: 'denied', source: c?.asked ? 'user' : 'policy', ...(input.reason !== undefined && { reason: input.reason }) });
}

/** A call that ran after the agent asked the person about it: approved by them (before its `tool_result`). */
export function ranAfterAsking(host: HookHost, c: RememberedCall | undefined, request: GuardRequest): void {
  if (c?.asked) host.toolPermission(request, { kind: 'decision', decision: 'approved', source: 'user' });
}

function ask(host: HookHost, session: string, c: RememberedCall, input: HookInput, requestOf: RequestOf): void {
  memoryOf(host).mark(session, c, 'asked');
  const request = requestOf(input, c.toolId);
  if (request) host.toolPermission(request, { kind: 'confirmation' });
}
