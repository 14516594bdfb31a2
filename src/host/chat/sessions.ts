/**
 * Session bookkeeping for `@zut`: a chat conversation is a zut session, each edit-and-resend of an earlier turn starts
 * a new branch. What a response records (`TurnMeta`, kept in `ChatResult.metadata`) and what the tracker remembers
 * across requests (and window reloads) decide which session event to send. Imports no `vscode`.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';
import type { SessionContext } from '../../protocol';
import type { HostSessions } from '../api';
import type { ChatMessage } from './model';
import { CHAT_BRANCHES_MAX as MAX_BRANCHES, CHAT_TEXT_MAX_CHARS as TEXT_MAX } from '../../protocol/limits';

/** A conversation message as kept in metadata (images become a placeholder to keep chat storage small). */
const StoredPart = /* @__PURE__ */ lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({
    kind: z.literal('toolCall'),
    callId: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({
    kind: z.literal('toolResult'),
    callId: z.string(),
    isError: z.boolean(),
    content: z.array(z.object({ kind: z.literal('text'), text: z.string() })),
  }),
]));
const StoredMessage = /* @__PURE__ */ lazySchema(() => z.object({ role: z.enum(['user', 'assistant']), parts: z.array(StoredPart) }));
type StoredMessage = z.infer<typeof StoredMessage>;

/** What one `@zut` response records in `ChatResult.metadata.zut`. */
export const TurnMeta = /* @__PURE__ */ lazySchema(() => z.object({
  /** The conversation. */
  session: z.string(),
  /** The branch (`SessionContext.id`). */
  branch: z.string(),
  parent: z.string().optional(),
  forkPoint: z.number().int().optional(),
  /** This turn's number in the conversation (1-based). */
  turn: z.number().int().positive(),
  /** The turn as the model saw and said it (absent: use the visible request and response). */
  messages: z.array(StoredMessage).optional(),
  /** Each extension's state on this branch after this turn (seeds a branch forked here). */
  state: z.record(z.string(), z.unknown()).optional(),
}));
export type TurnMeta = z.infer<typeof TurnMeta>;

/**
 * Each `metadata.zut` already read (undefined: malformed): a request reads every earlier response twice (its session
 * and its conversation), and a long chat's turns carry whole conversations — parsed once, not once per read.
 */
const turnMetaRead = new WeakMap<object, TurnMeta | undefined>();

/** Reads `metadata.zut` of a chat result; undefined when absent or malformed. The result is shared: read-only. */
export function readTurnMeta(metadata: unknown): TurnMeta | undefined {
  const zut = (metadata as { zut?: unknown } | undefined)?.zut;
  if (typeof zut !== 'object' || zut === null) return undefined;
  if (turnMetaRead.has(zut)) return turnMetaRead.get(zut);
  const parsed = TurnMeta.safeParse(zut);
  const meta = parsed.success ? parsed.data : undefined;
  turnMetaRead.set(zut, meta);
  return meta;
}


/** A turn's messages in their stored form: images → a placeholder, very long texts cut. */
export function storeMessages(messages: ChatMessage[]): StoredMessage[] {
  const cut = (t: string) => (t.length > TEXT_MAX ? t.slice(0, TEXT_MAX) + '\n[truncated]' : t);
  return messages.map((m) => ({
    role: m.role,
    parts: m.parts.map((p): StoredMessage['parts'][number] => {
      if (p.kind === 'text') return { kind: 'text', text: cut(p.text) };
      if (p.kind === 'toolCall') return p;
      return {
        ...p,
        content: p.content.map((c) => ({ kind: 'text' as const, text: c.kind === 'text' ? cut(c.text) : `[image ${c.mime}]` })),
      };
    }),
  }));
}


const Snapshot = /* @__PURE__ */ lazySchema(() => z.object({
  active: z.string().optional(),
  branches: z.record(
    z.string(),
    z.object({
      session: z.string(),
      turns: z.number().int(),
      parent: z.string().optional(),
      forkPoint: z.number().int().optional(),
    }),
  ),
}));
export type SessionsSnapshot = z.infer<typeof Snapshot>;

/** The outcome of `SessionTracker.begin`: this request's branch, its context, and the events to send, in order. */
export interface SessionStep {
  meta: Pick<TurnMeta, 'session' | 'branch' | 'parent' | 'forkPoint' | 'turn'>;
  context: SessionContext;
  events: ('session_start' | 'session_opened' | 'session_switched' | 'session_forked')[];
  /** For a fork: the state recorded at the fork point, to seed the new branch with. */
  seedState?: Record<string, unknown>;
}

/** Remembers each branch's turn count and the active branch. */
export class SessionTracker {
  private snap: SessionsSnapshot;

  constructor(
    snapshot: unknown,
    private readonly cwd: string | undefined,
    private readonly newId: () => string = randomUUID,
  ) {
    // Nothing saved yet (a first window): nothing to check, so no schema is built at activation (issue 41).
    const parsed = snapshot === undefined ? undefined : Snapshot.safeParse(snapshot);
    this.snap = parsed?.success ? parsed.data : { branches: {} };
  }

  /** The branch that was active last (restored after a window reload), for `hello_ack.session`. */
  activeContext(): SessionContext | undefined {
    const id = this.snap.active;
    const b = id ? this.snap.branches[id] : undefined;
    return id && b ? this.contextOf(id, b.parent, b.forkPoint) : undefined;
  }

  /**
   * Places a new request. `last`: the metadata of the latest `@zut` response in the request's history (none → a new
   * conversation). A branch that already answered more turns than the history shows means an earlier turn was
   * edited and resent: that is a fork at `last.turn`.
   */
  begin(last: TurnMeta | undefined): SessionStep {
    let step: SessionStep;
    if (!last) {
      const id = this.newId();
      step = { meta: { session: id, branch: id, turn: 1 }, context: this.contextOf(id), events: [] };
      step.events.push('session_start', 'session_opened');
    } else {
      const known = this.snap.branches[last.branch];
      if (known && known.turns > last.turn) {
        const branch = this.newId();
        step = {
          meta: { session: last.session, branch, parent: last.branch, forkPoint: last.turn, turn: last.turn + 1 },
          context: this.contextOf(branch, last.branch, last.turn),
          events: ['session_forked'],
          seedState: last.state ?? {},
        };
      } else {
        const { session, branch, parent, forkPoint } = last;
        step = {
          meta: { session, branch, parent, forkPoint, turn: last.turn + 1 },
          context: this.contextOf(branch, parent, forkPoint),
          events: this.snap.active === branch ? [] : ['session_switched'],
        };
      }
    }
    const { session, branch, parent, forkPoint, turn } = step.meta;
    const prev = this.snap.branches[branch];
    delete this.snap.branches[branch]; // re-inserted last: the record is kept in least-recently-used order
    this.snap.branches[branch] = { session, turns: Math.max(turn, prev?.turns ?? 0), parent, forkPoint };
    this.snap.active = branch;
    const ids = Object.keys(this.snap.branches);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_BRANCHES))) delete this.snap.branches[old];
    return step;
  }

  snapshot(): SessionsSnapshot {
    return structuredClone(this.snap);
  }

  private contextOf(id: string, parent?: string, forkPoint?: number): SessionContext {
    const ctx: SessionContext = { id };
    if (parent !== undefined) ctx.parent_id = parent;
    if (forkPoint !== undefined) ctx.fork_point = forkPoint;
    if (this.cwd) ctx.cwd = this.cwd;
    return ctx;
  }
}

/**
 * Makes `step` the host's session: a forked branch starts from the state recorded at its fork point, `hello_ack`
 * carries the branch from now on, and the step's session events go out (each receiver gets its own state).
 */
export function applySession(host: HostSessions, step: SessionStep): void {
  if (step.seedState) host.importState({ ...host.exportState(), [step.meta.branch]: step.seedState });
  host.setSession(step.context);
  for (const event of step.events) host.emitSessionEvent(event, step.context);
}
