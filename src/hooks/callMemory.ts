/**
 * What a hook answerer (a window's or the warm host's HookServer, or a hook answering its one call by itself: each
 * owns one) remembers of each agent session's recent tool calls, so an agent's later events find the call they are
 * about: Claude Code's PermissionRequest has no `tool_use_id`, Copilot CLI gives no call ids at all, and its
 * permission prompt names no tool. A call the guards let through is remembered at its PreToolUse under the id its
 * events carry (the agent's, else one made then), with the input the agent will run; it is found again by that id
 * when the agent repeats it, else by tool name and the input fields the agent repeats (never by name alone: two calls
 * of one tool in flight are told apart by their arguments), and marked when the agent asked the person about it. Its
 * story ends with its result or its denial: then it is forgotten, here and on disk. Bounded at every call: at most
 * HOOK_MEMORY_SESSIONS × HOOK_MEMORY_CALLS (oldest first out), none older than HOOK_MEMORY_TTL_MS. A call is also kept
 * on disk (callFiles.ts) while an extension subscribes to an event that needs it there (`onDisk`), so a later event
 * another process answers — the warm host after the hook that started it answered the PreToolUse itself — finds it
 * too. VS Code-free.
 */
import { isDeepStrictEqual } from 'node:util';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_SESSIONS, HOOK_MEMORY_TTL_MS } from '../protocol/limits';
import type { ExtensionInfo } from '../host/types';
import { CallFiles, type RememberedCall } from './callFiles';

export type { RememberedCall };

/** What a lookup asks for: that id, or else that tool `name` with (at least) the fields of `input` the agent repeats. */
export interface CallQuery {
  toolId?: string;
  name?: string;
  input?: Record<string, unknown>;
}

/** Whether `given` (the fields an agent repeats) agrees with a call's input: each equal; nothing given, none there. */
function agrees(given: Record<string, unknown>, input: Record<string, unknown>): boolean {
  const keys = Object.keys(given);
  if (keys.length === 0) return Object.keys(input).length === 0;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(input, k) && isDeepStrictEqual(given[k], input[k]));
}

const matches = (c: RememberedCall, by: CallQuery): boolean =>
  by.toolId !== undefined ? c.toolId === by.toolId : c.name === by.name && agrees(by.input ?? {}, c.input);

const fresh = (c: RememberedCall, now: number): boolean => now - c.at < HOOK_MEMORY_TTL_MS;

/**
 * The events whose receivers need a call another process may hear about: its permission steps, and its result when
 * the call's id was made here (the agent gave none: the result must carry the id the `tool_call` event had).
 */
const PERMISSION_EVENTS: readonly string[] = ['tool_confirmation_requested', 'permission_decision'];

/**
 * Whether a call is worth a file: an extension (of `extensions`, the answering host's) subscribes to an event that
 * needs it, or one is still starting (what it subscribes to is not known yet).
 */
export function onDiskFor(extensions: readonly Pick<ExtensionInfo, 'subscriptions' | 'state'>[], idMadeHere: boolean): boolean {
  return extensions.some(
    (e) => e.state === 'starting' || e.state === 'restarting' || e.subscriptions.some((s) => PERMISSION_EVENTS.includes(s) || (idMadeHere && s === 'tool_result')),
  );
}

export class CallMemory {
  private readonly sessions = new Map<string, RememberedCall[]>();

  constructor(private readonly files = new CallFiles()) {}

  /** A call the agent is making (its PreToolUse, let through), kept on disk too when `onDisk`. */
  called(session: string, call: Pick<RememberedCall, 'toolId' | 'name' | 'input'>, onDisk: boolean): RememberedCall {
    const c: RememberedCall = { ...call, asked: false, requested: false, at: Date.now() };
    this.keep(session, c);
    if (onDisk) this.files.write(session, c);
    return c;
  }

  /** The latest call of `session` that `by` names: this host's own, else one another process remembered on disk. */
  find(session: string, by: CallQuery): RememberedCall | undefined {
    return this.latest(session, (c) => matches(c, by));
  }

  /** The latest call of `session` whose permission was requested and not yet asked (Copilot CLI's prompt follows it). */
  requested(session: string): RememberedCall | undefined {
    return this.latest(session, (c) => c.requested && !c.asked);
  }

  /** Marks `c` (its permission requested, or the person asked), here and in its file when it has one. */
  mark(session: string, c: RememberedCall, what: 'asked' | 'requested'): void {
    c[what] = true;
    if (c.file) this.files.write(session, c);
  }

  /** `c`'s story has ended (its result came, or it was denied): forgotten here and on disk. */
  finished(session: string, c: RememberedCall): void {
    const calls = this.sessions.get(session);
    const i = calls?.indexOf(c) ?? -1;
    if (i >= 0) calls!.splice(i, 1);
    this.files.remove(c);
  }

  /** Keeps `c`, dropping what is past its time and what is beyond the bounds (the oldest first). */
  private keep(session: string, c: RememberedCall): void {
    const now = Date.now();
    let calls = this.sessions.get(session)?.filter((k) => fresh(k, now));
    if (calls) this.sessions.delete(session); // re-inserted: the least recently used session goes first
    else if (this.sessions.size >= HOOK_MEMORY_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    calls ??= [];
    this.sessions.set(session, calls);
    calls.push(c);
    if (calls.length > HOOK_MEMORY_CALLS) calls.shift();
  }

  private latest(session: string, ok: (c: RememberedCall) => boolean): RememberedCall | undefined {
    const now = Date.now();
    const calls = this.sessions.get(session) ?? [];
    for (let i = calls.length - 1; i >= 0; i--) if (fresh(calls[i]!, now) && ok(calls[i]!)) return calls[i];
    // Not here: what other processes wrote (newest first). A call this host knows takes the marks another gave it; one
    // it does not is kept here from now on.
    for (const c of this.files.read(session)) {
      const mine = calls.find((m) => m.toolId === c.toolId);
      if (mine) {
        mine.asked ||= c.asked;
        mine.requested ||= c.requested;
        mine.file ??= c.file;
        if (ok(mine)) return mine;
      } else if (ok(c)) {
        this.keep(session, c);
        return c;
      }
    }
    return undefined;
  }
}
