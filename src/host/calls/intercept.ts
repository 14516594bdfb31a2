/**
 * The interception chain: extensions are consulted serially in load order; the first `block` wins; rewrites
 * (`modified_args`, `replace_text`) chain; `turn_start` contexts are joined and capped. The interceptors of one
 * event are the live extensions that intercept it, each asked through its connection with the interception
 * deadline. A guard that does not answer in time allows (zut-extensions.md: "an unresponsive extension never stalls
 * the agent"), unless the caller is strict (agent hooks); for `tool_call`, a guard that could not judge the call at
 * all (it exited meanwhile, the request could not be written) blocks it: fail closed. For the other events any
 * failure allows. `before_agent_start` results are kept per request until extensions are (re)loaded (zot: "stable
 * across normal user messages").
 */
import { randomUUID } from 'node:crypto';
import { type AcceptArgs, type AssistantMessageDecision, RequestError, type RequestFailure, type ToolCallIntercept, type TurnStartDecision, type Blocked } from '../types';
import type { InterceptPayload, InterceptReply } from '../protocols/types';

import { CONTEXT_CAP_BYTES, SYSTEM_PROMPT_MAX_BYTES } from '../../protocol/limits';
import { cutUtf8 } from './boundContent';
import type { ExtensionSupervisor } from '../extensions/supervisor';
import { isObject } from '../../protocol/json';

export { CONTEXT_CAP_BYTES };
export const CONTEXT_TRUNCATED_MARKER = '[extension context truncated]';

/** Why an interceptor gave no response: the request's failure (a timeout, the extension gone, …). */
export interface InterceptFailure {
  failure: RequestFailure;
  message: string;
}

/** One interceptor: asks its extension and resolves with the response, or why there is none. */
export interface Interceptor {
  ext: string;
  ask(payload: InterceptPayload): Promise<InterceptReply | InterceptFailure>;
  /** Reports a problem with a response (e.g. `modified_args` not an object). */
  diagnostic(message: string): void;
}


const failed = (r: InterceptReply | InterceptFailure): r is InterceptFailure => 'failure' in r;

/** Asks `i`; a failure is "no response" (allow), said on the extension when it was the deadline. */
async function askAllowing(i: Interceptor, payload: InterceptPayload): Promise<InterceptReply | undefined> {
  const r = await i.ask(payload);
  if (!failed(r)) return r;
  if (r.failure === 'timeout') i.diagnostic(`${payload.event} interception timed out: allowed`);
  return undefined;
}

/** The outcome of the `tool_call` chain: a block, or the (possibly rewritten) arguments and who rewrote them. */
export interface ToolCallChainResult {
  blocked?: Blocked;
  args: unknown;
  rewrittenBy: string[];
}

/**
 * The `tool_call` chain. A `modified_args` that is not a JSON object (`null` is absent), and one that `accept` (a
 * foreign tool's, foreignTools/) refuses, blocks the call in that guard's name, with a diagnostic on the guard (fail
 * closed: the original arguments never run in place of a rewrite). A guard that could not judge
 * blocks the call in zut's name; one that timed out allows it unless `strict`.
 */
export async function chainToolCall(chain: Interceptor[], e: ToolCallIntercept, accept?: AcceptArgs, strict = false): Promise<ToolCallChainResult> {
  let args = e.tool_args;
  const rewrittenBy: string[] = [];
  for (const i of chain) {
    const r = await i.ask({ event: 'tool_call', ...e, tool_args: args });
    if (failed(r)) {
      if (r.failure === 'timeout' && !strict) {
        i.diagnostic('tool_call interception timed out: allowed');
        continue;
      }
      const why = r.failure === 'timeout' ? `guard ${i.ext} did not answer in time` : `guard ${i.ext} could not judge this call (${r.message})`;
      i.diagnostic(`tool_call: ${why}; the call is blocked`);
      return { blocked: { ext: 'zut', reason: why }, args, rewrittenBy };
    }
    if (r.block) return { blocked: { ext: i.ext, reason: r.reason || `blocked by ${i.ext}` }, args, rewrittenBy };
    // `null` is absent (Go's `json.RawMessage` with `omitempty` sends it for a nil rewrite); any other value that is
    // not an object is a rewrite that cannot be made, and fails closed: the original call never runs in its place.
    if (r.modified_args !== undefined && r.modified_args !== null) {
      if (!isObject(r.modified_args)) {
        const reason = `modified_args must be a JSON object, not ${jsonKind(r.modified_args)}`;
        i.diagnostic(`tool_call: ${reason}; the call is blocked`);
        return { blocked: { ext: i.ext, reason }, args, rewrittenBy };
      }
      const refused = accept?.(r.modified_args);
      if (refused !== undefined) {
        const reason = `modified_args cannot be applied to ${e.editor_tool ?? e.tool_name}: ${refused}`;
        i.diagnostic(`tool_call: ${reason}; the call is blocked`);
        return { blocked: { ext: i.ext, reason }, args, rewrittenBy };
      }
      args = r.modified_args;
      rewrittenBy.push(i.ext);
    }
  }
  return { args, rewrittenBy };
}

/** What a JSON value is, for a reason ("a string", "an array", …). */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export async function chainTurnStart(chain: Interceptor[], step: number, prompt?: string): Promise<TurnStartDecision> {
  const parts: string[] = [];
  for (const i of chain) {
    const r = await askAllowing(i, { event: 'turn_start', step, ...(prompt !== undefined ? { prompt } : {}) });
    if (!r) continue;
    if (r.block) return { blocked: { ext: i.ext, reason: r.reason || `blocked by ${i.ext}` } };
    if (r.context && r.context.trim()) parts.push(`[${i.ext}]\n${r.context}`);
  }
  if (parts.length === 0) return {};
  return { context: capContext(parts.join('\n\n')) };
}

export async function chainAssistantMessage(chain: Interceptor[], text: string): Promise<AssistantMessageDecision> {
  let current = text;
  for (const i of chain) {
    const r = await askAllowing(i, { event: 'assistant_message', text: current });
    if (!r) continue;
    if (r.block) return { blocked: { ext: i.ext, reason: r.reason || `blocked by ${i.ext}` }, text: current };
    if (r.replace_text !== undefined && r.replace_text !== '') current = r.replace_text;
  }
  return { text: current };
}

/** zot's `before_agent_start` request (zot-extensions.md: System prompt replacement), without `event`. */
export interface BeforeAgentStart {
  session_id: string;
  agent_run_id: string;
  cwd: string;
  provider: string;
  model: string;
  /** The complete current system prompt. */
  system_prompt: string;
}

/**
 * `before_agent_start`: each interceptor, in load order, sees the previous one's result and may replace it
 * exactly (`""` removes it; omitted keeps it). A non-string or over-long (1 MiB) value keeps the prompt, with a
 * diagnostic; a timeout or crash keeps it too. Never blocks.
 */
async function chainBeforeAgentStart(chain: Interceptor[], e: BeforeAgentStart): Promise<string> {
  let prompt = e.system_prompt;
  for (const i of chain) {
    const r = await askAllowing(i, { event: 'before_agent_start', ...e, system_prompt: prompt });
    const next = r?.system_prompt as unknown;
    if (next === undefined || next === null) continue;
    if (typeof next !== 'string') i.diagnostic('before_agent_start: system_prompt must be a string; the prompt is kept');
    else if (Buffer.byteLength(next) > SYSTEM_PROMPT_MAX_BYTES) i.diagnostic(`before_agent_start: system_prompt exceeds ${SYSTEM_PROMPT_MAX_BYTES} bytes; the prompt is kept`);
    else prompt = next;
  }
  return prompt;
}

/** Caps joined context at 16 KiB (UTF-8), cutting on a character boundary and ending with the marker. */
function capContext(text: string, cap = CONTEXT_CAP_BYTES): string {
  if (Buffer.byteLength(text) <= cap) return text;
  const suffix = '\n' + CONTEXT_TRUNCATED_MARKER;
  return cutUtf8(text, cap - Buffer.byteLength(suffix)) + suffix;
}

/** The interception chain of `event` among `sups`. */
export function interceptorsOf(sups: readonly ExtensionSupervisor[], event: string, timeoutMs: number): Interceptor[] {
  return sups
    .filter((s) => s.live && s.intercepts.has(event))
    .map((s) => ({
      ext: s.name,
      diagnostic: (m: string) => s.diagnostic(m),
      ask: async (payload: InterceptPayload): Promise<InterceptReply | InterceptFailure> => {
        const conn = s.conn;
        if (!conn) return { failure: 'stopped', message: `extension ${s.name} is not running` };
        try {
          return await conn.request({ kind: 'intercept', payload }, { timeoutMs, what: `extension ${s.name}: ${event} interception` });
        } catch (e) {
          return { failure: e instanceof RequestError ? e.kind : 'internal', message: e instanceof Error ? e.message : String(e) };
        }
      },
    }));
}

/** `before_agent_start` results by (session, provider, model, cwd, base prompt). */
export class SystemPrompts {
  private readonly results = new Map<string, Promise<string>>();

  /** The chain's result for this request: computed once, then reused until `clear()`. */
  get(e: Omit<BeforeAgentStart, 'agent_run_id'>, chain: () => Interceptor[]): Promise<string> {
    const key = JSON.stringify([e.session_id, e.provider, e.model, e.cwd, e.system_prompt]);
    let p = this.results.get(key);
    if (!p) this.results.set(key, (p = chainBeforeAgentStart(chain(), { ...e, agent_run_id: randomUUID() })));
    return p;
  }

  /** Extensions were (re)loaded: the next request asks again. */
  clear(): void {
    this.results.clear();
  }
}
