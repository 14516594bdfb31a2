/**
 * A declarative row of the foreign-tool table (fields.ts `ToolMapping`) at work: the zut arguments of a foreign
 * input, and a guard's rewrite mapped back onto it. Shared by the table (index.ts) and rows built of other rows
 * (Copilot CLI's `str_replace_editor`). VS Code-free.
 */
import { isDeepStrictEqual } from 'node:util';
import { hasOwn, INVALID, isObject, ZUT_TOOL_EFFECTS, type CustomRow, type Field, type JsonObject, type MappedBack, type ToolMapping } from './fields';

/** `Object.entries(m.fields)` of each row, made once (every foreign call reads them: bench editor-tool). */
const fieldLists = new WeakMap<ToolMapping, readonly (readonly [string, Field])[]>();
function fieldsOf(m: ToolMapping): readonly (readonly [string, Field])[] {
  let list = fieldLists.get(m);
  if (!list) fieldLists.set(m, (list = Object.entries(m.fields)));
  return list;
}

/** The zut arguments of `input` under `m`, or undefined when this input has no zut form. */
export function toZutArgs(m: ToolMapping, input: JsonObject): JsonObject | undefined {
  if (m.fits && !m.fits(input)) return undefined;
  const out: JsonObject = {};
  for (const [key, f] of fieldsOf(m)) {
    const v = f.get(input);
    if (v === INVALID) return undefined;
    if (v !== undefined) out[key] = v;
  }
  for (const k of m.required) if (out[k] === undefined) return undefined;
  return out;
}

/**
 * A guard's `modified_args` (zut shape) mapped back onto `original` (the foreign input): a copy of the original
 * with the changed fields rewritten; unchanged fields keep their original spelling exactly. A string says why the
 * change cannot be mapped (an argument zut's tool has but this one has not — own keys only, so `constructor` or
 * `toString` are refused like any other —, a removed required argument, a change the foreign tool cannot express).
 */
export function fromZutArgs(m: ToolMapping, modified: unknown, original: JsonObject): MappedBack {
  if (!isObject(modified)) return { error: 'modified_args must be a JSON object' };
  const before = toZutArgs(m, original) ?? {};
  const out = structuredClone(original);
  for (const key of Object.keys(modified)) {
    if (!hasOwn(m.fields, key)) return { error: `${m.zut}.${key} has no counterpart in ${m.foreign}` };
  }
  for (const [key, f] of fieldsOf(m)) {
    const value = hasOwn(modified, key) ? modified[key] : undefined;
    if (isDeepStrictEqual(value, before[key])) continue;
    if (value === undefined && m.required.includes(key)) return { error: `${m.zut}.${key} cannot be removed` };
    const why = f.set(out, value, modified);
    if (why) return { error: `${m.zut}.${why}` };
  }
  return { input: out };
}

/** The one view of `input` under `m`, with the way back; undefined when this input has no zut form. */
export function mappedViews(m: ToolMapping, input: JsonObject): ReturnType<CustomRow['views']> {
  const args = toZutArgs(m, input);
  if (!args) return undefined;
  return { views: [{ name: m.zut, args, effect: ZUT_TOOL_EFFECTS[m.zut] }], back: (modified) => fromZutArgs(m, modified[0], input) };
}
