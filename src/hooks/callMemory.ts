/**
 * What a host answering hooks (a window, the warm host) remembers of each agent session's recent tool calls, so an
 * agent's later events find the call they are about: Claude Code's PermissionRequest has no `tool_use_id`, Copilot
 * CLI gives no call ids at all, and its permission prompt names no tool. A call is remembered at its PreToolUse under
 * the id its events carry (the agent's, else one made then), found again by tool name and, where the agent repeats it
 * exactly, input; and marked when the agent asked the person about it. Bounded (HOOK_MEMORY_SESSIONS ×
 * HOOK_MEMORY_CALLS, oldest first out). VS Code-free.
 */
import { isDeepStrictEqual } from 'node:util';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_SESSIONS } from '../protocol/limits';

/** One remembered call. */
export interface RememberedCall {
  toolId: string;
  name: string;
  input: Record<string, unknown>;
  /** The agent asked the person about it (a permission prompt). */
  asked: boolean;
  /** Its permission request came, its prompt not yet (Copilot CLI: the notification follows). */
  requested: boolean;
}

class CallMemory {
  private readonly sessions = new Map<string, RememberedCall[]>();

  /** A call the agent is making (its PreToolUse). */
  called(session: string, toolId: string, name: string, input: Record<string, unknown>): void {
    let calls = this.sessions.get(session);
    if (!calls) {
      if (this.sessions.size >= HOOK_MEMORY_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      this.sessions.set(session, (calls = []));
    }
    calls.push({ toolId, name, input, asked: false, requested: false });
    if (calls.length > HOOK_MEMORY_CALLS) calls.shift();
  }

  /** The latest call of `session` with that id, or else that tool `name` (and, when given, exactly that input). */
  find(session: string, by: { toolId?: string; name?: string; input?: Record<string, unknown> }): RememberedCall | undefined {
    const calls = this.sessions.get(session) ?? [];
    for (let i = calls.length - 1; i >= 0; i--) {
      const c = calls[i];
      if (by.toolId !== undefined ? c.toolId === by.toolId : c.name === by.name && (by.input === undefined || isDeepStrictEqual(c.input, by.input))) return c;
    }
    return undefined;
  }

  /** The latest call of `session` whose permission was requested and not yet asked (Copilot CLI's prompt follows it). */
  requested(session: string): RememberedCall | undefined {
    return [...(this.sessions.get(session) ?? [])].reverse().find((c) => c.requested && !c.asked);
  }
}

const memories = new WeakMap<object, CallMemory>();

/** The memory of `host` (one per host object). */
export function memoryOf(host: object): CallMemory {
  let m = memories.get(host);
  if (!m) memories.set(host, (m = new CallMemory()));
  return m;
}
