/**
 * Requests an extension makes of the host (protocols/types.ts, ExtMessage `request`). zot's `call_tool` runs a
 * tool through the one guarded tool path (`invokeTool`: event, guards, call) with zot's rules
 * (zot-extensions.md, `call_tool`): other extensions' zut/zot tools by name, else a tool the host implements (zot's
 * built-in `skill`, while running extensions bundle skills), else one of the editor's own tools (the EditorToolPort,
 * VS Code's `vscode.lm.tools`; guards see zut's counterpart, foreignTools/), else an error result; a 60 s deadline;
 * `call_tool_cancel`;
 * results bounded to 256 KiB; chains through `parent_id` (the host's `tool_call` id) of at most four calls without
 * a repeated name; no call without `parent_id` while a host-invoked tool of that extension runs. Every request
 * gets an answer: a result or an error, never silence. `ask` (e's `ui.select` / `ui.confirm` / `ui.input`) goes to
 * HostUi.ask: VS Code asks the user, the CLI answers `no ui`; when the extension goes away its questions are taken
 * down (their answers would have nowhere to go). Methods the host does not know are answered with an error.
 */
import { CallToolParams } from '../../protocol/zot';
import type { SessionContext } from '../../protocol';
import { boundContent } from './boundContent';
import type { HostUi, Question } from '../hostUi';
import type { EditorToolPort } from '../editorToolPort';
import type { InvokeResult, InvokeToolOptions } from './invoke';
import { CALL_TOOL_MAX_CHAIN, CALL_TOOL_RESULT_MAX_BYTES, CALL_TOOL_TIMEOUT_MS } from '../../protocol/limits';
import type { ExtRequestId, Responder } from '../protocols/types';
import { RequestError, type ToolInfo, type ToolResult } from '../types';

/** What the request handlers need of the host (the Manager). */
export interface ExtRequestHost {
  ui(): HostUi;
  /** The editor's own tools (none outside an editor). */
  editorTools(): EditorToolPort | undefined;
  allTools(): ToolInfo[];
  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult>;
  /** The session branch a call from an extension files its `details` under. */
  session(): SessionContext;
  /** A tool the host implements itself (`skill`), when it is offered now: how to run it. */
  hostTool?(name: string): ((args: unknown, signal: AbortSignal) => Promise<ToolResult>) | undefined;
}


/** A host-invoked tool call running in an extension: its chain (names, outermost first) and its cancellation. */
interface ActiveCall {
  chain: readonly string[];
  signal?: AbortSignal;
}

export class ExtensionRequests {
  /** Host → extension tool calls in flight, per extension (lower-case name) and call id. */
  private readonly active = new Map<string, Map<string, ActiveCall>>();
  /** The extensions' own `call_tool` requests in flight, per extension and request id. */
  private readonly inflight = new Map<string, Map<ExtRequestId, AbortController>>();

  /** @param callToolTimeoutMs zot's `call_tool` deadline (`CALL_TOOL_TIMEOUT_MS`; shorter in tests). */
  constructor(
    private readonly host: ExtRequestHost,
    private readonly callToolTimeoutMs = CALL_TOOL_TIMEOUT_MS,
  ) {}

  /** A host-invoked tool call `id` of `ext` started (its `chain` includes its own name); returns its end. */
  track(ext: string, id: string, chain: readonly string[], signal?: AbortSignal): () => void {
    const key = ext.toLowerCase();
    let calls = this.active.get(key);
    if (!calls) this.active.set(key, (calls = new Map()));
    calls.set(id, { chain, signal });
    return () => {
      calls.delete(id);
      if (calls.size === 0 && this.active.get(key) === calls) this.active.delete(key);
    };
  }

  /** One request from `ext`; the answer goes to `to`. */
  handle(ext: string, to: Responder, id: ExtRequestId, method: string, params: unknown): void {
    if (method === 'ask') return this.ask(ext, to, id, params as Question);
    if (method !== 'call_tool') {
      to.respond(id, { kind: 'error', message: `${method}: not supported by zut-vscode` });
      return;
    }
    void this.callTool(ext, to, id, params);
  }

  /** A question for the user (the adapter built it: protocols/eUi.ts); answered with the answer or the error. */
  private ask(ext: string, to: Responder, id: ExtRequestId, question: Question): void {
    const mine = this.requestsOf(ext);
    const abort = new AbortController();
    mine.set(id, abort);
    let asked: Promise<unknown>;
    try {
      asked = this.host.ui().ask(ext, question, abort.signal);
    } catch (e) {
      asked = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    void asked
      .then(
        (value) => abort.signal.aborted || to.respond(id, { kind: 'result', value }),
        (e: unknown) => abort.signal.aborted || to.respond(id, { kind: 'error', message: e instanceof Error ? e.message : String(e) }),
      )
      .finally(() => this.forget(ext, id, mine));
  }

  /** The extension's own requests in flight (created on first use). */
  private requestsOf(ext: string): Map<ExtRequestId, AbortController> {
    const key = ext.toLowerCase();
    let mine = this.inflight.get(key);
    if (!mine) this.inflight.set(key, (mine = new Map()));
    return mine;
  }

  private forget(ext: string, id: ExtRequestId, mine: Map<ExtRequestId, AbortController>): void {
    mine.delete(id);
    const key = ext.toLowerCase();
    if (mine.size === 0 && this.inflight.get(key) === mine) this.inflight.delete(key);
  }

  /** `call_tool_cancel`: ends that request (its answer is an error result saying so). */
  cancel(ext: string, id: ExtRequestId): void {
    this.inflight.get(ext.toLowerCase())?.get(id)?.abort();
  }

  /** The extension is gone: its own requests end. */
  closed(ext: string): void {
    const key = ext.toLowerCase();
    for (const c of this.inflight.get(key)?.values() ?? []) c.abort();
    this.inflight.delete(key);
    this.active.delete(key);
  }

  private async callTool(ext: string, to: Responder, id: ExtRequestId, params: unknown): Promise<void> {
    const fail = (message: string) => void to.respond(id, { kind: 'error', message: `call_tool: ${message}` });
    const p = CallToolParams.safeParse(params);
    if (!p.success) {
      const issue = p.error.issues[0];
      return fail(`invalid request: ${issue?.path.map(String).join('.') || '(params)'}: ${issue?.message ?? 'invalid'}`);
    }
    const { name, args, parent_id } = p.data;
    const key = ext.toLowerCase();
    let parent: ActiveCall | undefined;
    if (parent_id !== undefined) {
      parent = this.active.get(key)?.get(parent_id);
      if (!parent) return fail(`unknown or expired parent_id "${parent_id}"`);
    } else if (this.active.get(key)?.size) {
      return fail(`refused without parent_id while a tool of ${ext} is running (set parent_id to that tool_call's id)`);
    }
    const chain = parent?.chain ?? [];
    if (chain.some((n) => n.toLowerCase() === name.toLowerCase())) return fail(`tool ${name} is already in this chain (${[...chain, name].join(' → ')})`);
    if (chain.length + 1 > CALL_TOOL_MAX_CHAIN) return fail(`at most ${CALL_TOOL_MAX_CHAIN} tool calls in one chain (${[...chain, name].join(' → ')})`);

    const zut = this.host.allTools().find((t) => t.name.toLowerCase() === name.toLowerCase());
    const own = zut ? undefined : this.host.hostTool?.(name);
    const port = zut || own ? undefined : this.host.editorTools();
    const editor = port?.tools().find((t) => t.name === name);
    if (!zut && !own && !editor) return fail(`unknown tool ${name}`);

    const abort = new AbortController();
    const mine = this.requestsOf(ext);
    mine.set(id, abort);
    // zot's 60 s for the whole call (guards included, editor tools too): the abort's reason says it was the deadline.
    const timer = setTimeout(() => abort.abort(new RequestError('timeout', `tool ${name} timed out after ${this.callToolTimeoutMs / 1000}s`)), this.callToolTimeoutMs);
    const onParentAbort = () => abort.abort();
    parent?.signal?.addEventListener('abort', onParentAbort, { once: true });
    try {
      // An editor tool: guards see zut's counterpart when there is one (`run_in_terminal` as `bash`).
      const foreign = editor && port ? { source: 'vscode' as const, run: (input: Record<string, unknown>, signal: AbortSignal) => port.invoke(name, input, signal) } : undefined;
      const options = { session: this.host.session(), origin: 'extension' as const, signal: abort.signal, chain, originExtension: ext, foreign };
      const result = await this.host.invokeTool(name, args, own ? { ...options, run: own } : options);
      const bounded = boundContent(result.content, CALL_TOOL_RESULT_MAX_BYTES);
      to.respond(id, { kind: 'tool', name: zut?.name ?? name, content: bounded.content, isError: result.isError, truncated: bounded.truncated });
    } catch (e) {
      fail(e instanceof RequestError && e.kind === 'cancelled' ? `tool ${name} was cancelled` : (e as Error).message);
    } finally {
      clearTimeout(timer);
      parent?.signal?.removeEventListener('abort', onParentAbort);
      this.forget(ext, id, mine);
    }
  }
}
