/**
 * Turns one line of an extension's stdout into a validated frame, or a precise, non-fatal error.
 */
import type * as z from 'zod';
import { extFrameSchemas, type ExtFrame, type ExtFrameType } from './frames';

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
