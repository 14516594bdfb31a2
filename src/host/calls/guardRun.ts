/**
 * One call on its way through the guard door (toolGuard.ts): the request, its id, the foreign call (foreignTools/:
 * how guards see another owner's tool, computed once), its views as the frames carry them, their arguments as the
 * interception chains rewrite them, who rewrote them, which guards were asked and which subscribers heard it. The
 * door keeps one per call, so each step reads the same state instead of being handed it. VS Code-free.
 */
import { randomUUID } from 'node:crypto';
import type { Blocked, ToolCallIntercept } from '../types';
// In dist/extension.js the build swaps this import for a stand-in that loads dist/foreign-tools.js at its first call
// (esbuild.mjs `lazyStandIn`, ARCHITECTURE.md "Lazy bundles"); the CLI bundles the table whole.
import { foreignCall, type ForeignCall, type ForeignSource, type GuardView, type JsonObject } from './foreignTools';
import { chainToolCall, type Interceptor } from './intercept';

/** One call put to the guards. */
export interface GuardRequest {
  /** The tool as its owner names it (a zut tool's name, or VS Code's `run_in_terminal`, Claude Code's `Bash`, …). */
  name: string;
  input: unknown;
  /** Whose tool, when it is not a zut extension's: guards then see zut's counterpart (foreignTools/). */
  source?: ForeignSource;
  /** The id in the events and the interception (the model's call id); a fresh one when omitted. */
  toolId?: string;
  /** The zot extension whose `call_tool` this is. */
  originExtension?: string;
  /**
   * A guard that did not answer within the interception deadline blocks the call, instead of zut's "allow"
   * (zut-extensions.md), and so does any extension still starting or still registering at `deadline` (it may be a
   * guard that could not be asked: extensions/absentGuards.ts). The agent hooks use it: there a silent guard must not
   * read as "no opinion" (issues 29, 37).
   */
  strict?: boolean;
  /**
   * Until when (ms since epoch) to wait for guards that could not be asked yet (restarting, starting, not yet
   * subscribed); omitted: GUARD_RETURN_WAIT_MS from now. At it, the call is denied naming them.
   */
  deadline?: number;
}

/** The guards' verdict: blocked (by a guard, or by zut when it could not judge), or the input to run with. */
export type GuardVerdict = { blocked: Blocked } | { blocked?: undefined; input: unknown; rewrittenBy: readonly string[] };

/** A view as the frames carry it: its own id, the real tool's name, its effect. */
export interface FramedView extends GuardView {
  toolId: string;
}

/** The name zut blocks in when it cannot judge a call itself. */
export const ZUT = 'zut';

/** One call's state in the door, for the door's steps to share (it is never handed out). */
export class GuardRun {
  /** The guards that rewrote the arguments, in order. */
  private readonly rewrittenBy: string[] = [];
  /** The guards whose chain this call has been through (a later look asks only the others). */
  readonly asked = new Set<string>();
  /** The subscribers that heard its `tool_call` event (a later announcement reaches only the others). */
  readonly heard = new Set<string>();
  #call: ForeignCall | null | undefined;
  #views: FramedView[] | undefined;
  #current: JsonObject[] | undefined;
  #toolId: string | undefined;

  constructor(readonly req: GuardRequest) {}

  /** The call's id: the request's, or a fresh one at its first use. */
  get toolId(): string {
    return (this.#toolId ??= this.req.toolId ?? randomUUID());
  }

  /** The foreign call (undefined for a zut tool's call), computed at its first use only. */
  get call(): ForeignCall | undefined {
    if (this.#call === undefined) this.#call = this.req.source ? foreignCall(this.req.source, this.req.name, this.req.input) : null;
    return this.#call ?? undefined;
  }

  /** The views guards see, built at their first use only (a call nobody listens to needs none). */
  get views(): FramedView[] {
    return (this.#views ??= viewsOf(this.req, this.toolId, this.call?.views));
  }

  /**
   * After the door itself failed: views not built yet show the tool as its owner names it (the table may be what
   * failed), so the events of the denial can still be sent.
   */
  unmapped(): void {
    if (this.#views) return;
    this.#call = null;
    this.#views = viewsOf(this.req, this.toolId, undefined);
  }

  /** The views' arguments as the chains have rewritten them so far. */
  private get current(): JsonObject[] {
    return (this.#current ??= this.views.map((v) => v.args));
  }

  /** Runs each view through `chain` (a rewrite carries into the next guard and the verdict); the first block. */
  async chains(chain: Interceptor[]): Promise<Blocked | undefined> {
    for (const i of chain) this.asked.add(i.ext);
    if (chain.length === 0) return undefined;
    const call = this.call;
    for (let i = 0; i < this.views.length; i++) {
      const accept = call && ((args: unknown) => refusal(call.back(this.current.map((a, j) => (j === i ? (args as JsonObject) : a)))));
      const d = await chainToolCall(chain, { ...frameOf(this.views[i], this.req), tool_args: this.current[i] }, accept, this.req.strict);
      if (d.blocked) return d.blocked;
      this.current[i] = d.args as JsonObject;
      for (const by of d.rewrittenBy) if (!this.rewrittenBy.includes(by)) this.rewrittenBy.push(by);
    }
    return undefined;
  }

  /** The verdict when no guard blocked: the arguments as rewritten, mapped back onto the owner's input. */
  allowed(): GuardVerdict {
    const call = this.call;
    if (!call) return { input: this.current[0], rewrittenBy: this.rewrittenBy };
    const back = call.back(this.current);
    // `accept` refused what cannot map during the chain; this only catches a combination no single step showed.
    if ('error' in back) return { blocked: { ext: this.rewrittenBy[this.rewrittenBy.length - 1] ?? ZUT, reason: `modified_args cannot be applied to ${this.req.name}: ${back.error}` } };
    return { input: back.input, rewrittenBy: this.rewrittenBy };
  }

  /** The verdict of a call no guard judges: its input as it came. */
  untouched(): GuardVerdict {
    return { input: this.req.input ?? {}, rewrittenBy: [] };
  }
}

/** The views of a call with their ids: a zut tool's own, or a foreign call's (the first keeps the call's id). */
export function viewsOf(req: GuardRequest, toolId: string, foreign: readonly GuardView[] | undefined): FramedView[] {
  if (!foreign) return [{ name: req.name, args: (req.input ?? {}) as JsonObject, toolId }];
  return foreign.map((v, i) => ({ ...v, toolId: i === 0 ? toolId : `${toolId}#${i + 1}` }));
}

/** The fields a view's `tool_call` event, interception and `tool_result` event carry: a `tool_call` interception's. */
export type ViewFrame = ToolCallIntercept;

/** The frame fields of view `v` of `req`. */
export function frameOf(v: FramedView, req: GuardRequest): ViewFrame {
  // Built by assignment, not conditional spreads: this runs on every guarded call (bench: editor-tool).
  const f: ViewFrame = { tool_id: v.toolId, tool_name: v.name, tool_args: v.args };
  if (req.originExtension !== undefined) f.origin_extension = req.originExtension;
  if (req.source) f.editor_tool = req.name;
  if (v.effect !== undefined) f.effect = v.effect;
  return f;
}

/** What guards see of `source`'s tool `name` called with `input` (the input that ran, after a rewrite). */
export function foreignViews(source: ForeignSource, name: string, input: unknown): readonly GuardView[] {
  return foreignCall(source, name, input).views;
}

const refusal = (back: { input: JsonObject } | { error: string }): string | undefined => ('error' in back ? back.error : undefined);
