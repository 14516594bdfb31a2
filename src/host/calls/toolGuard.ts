/**
 * The one guard door. Every tool call — whoever makes it (`@zut`, the palette, the CLI, agent mode and `zut-host mcp`,
 * a zot extension's `call_tool`, an agent's PreToolUse hook) and whoever owns the tool (a zut extension, VS Code,
 * Claude Code, Copilot CLI) — is judged here: the foreign tool mapped onto zut's (foreignTools/: one view, or one per
 * file of a patch), the `tool_call` event to subscribers, the interception chain for each view (the first block
 * wins; rewrites chain; one the owner's input cannot express is refused in that guard's name), the rewrite mapped
 * back. It fails closed: arguments too deep or too large to hand to a guard, a guard that could not judge (it
 * exited, its request could not be written; in `strict` mode also one that did not answer in time), a guard the
 * host knows that could not be asked now (restarting, crashed, given up, not yet subscribed: absentGuards.ts; it is
 * waited for until the call's deadline), and any failure of this step itself block the call in zut's name — never
 * pass it. `finished` emits the `tool_result` event of
 * each view. VS Code-free.
 */
import { randomUUID } from 'node:crypto';
import { GUARD_RETURN_WAIT_MS, HOOK_START_POLL_MS, TOOL_ARGS_MAX_BYTES, TOOL_ARGS_MAX_DEPTH, TOOL_SUMMARY_MAX_CHARS } from '../../protocol/limits';
import type { Blocked, LifecycleEvent, ToolResult } from '../types';
import { boundContent } from './boundContent';
import { CALL_TOOL_RESULT_MAX_BYTES } from '../../protocol/limits';
import { foreignCall, type ForeignCall, type ForeignSource, type GuardView, type JsonObject } from './foreignTools';
import { isObject } from './foreignTools/fields';
import { chainToolCall, type Interceptor } from './intercept';
import { jsonBoundsError } from './jsonBounds';
import { absentReason, type AbsentGuard } from '../extensions/absentGuards';

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

/** How a call ended, in the `tool_result` event (zot-extensions.md: Tool outcomes). */
export type ToolOutcomeStatus = 'completed' | 'failed' | 'blocked' | 'cancelled' | 'timed_out';

/** A judged call: the verdict, and the `tool_result` event to send when it has run. */
export interface Guarded {
  readonly verdict: GuardVerdict;
  /** The `tool_result` event for each view (`executed`: the tool ran, even if it then failed). */
  finished(status: ToolOutcomeStatus, result: Pick<ToolResult, 'content' | 'isError'>, executed: boolean): void;
}

/** What the door needs of the host. */
export interface GuardPort {
  hasSubscribers(event: string): boolean;
  hasInterceptors(event: string): boolean;
  emit(event: LifecycleEvent): void;
  /** `emit` to the subscribers not in `except`; who got it. */
  emitExcept(event: LifecycleEvent, except: ReadonlySet<string>): string[];
  /** The live `tool_call` interceptors, in load order. */
  toolCallInterceptors(): Interceptor[];
  /**
   * The guards that could not be asked now (absentGuards.ts): those the host knows, and with `strict` every extension
   * that may still turn out to be one (starting, or registering without `ready`).
   */
  absent?(strict: boolean): AbsentGuard[];
}

/** A view as the frames carry it: its own id, the real tool's name, its effect. */
interface FramedView extends GuardView {
  toolId: string;
}

/** The name zut blocks in when it cannot judge a call itself. */
export const ZUT = 'zut';

export class ToolGuard {
  constructor(private readonly port: GuardPort) {}

  /** Judges one call. Never rejects: a failure of its own blocks the call in zut's name. */
  async guard(request: GuardRequest): Promise<Guarded> {
    // A foreign tool's input is an object (anything else reads as `{}`, as foreignCall reads it).
    const req = request.source && !isObject(request.input) ? { ...request, input: {} } : request;
    const toolId = req.toolId ?? randomUUID();
    const subscribed = this.port.hasSubscribers('tool_call');
    // A guard that could not be asked now is waited for, never taken for "no guard" (strict: any that may be one).
    const strict = req.strict === true;
    const absent = this.port.absent?.(strict) ?? [];
    const intercepted = this.port.hasInterceptors('tool_call') || absent.length > 0;
    // Nobody listens to tool_call: nothing to map or check, the call starts at once (bench: editor-tool). The views
    // are built only if a tool_result subscriber wants them.
    if (!subscribed && !intercepted) return this.judged(req, toolId, undefined, { input: req.input ?? {}, rewrittenBy: [] });
    let views: FramedView[] | undefined;
    try {
      const call = req.source ? foreignCall(req.source, req.name, req.input) : undefined;
      views = viewsOf(req, toolId, call?.views);
      // A tool the table shows as zut's, with an input of another shape: a guard would not recognise what runs.
      if (call?.unfit && intercepted) return this.judged(req, toolId, views, { blocked: { ext: ZUT, reason: `zut cannot show this ${req.name} call to its guards: its input does not have ${req.name}'s shape` } });
      const tooBig = views.map((v) => jsonBoundsError(v.args, TOOL_ARGS_MAX_DEPTH, TOOL_ARGS_MAX_BYTES)).find((e) => e !== undefined);
      if (tooBig) {
        // Subscribers hear nothing of a call they could not be sent; a guard that would have to judge it blocks it.
        if (intercepted) return this.judged(req, toolId, views, { blocked: { ext: ZUT, reason: `zut cannot hand this call to its guards: ${tooBig}` } });
        return this.judged(req, toolId, views, { input: req.input ?? {}, rewrittenBy: [] });
      }
      // Each view to every subscriber; again later (a strict wait) only to those that came up meanwhile.
      const heard = new Set<string>();
      const announce = () => {
        const reached = views!.flatMap((v) => this.port.emitExcept({ event: 'tool_call', ...frameOf(v, req) }, heard));
        for (const ext of reached) heard.add(ext);
      };
      if (subscribed) announce();
      if (!intercepted) return this.judged(req, toolId, views, { input: req.input ?? {}, rewrittenBy: [] });
      const current = views.map((v) => v.args);
      const rewrittenBy: string[] = [];
      const asked = new Set<string>();
      // The guards running now; then those that could not be asked yet, as each comes up, until the deadline (an
      // absent guard delays only its own opinion: a block by a running guard does not wait for it).
      let blocked = await this.chains(this.port.toolCallInterceptors(), views, current, call, req, rewrittenBy, asked);
      if (!blocked && absent.length > 0) blocked = await this.asTheyCome(strict, req.deadline ?? Date.now() + GUARD_RETURN_WAIT_MS, () => {
        announce(); // to those that came up meanwhile
        return this.chains(this.port.toolCallInterceptors().filter((i) => !asked.has(i.ext)), views!, current, call, req, rewrittenBy, asked);
      });
      if (blocked) return this.judged(req, toolId, views, { blocked });
      if (!call) return this.judged(req, toolId, views, { input: current[0], rewrittenBy });
      const back = call.back(current);
      // `accept` refused what cannot map during the chain; this only catches a combination no single step showed.
      if ('error' in back) return this.judged(req, toolId, views, { blocked: { ext: rewrittenBy[rewrittenBy.length - 1] ?? ZUT, reason: `modified_args cannot be applied to ${req.name}: ${back.error}` } });
      return this.judged(req, toolId, views, { input: back.input, rewrittenBy });
    } catch (e) {
      return this.judged(req, toolId, views, { blocked: { ext: ZUT, reason: `zut could not judge this call: ${e instanceof Error ? e.message : String(e)}` } });
    }
  }

  /** Runs each view through `chain` (rewrites chain into `current`); the first block. */
  private async chains(chain: Interceptor[], views: FramedView[], current: JsonObject[], call: ForeignCall | undefined, req: GuardRequest, rewrittenBy: string[], asked: Set<string>): Promise<Blocked | undefined> {
    for (const i of chain) asked.add(i.ext);
    if (chain.length === 0) return undefined;
    for (let i = 0; i < views.length; i++) {
      const accept = call && ((args: unknown) => refusal(call.back(current.map((a, j) => (j === i ? (args as JsonObject) : a)))));
      const d = await chainToolCall(chain, { ...frameOf(views[i], req), tool_args: current[i] }, accept, req.strict);
      if (d.blocked) return d.blocked;
      current[i] = d.args as JsonObject;
      for (const by of d.rewrittenBy) if (!rewrittenBy.includes(by)) rewrittenBy.push(by);
    }
    return undefined;
  }

  /**
   * Until no guard is absent: `askFresh` after each look (the guards that came up meanwhile; its block ends the
   * wait). One that cannot come back (given up, failed) blocks the call at once; at `deadline` with some still
   * absent, the call is blocked naming them: their guards could not be asked.
   */
  private async asTheyCome(strict: boolean, deadline: number, askFresh: () => Promise<Blocked | undefined>): Promise<Blocked | undefined> {
    for (;;) {
      const still = this.port.absent?.(strict) ?? [];
      const blocked = await askFresh();
      if (blocked || still.length === 0) return blocked;
      const gone = still.filter((a) => a.final);
      if (gone.length > 0) return { ext: ZUT, reason: absentReason(gone, false) };
      if (Date.now() >= deadline) return { ext: ZUT, reason: absentReason(still, true) };
      await new Promise((r) => setTimeout(r, Math.min(HOOK_START_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
  }

  /**
   * What the agent (or a guard) decided about the call, for zot's subscribers: `tool_confirmation_requested` (the
   * agent is about to ask the person; spec: with a short `tool_preview`) or `permission_decision` (zot-extensions.md:
   * approved/denied/cancelled by the user, a remembered approval, a policy). One event for the call, under the name
   * guards see (its first view).
   */
  permission(req: GuardRequest, what: PermissionEvent): void {
    const event = what.kind === 'confirmation' ? 'tool_confirmation_requested' : 'permission_decision';
    if (!this.port.hasSubscribers(event)) return;
    const call = req.source ? foreignCall(req.source, req.name, req.input) : undefined;
    const [v] = viewsOf(req, req.toolId ?? randomUUID(), call?.views);
    const frame = frameOf(v, req);
    if (what.kind === 'confirmation') this.port.emit({ event, tool_id: frame.tool_id, tool_name: frame.tool_name, tool_preview: previewOf(v), ...extrasOf(frame) });
    else this.port.emit({ event, tool_id: frame.tool_id, tool_name: frame.tool_name, decision: what.decision, source: what.source, stage: 'pre_execution', ...(what.reason !== undefined && { reason: what.reason }), ...extrasOf(frame) });
  }

  /** A call another agent already ran (its PostToolUse hook): the `tool_result` event for each view. */
  observed(req: GuardRequest, result: Pick<ToolResult, 'content' | 'isError'>): void {
    if (!this.port.hasSubscribers('tool_result')) return;
    const call = req.source ? foreignCall(req.source, req.name, req.input) : undefined;
    this.emitResults(req, viewsOf(req, req.toolId ?? randomUUID(), call?.views), req.input, result.isError ? 'failed' : 'completed', result, true);
  }

  private judged(req: GuardRequest, toolId: string, views: FramedView[] | undefined, verdict: GuardVerdict): Guarded {
    // A guard's refusal (or zut's) is a policy decision (zot-extensions.md: "Guard refusals … use policy").
    if (verdict.blocked) this.permission({ ...req, toolId }, { kind: 'decision', decision: 'denied', source: 'policy', reason: `blocked by ${verdict.blocked.ext}: ${verdict.blocked.reason}` });
    return {
      verdict,
      finished: (status, result, executed) => {
        if (!this.port.hasSubscribers('tool_result')) return;
        const framed = views ?? viewsOf(req, toolId, req.source ? foreignCall(req.source, req.name, req.input).views : undefined);
        this.emitResults(req, framed, verdict.blocked ? req.input : verdict.input, status, result, executed);
      },
    };
  }

  private emitResults(req: GuardRequest, views: FramedView[], ran: unknown, status: ToolOutcomeStatus, result: Pick<ToolResult, 'content' | 'isError'>, executed: boolean): void {
    // zot's observation budget: the event's copy of the result is bounded (the call's own result is not).
    const { content, truncated } = boundContent(result.content, CALL_TOOL_RESULT_MAX_BYTES);
    const bounded = { content, is_error: result.isError, ...(truncated ? { truncated } : {}) };
    // The arguments that ran: for a zut tool the effective ones; a foreign tool's views show zut's shape of them.
    const effective = req.source ? (ran === req.input ? views : viewsOf(req, views[0].toolId, foreignCall(req.source, req.name, ran).views)) : [{ ...views[0], args: ran as JsonObject }];
    for (const v of effective) {
      if (jsonBoundsError(v.args, TOOL_ARGS_MAX_DEPTH, TOOL_ARGS_MAX_BYTES)) continue;
      this.port.emit({ event: 'tool_result', ...frameOf(v, req), status, executed, result: bounded });
    }
  }
}

/** An agent's permission step for a call (Manager.permission). */
export type PermissionEvent =
  | { kind: 'confirmation' }
  | { kind: 'decision'; decision: 'approved' | 'denied' | 'cancelled'; source: 'user' | 'remembered' | 'policy' | 'yolo'; reason?: string };

/** The spec's short `tool_preview` of a view (what the agent's dialog shows): its command, path, URL or pattern. */
function previewOf(v: GuardView): string {
  const a = v.args;
  const key = ['command', 'path', 'url', 'pattern', 'file_path', 'filePath'].find((k) => typeof a[k] === 'string');
  const text = key ? (a[key] as string) : JSON.stringify(a);
  return text.length > TOOL_SUMMARY_MAX_CHARS ? text.slice(0, TOOL_SUMMARY_MAX_CHARS - 1) + '…' : text;
}

/** A frame's additive fields (`origin_extension`, `editor_tool`, `effect`), for events that carry them too. */
function extrasOf(f: ReturnType<typeof frameOf>): { origin_extension?: string; editor_tool?: string; effect?: string } {
  const x: { origin_extension?: string; editor_tool?: string; effect?: string } = {};
  if (f.origin_extension !== undefined) x.origin_extension = f.origin_extension;
  if (f.editor_tool !== undefined) x.editor_tool = f.editor_tool;
  if (f.effect !== undefined) x.effect = f.effect;
  return x;
}

/** The views of a call with their ids: a zut tool's own, or a foreign call's (the first keeps the call's id). */
function viewsOf(req: GuardRequest, toolId: string, foreign: readonly GuardView[] | undefined): FramedView[] {
  if (!foreign) return [{ name: req.name, args: (req.input ?? {}) as JsonObject, toolId }];
  return foreign.map((v, i) => ({ ...v, toolId: i === 0 ? toolId : `${toolId}#${i + 1}` }));
}

/** The fields a view's `tool_call` event, interception and `tool_result` event carry. */
function frameOf(v: FramedView, req: GuardRequest): { tool_id: string; tool_name: string; tool_args: unknown; origin_extension?: string; editor_tool?: string; effect?: string } {
  // Built by assignment, not conditional spreads: this runs on every guarded call (bench: editor-tool).
  const f: ReturnType<typeof frameOf> = { tool_id: v.toolId, tool_name: v.name, tool_args: v.args };
  if (req.originExtension !== undefined) f.origin_extension = req.originExtension;
  if (req.source) f.editor_tool = req.name;
  if (v.effect !== undefined) f.effect = v.effect;
  return f;
}

const refusal = (back: { input: JsonObject } | { error: string }): string | undefined => ('error' in back ? back.error : undefined);
