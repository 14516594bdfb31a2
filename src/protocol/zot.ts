/**
 * Zod schemas for what zot's extension protocol v1 (zot-extensions.md) has beyond zut's v2 frames: a `hello`
 * without `protocol_version`, `call_tool` / `call_tool_cancel` from the extension, the `tool_prompt` fields of a
 * `command_response`, `system_prompt` in an `event_intercept_response` (`before_agent_start`), and the fields
 * zot's `event` frame has beyond zut's.
 * Everything else zot sends is a zut frame (frames.ts).
 */
import * as z from 'zod';
import { lazySchema } from './lazySchema';
import { CommandResponseFromExt, EventFromHost, EventInterceptResponseFromExt, JsonValue } from './frames';

/** zot's protocol version. */
export const ZOT_PROTOCOL_VERSION = 1;

/** A zot `hello`: `protocol_version` absent or 1. */
export const ZotHelloFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('hello'),
  protocol_version: z.number().int().optional(),
  name: z.string(),
  version: z.string().optional(),
  capabilities: z.array(z.string()).nullish().transform((v) => v ?? []),
}));
export type ZotHelloFromExt = z.infer<typeof ZotHelloFromExt>;

/**
 * `call_tool`'s params (the frame's `id` is the request's): the extension asks the host to run a tool by name with
 * JSON-object args, nested in the host's `tool_call` `parent_id` when given.
 */
export const CallToolParams = /* @__PURE__ */ lazySchema(() => z.object({
  name: z.string().min(1),
  args: z.record(z.string(), JsonValue).nullish().transform((v) => v ?? {}),
  parent_id: z.string().min(1).nullish().transform((v) => v ?? undefined),
}));

/** `call_tool_cancel`: withdraws the extension's `call_tool` with that id. */
export const CallToolCancelFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('call_tool_cancel'), id: z.string().min(1) }));

/** zot's `command_response`: zut's plus `tool_prompt`'s `tool_name` and `tool_args`. */
export const ZotCommandResponseFromExt = /* @__PURE__ */ lazySchema(() => CommandResponseFromExt.extend({
  tool_name: z.string().optional(),
  tool_args: JsonValue.optional(),
}));

/** zot's `event_intercept_response`: zut's plus `system_prompt` (`before_agent_start`). */
export const ZotEventInterceptResponseFromExt = /* @__PURE__ */ lazySchema(() => EventInterceptResponseFromExt.extend({
  system_prompt: JsonValue.optional(),
}));

/**
 * zot's `event`: zut's plus `session_id`, `cwd` and `sequence` (every event), `origin_extension` (a call an
 * extension made with `call_tool`), and `status`, `executed`, `result` (its `tool_result` event).
 */
export const ZotEventFromHost = /* @__PURE__ */ lazySchema(() => EventFromHost.extend({
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  sequence: z.number().int().optional(),
  origin_extension: z.string().optional(),
  status: z.string().optional(),
  executed: z.boolean().optional(),
  /** `permission_decision`: approved, denied or cancelled; by whom; at which stage; why. */
  decision: z.string().optional(),
  source: z.string().optional(),
  stage: z.string().optional(),
  reason: z.string().optional(),
  result: z.object({ content: z.array(JsonValue), is_error: z.boolean(), truncated: z.boolean().optional() }).optional(),
}));
export type ZotEventFromHost = z.infer<typeof ZotEventFromHost>;
