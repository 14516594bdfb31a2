/**
 * Turns one line of an extension's stdout into a validated frame, or a precise, non-fatal error.
 */
import type * as z from 'zod';
import { extFrameSchemas, type ContentBlock, type ExtFrame, type ExtFrameType, type ToolResultFromExt } from './frames';

/** Why a line is not a usable frame. `unknown_type` is informational: the spec says to tolerate it. */
export type FrameError =
  | { kind: 'json'; message: string }
  | { kind: 'not_object'; message: string }
  | { kind: 'unknown_type'; type: string; message: string }
  | { kind: 'invalid'; type: string; field: string; message: string };

export type ParseResult = { ok: true; frame: ExtFrame } | { ok: false; error: FrameError };

const hasOwn = Object.prototype.hasOwnProperty;

/** Validates an already-parsed JSON value as an extension frame. */
export function validateExtFrame(value: unknown): ParseResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: { kind: 'not_object', message: 'frame is not a JSON object' } };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') {
    return { ok: false, error: { kind: 'invalid', type: '', field: 'type', message: 'frame is missing required field "type"' } };
  }
  if (!hasOwn.call(extFrameSchemas, type)) {
    return { ok: false, error: { kind: 'unknown_type', type, message: `unknown frame type "${type}"` } };
  }
  if (type === 'tool_result') {
    const fast = plainToolResult(value as Record<string, unknown>);
    if (fast) return { ok: true, frame: fast };
  }
  const schema = extFrameSchemas[type as ExtFrameType] as z.ZodType<ExtFrame>;
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, frame: r.data };
  const issue = r.error.issues[0];
  const field = issue?.path.map(String).join('.') || '(frame)';
  // zod 4 does not report the offending input by default: look the value up to tell "missing" from "wrong type".
  const missing = issue?.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
  const message = missing
    ? `${type} frame is missing required field "${field}"`
    : `${type} frame has an invalid field "${field}": ${issue?.message ?? 'invalid'}`;
  return { ok: false, error: { kind: 'invalid', type, field, message } };
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

/**
 * The hot frame (the reply to every tool call) checked by hand when it is plainly well-formed: the same result
 * as `ToolResultFromExt.parse` (unknown fields dropped, a null/missing `content` → [], a null `activate_tools` →
 * undefined) for a fraction of zod's time. Undefined for anything else, which zod then checks and reports on.
 * test/unit/protocol.test.ts holds the two to the same output on arbitrary frames.
 */
export function plainToolResult(v: Record<string, unknown>): ToolResultFromExt | undefined {
  const { id, content, is_error, activate_tools } = v;
  if (!isStr(id) || (is_error !== undefined && typeof is_error !== 'boolean')) return undefined;
  const blocks: ContentBlock[] = [];
  if (content !== undefined && content !== null) {
    if (!Array.isArray(content)) return undefined;
    for (const b of content as unknown[]) {
      if (b === null || typeof b !== 'object' || Array.isArray(b)) return undefined;
      const { type, text, mime_type, data } = b as Record<string, unknown>;
      if (!isStr(type) || !optStr(text) || !optStr(mime_type) || !optStr(data)) return undefined;
      const block: ContentBlock = { type };
      if (text !== undefined) block.text = text as string;
      if (mime_type !== undefined) block.mime_type = mime_type as string;
      if (data !== undefined) block.data = data as string;
      blocks.push(block);
    }
  }
  let tools: string[] | undefined;
  if (activate_tools !== undefined && activate_tools !== null) {
    if (!Array.isArray(activate_tools) || !activate_tools.every(isStr)) return undefined;
    tools = [...(activate_tools as string[])];
  }
  // Like zod: `activate_tools` and `details` are keys of the result only when the frame has them.
  const frame: Partial<ToolResultFromExt> = { type: 'tool_result', id, content: blocks };
  if (is_error !== undefined) frame.is_error = is_error as boolean;
  if (hasOwn.call(v, 'activate_tools')) frame.activate_tools = tools;
  if (hasOwn.call(v, 'details')) frame.details = v.details;
  return frame as ToolResultFromExt;
}

/** The value at a path of own properties (a zod issue's `path`) in parsed JSON; undefined when any step is missing. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !hasOwn.call(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Parses and validates one line (without its newline). */
export function parseExtFrame(line: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, error: { kind: 'json', message: `invalid JSON: ${(e as Error).message}` } };
  }
  return validateExtFrame(value);
}
