/**
 * The pieces rows of the foreign-tool table (foreignTools.ts) are made of: the row and field types, and the field
 * kinds several sources share (a renamed key, a timeout in milliseconds or seconds, `edits` checked). VS Code-free.
 */

/** Who owns the foreign tools of a row: VS Code's agent, Copilot CLI, Claude Code. */
export type ForeignSource = 'vscode' | 'copilot-cli' | 'claude';

/** A JSON object (tool input). */
export type JsonObject = Record<string, unknown>;

/** One zut argument of a mapped tool: how to read it from the foreign input and how to write it back. */
export interface Field {
  /** Reads the zut value from the foreign input (undefined: absent). */
  get(input: JsonObject): unknown;
  /**
   * Writes the (changed) zut value into `out` (a copy of the original input); `zut` is the whole effective zut
   * object (fields that depend on each other, like `offset` and `limit`, read both). Returns why it cannot, if so.
   * `value` undefined = the guard removed the argument.
   */
  set(out: JsonObject, value: unknown, zut: JsonObject): string | undefined;
}

/** A row of the table. */
export interface ToolMapping {
  source: ForeignSource;
  /** The foreign tool's exact name. */
  foreign: string;
  /** The zut tool guards see. */
  zut: string;
  /** zut argument → how it maps. */
  fields: Readonly<Record<string, Field>>;
  /** Whether this input has a zut form (e.g. a multi-file edit has none); default: every required field present. */
  fits?(input: JsonObject): boolean;
  /** zut arguments every zut form of this tool has (a guard may not remove them). */
  required: readonly string[];
}

export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
export const str = (why: string) => (v: unknown) => (typeof v === 'string' ? undefined : why);
export const posInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
export const positive = (name: string) => (v: unknown) => (posInt(v) ? undefined : `${name} must be a positive integer`);

/** A field that is the same value under another key (checked by `check`); removable unless the row requires it. */
export function renamed(key: string, check: (v: unknown) => string | undefined): Field {
  return {
    get: (input) => input[key],
    set: (out, value) => {
      if (value === undefined) return void delete out[key];
      const why = check(value);
      if (!why) out[key] = value;
      return why;
    },
  };
}

/** zut's `timeout` (seconds, a positive integer) from a foreign `key` in milliseconds (0 or absent = none). */
export function millisTimeout(key: string): Field {
  return {
    get: (input) => (typeof input[key] === 'number' && (input[key] as number) > 0 ? Math.ceil((input[key] as number) / 1000) : undefined),
    set: (out, value) => {
      if (value === undefined) return void delete out[key];
      if (!posInt(value)) return 'timeout must be a positive integer (seconds)';
      out[key] = (value as number) * 1000;
      return undefined;
    },
  };
}

/** `edits: [{oldText, newText}]` checked: only those two string keys per edit. */
export function editsOf(v: unknown): { oldText: string; newText: string }[] | string {
  if (!Array.isArray(v) || v.length === 0) return 'edits must be a non-empty array';
  for (const e of v) {
    if (!isObject(e) || typeof e.oldText !== 'string' || typeof e.newText !== 'string') return 'each edit must be {oldText, newText} strings';
    const extra = Object.keys(e).filter((k) => k !== 'oldText' && k !== 'newText');
    if (extra.length) return `edit field ${extra[0]} has no counterpart`;
  }
  return v as { oldText: string; newText: string }[];
}

/**
 * One edit (`oldKey`/`newKey` strings) as zut's `edits`, and back; with `newOptional` a missing new text reads as ''
 * (a deletion, as Copilot CLI's `edit` takes it).
 */
export function singleEdit(tool: string, oldKey: string, newKey: string, newOptional = false): Field {
  const newOk = (v: unknown) => typeof v === 'string' || (newOptional && v === undefined);
  return {
    get: (input) => (typeof input[oldKey] === 'string' && newOk(input[newKey]) ? [{ oldText: input[oldKey], newText: input[newKey] ?? '' }] : undefined),
    set: (out, value) => {
      const edits = editsOf(value);
      if (typeof edits === 'string') return edits;
      if (edits.length !== 1) return `${tool} takes exactly one edit`;
      out[oldKey] = edits[0].oldText;
      out[newKey] = edits[0].newText;
      return undefined;
    },
  };
}
