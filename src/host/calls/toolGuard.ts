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
 * pass it. `finished` emits the `tool_result` event of each view. One call's state (views, rewrites, who was asked):
 * guardRun.ts. VS Code-free.
 */
import { CALL_TOOL_RESULT_MAX_BYTES, GUARD_RETURN_WAIT_MS, GUARD_START_POLL_MS, TOOL_ARGS_MAX_BYTES, TOOL_ARGS_MAX_DEPTH, TOOL_SUMMARY_MAX_CHARS } from '../../protocol/limits';
import { isObject } from '../../protocol/json';
import type { Blocked, LifecycleEvent, ToolResult } from '../types';
import { boundContent } from './boundContent';
import type { GuardView, JsonObject } from './foreignTools';
import { foreignViews, frameOf, GuardRun, viewsOf, ZUT, type GuardRequest, type GuardVerdict, type ViewFrame } from './guardRun';
import type { Interceptor } from './intercept';
import { jsonBoundsError } from './jsonBounds';
import { absentReason, type AbsentGuard } from '../extensions/absentGuards';

export { ZUT, type GuardRequest, type GuardVerdict } from './guardRun';

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

/** The door: `guard` judges a call (each call's state is a GuardRun); `permission` and `observed` tell the rest. */
export class ToolGuard {
  constructor(private readonly port: GuardPort) {}

  /** Judges one call. Never rejects: a failure of its own blocks the call in zut's name. */
  async guard(request: GuardRequest): Promise<Guarded> {
    // A foreign tool's input is an object (anything else reads as `{}`, as foreignCall reads it).
    const run = new GuardRun(request.source && !isObject(request.input) ? { ...request, input: {} } : request);
    const subscribed = this.port.hasSubscribers('tool_call');
    // A guard that could not be asked now is waited for, never taken for "no guard" (strict: any that may be one).
    const strict = run.req.strict === true;
    const absent = this.port.absent?.(strict) ?? [];
    const intercepted = this.port.hasInterceptors('tool_call') || absent.length > 0;
    // Nobody listens to tool_call: nothing to map or check, the call starts at once (bench: editor-tool). The views
    // are built only if a tool_result subscriber wants them.
    if (!subscribed && !intercepted) return this.judged(run, run.untouched());
    try {
      return this.judged(run, await this.judge(run, { subscribed, intercepted, strict, absent }));
    } catch (e) {
      run.unmapped();
      return this.judged(run, { blocked: { ext: ZUT, reason: `zut could not judge this call: ${e instanceof Error ? e.message : String(e)}` } });
    }
  }

  /** The verdict on a call someone listens to: mapped, bounded, announced, then through the chains. */
  private async judge(run: GuardRun, o: { subscribed: boolean; intercepted: boolean; strict: boolean; absent: AbsentGuard[] }): Promise<GuardVerdict> {
    const { req, views } = run;
    // A tool the table shows as zut's, with an input of another shape: a guard would not recognise what runs.
    if (run.call?.unfit && o.intercepted) return { blocked: { ext: ZUT, reason: `zut cannot show this ${req.name} call to its guards: its input does not have ${req.name}'s shape` } };
    const tooBig = views.map((v) => jsonBoundsError(v.args, TOOL_ARGS_MAX_DEPTH, TOOL_ARGS_MAX_BYTES)).find((e) => e !== undefined);
    // Subscribers hear nothing of a call they could not be sent; a guard that would have to judge it blocks it.
    if (tooBig) return o.intercepted ? { blocked: { ext: ZUT, reason: `zut cannot hand this call to its guards: ${tooBig}` } } : run.untouched();
    if (o.subscribed) this.announce(run);
    if (!o.intercepted) return run.untouched();
    // The guards running now; then those that could not be asked yet, as each comes up, until the deadline (an
    // absent guard delays only its own opinion: a block by a running guard does not wait for it).
    let blocked = await run.chains(this.port.toolCallInterceptors());
    if (!blocked && o.absent.length > 0) {
      blocked = await this.asTheyCome(o.strict, req.deadline ?? Date.now() + GUARD_RETURN_WAIT_MS, () => {
        this.announce(run); // to those that came up meanwhile
        return run.chains(this.port.toolCallInterceptors().filter((i) => !run.asked.has(i.ext)));
      });
    }
    return blocked ? { blocked } : run.allowed();
  }

  /** Each view to every subscriber that has not heard it yet (again later, in a strict wait, to those that came up). */
  private announce(run: GuardRun): void {
    const reached = run.views.flatMap((v) => this.port.emitExcept({ event: 'tool_call', ...frameOf(v, run.req) }, run.heard));
    for (const ext of reached) run.heard.add(ext);
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
      await new Promise((r) => setTimeout(r, Math.min(GUARD_START_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
  }

  /**
   * What the agent (or a guard) decided about the call, for zot's subscribers: `tool_confirmation_requested` (the
   * agent is about to ask the person; spec: with a short `tool_preview`) or `permission_decision` (zot-extensions.md:
   * approved/denied/cancelled by the user, a remembered approval, a policy). One event for the call, under the name
   * guards see (its first view).
   */
  permission(req: GuardRequest, what: PermissionEvent): void {
    this.emitPermission(new GuardRun(req), what);
  }

  /** A call another agent already ran (its PostToolUse hook): the `tool_result` event for each view. */
  observed(req: GuardRequest, result: Pick<ToolResult, 'content' | 'isError'>): void {
    if (!this.port.hasSubscribers('tool_result')) return;
    this.emitResults(new GuardRun(req), req.input, result.isError ? 'failed' : 'completed', result, true);
  }

  private emitPermission(run: GuardRun, what: PermissionEvent): void {
    const event = what.kind === 'confirmation' ? 'tool_confirmation_requested' : 'permission_decision';
    if (!this.port.hasSubscribers(event)) return;
    const v = run.views[0];
    const frame = frameOf(v, run.req);
    if (what.kind === 'confirmation') this.port.emit({ event, tool_id: frame.tool_id, tool_name: frame.tool_name, tool_preview: previewOf(v), ...extrasOf(frame) });
    else this.port.emit({ event, tool_id: frame.tool_id, tool_name: frame.tool_name, decision: what.decision, source: what.source, stage: 'pre_execution', ...(what.reason !== undefined && { reason: what.reason }), ...extrasOf(frame) });
  }

  private judged(run: GuardRun, verdict: GuardVerdict): Guarded {
    // A guard's refusal (or zut's) is a policy decision (zot-extensions.md: "Guard refusals … use policy").
    if (verdict.blocked) this.emitPermission(run, { kind: 'decision', decision: 'denied', source: 'policy', reason: `blocked by ${verdict.blocked.ext}: ${verdict.blocked.reason}` });
    return {
      verdict,
      finished: (status, result, executed) => {
        if (!this.port.hasSubscribers('tool_result')) return;
        this.emitResults(run, verdict.blocked ? run.req.input : verdict.input, status, result, executed);
      },
    };
  }

  private emitResults(run: GuardRun, ran: unknown, status: ToolOutcomeStatus, result: Pick<ToolResult, 'content' | 'isError'>, executed: boolean): void {
    const { req, views } = run;
    // zot's observation budget: the event's copy of the result is bounded (the call's own result is not).
    const { content, truncated } = boundContent(result.content, CALL_TOOL_RESULT_MAX_BYTES);
    const bounded = { content, is_error: result.isError, ...(truncated ? { truncated } : {}) };
    // The arguments that ran: for a zut tool the effective ones; a foreign tool's views show zut's shape of them.
    const effective = req.source ? (ran === req.input ? views : viewsOf(req, run.toolId, foreignViews(req.source, req.name, ran))) : [{ ...views[0], args: ran as JsonObject }];
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
function extrasOf(f: ViewFrame): { origin_extension?: string; editor_tool?: string; effect?: string } {
  const x: { origin_extension?: string; editor_tool?: string; effect?: string } = {};
  if (f.origin_extension !== undefined) x.origin_extension = f.origin_extension;
  if (f.editor_tool !== undefined) x.editor_tool = f.editor_tool;
  if (f.effect !== undefined) x.effect = f.effect;
  return x;
}
