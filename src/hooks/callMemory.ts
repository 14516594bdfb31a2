/**
 * What a host answering hooks (a window, the warm host, a hook answering by itself) remembers of each agent session's
 * recent tool calls, so an agent's later events find the call they are about: Claude Code's PermissionRequest has no
 * `tool_use_id`, Copilot CLI gives no call ids at all, and its permission prompt names no tool. A call is remembered
 * at its PreToolUse under the id its events carry (the agent's, else one made then), found again by tool name and,
 * where the agent repeats it exactly, input; and marked when the agent asked the person about it. Bounded
 * (HOOK_MEMORY_SESSIONS × HOOK_MEMORY_CALLS, oldest first out). Each call is also kept on disk (callFiles.ts), so a
 * later event another host answers — the warm host after the hook that started it answered the PreToolUse itself —
 * finds it too. VS Code-free.
 */
import { isDeepStrictEqual } from 'node:util';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_SESSIONS } from '../protocol/limits';
import { CallFiles, type RememberedCall } from './callFiles';

export type { RememberedCall };

/** What a lookup asks for: that id, or else that tool `name` (and, when given, exactly that input). */
export interface CallQuery {
  toolId?: string;
  name?: string;
  input?: Record<string, unknown>;
}

const matches = (c: RememberedCall, by: CallQuery): boolean =>
  by.toolId !== undefined ? c.toolId === by.toolId : c.name === by.name && (by.input === undefined || isDeepStrictEqual(c.input, by.input));

class CallMemory {
  private readonly sessions = new Map<string, RememberedCall[]>();
  private readonly files = new CallFiles();

  /** A call the agent is making (its PreToolUse). */
  called(session: string, toolId: string, name: string, input: Record<string, unknown>): void {
    const c: RememberedCall = { toolId, name, input, asked: false, requested: false, at: Date.now() };
    this.keep(session, c);
    this.files.write(session, c);
  }

  /** The latest call of `session` that `by` names: this host's own, else one another host remembered on disk. */
  find(session: string, by: CallQuery): RememberedCall | undefined {
    return this.latest(session, (c) => matches(c, by));
  }

  /** The latest call of `session` whose permission was requested and not yet asked (Copilot CLI's prompt follows it). */
  requested(session: string): RememberedCall | undefined {
    return this.latest(session, (c) => c.requested && !c.asked);
  }

  /** Marks `c` (its permission requested, or the person asked), here and on disk. */
  mark(session: string, c: RememberedCall, what: 'asked' | 'requested'): void {
    c[what] = true;
    this.files.write(session, c);
  }

  private keep(session: string, c: RememberedCall): void {
    let calls = this.sessions.get(session);
    if (!calls) {
      if (this.sessions.size >= HOOK_MEMORY_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      this.sessions.set(session, (calls = []));
    }
    calls.push(c);
    if (calls.length > HOOK_MEMORY_CALLS) calls.shift();
  }

  private latest(session: string, ok: (c: RememberedCall) => boolean): RememberedCall | undefined {
    const calls = this.sessions.get(session) ?? [];
    for (let i = calls.length - 1; i >= 0; i--) if (ok(calls[i]!)) return calls[i];
    // Not here: what other hosts wrote (newest first). A call this host knows takes the marks another host gave it;
    // one it does not is kept here from now on.
    for (const c of this.files.read(session)) {
      const mine = calls.find((m) => m.toolId === c.toolId);
      if (mine) {
        mine.asked ||= c.asked;
        mine.requested ||= c.requested;
        if (ok(mine)) return mine;
      } else if (ok(c)) {
        this.keep(session, c);
        return c;
      }
    }
    return undefined;
  }
}

const memories = new WeakMap<object, CallMemory>();

/** The memory of `host` (one per host object). */
export function memoryOf(host: object): CallMemory {
  let m = memories.get(host);
  if (!m) memories.set(host, (m = new CallMemory()));
  return m;
}
