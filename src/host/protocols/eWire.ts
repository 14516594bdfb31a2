/**
 * e's wire (e-extensions.md, "Wire protocol"): one JSON object per line, JSON-RPC style without the `jsonrpc`
 * member. Requests carry an `id` and a `method`; answers carry the `id` and a `result` or an `error` (a string);
 * notifications have a `method` and no `id`. Both sides send requests, and "the two id spaces never meet, because
 * direction tells them apart": a line from the extension with a `method` is its request (or notification), a line
 * with `result`/`error` and no `method` answers one of ours. The host's ids are integers (the spec's examples);
 * the correlation key handed to the Connection is their decimal string. Pure: no I/O.
 */
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';

/** The extension's own request id: "any JSON value" (spec); kept as given to echo it back. */
export type EWireId = string | number | boolean | null | Record<string, unknown> | unknown[];

/** One classified line from an e extension. */
type EIncoming =
  /** An answer to the host's request `key` (its integer id as a string). */
  | { kind: 'answer'; key: string; result?: unknown; error?: string }
  /** A request from the extension (it awaits an answer with the same `id`). */
  | { kind: 'request'; id: EWireId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  /** Not usable: why, for the log. `id` when the line was a request we can still refuse. */
  | { kind: 'invalid'; message: string; id?: EWireId };

const Message = /* @__PURE__ */ lazySchema(() => z.object({
  id: z.unknown().optional(),
  method: z.string().min(1).optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
}));

/**
 * An `error` member as text. The spec's errors are strings (`{"id":2,"error":"what went wrong"}`); a JSON-RPC
 * style object `{message}` is accepted too, anything else is shown as JSON.
 */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return JSON.stringify(error) ?? String(error);
}

/** Classifies one line from the extension (without its newline). Never throws. */
export function classifyLine(line: string): EIncoming {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (e) {
    return { kind: 'invalid', message: `malformed line ignored: ${(e as Error).message}` };
  }
  const parsed = Message.safeParse(raw);
  if (!parsed.success || raw === null || Array.isArray(raw)) {
    return { kind: 'invalid', message: 'malformed line ignored: expected a JSON object with a string "method" or an "id"' };
  }
  const m = parsed.data;
  const hasId = 'id' in (raw as object);
  if (m.method !== undefined) {
    // An explicit `null` stays null (`ui.panel` null closes the panel); absent params are `{}`.
    const params = 'params' in (raw as object) ? m.params : {};
    return hasId ? { kind: 'request', id: m.id as EWireId, method: m.method, params } : { kind: 'notification', method: m.method, params };
  }
  if (!hasId) return { kind: 'invalid', message: 'ignored a line with neither "method" nor "id"' };
  if (typeof m.id !== 'number' && typeof m.id !== 'string') return { kind: 'invalid', message: `ignored an answer to unknown id ${JSON.stringify(m.id)}` };
  const key = String(m.id);
  if (m.error !== undefined && m.error !== null) return { kind: 'answer', key, error: errorText(m.error) };
  return { kind: 'answer', key, result: m.result ?? {} };
}

/** A request line from the host: `{"id":<n>,"method":…,"params":…}` (with its newline). */
export function requestLine(key: string, method: string, params: unknown): string {
  return JSON.stringify({ id: Number(key), method, params }) + '\n';
}

/** A notification line from the host: `{"method":…,"params":…}`; `shutdown` has no params (spec). */
export function notificationLine(method: string, params?: unknown): string {
  return JSON.stringify(params === undefined ? { method } : { method, params }) + '\n';
}

/** The host's answer to the extension's request `id`: a result, or an error string. */
export function answerLine(id: EWireId, answer: { result: unknown } | { error: string }): string {
  return JSON.stringify({ id, ...answer }) + '\n';
}

/** `method #id` of a line for `zut.trace: messages`, in either direction. */
export function summarizeLine(line: string): string {
  const head = line.slice(0, 512);
  const method = /"method"\s*:\s*"([^"]*)"/.exec(head)?.[1];
  const id = /"id"\s*:\s*("?)([^",}]*)\1/.exec(head)?.[2];
  if (method) return id !== undefined ? `${method} #${id}` : method;
  if (id !== undefined) return /"error"\s*:/.test(head) ? `error #${id}` : `result #${id}`;
  return '(line)';
}
