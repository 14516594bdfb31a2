/**
 * The pieces rows of the foreign-tool table (table.ts) are made of: the row types (a declarative `ToolMapping` of
 * fields, or a `CustomRow` for tools whose input becomes several views, like a patch), what a tool does (`effect`),
 * and the field kinds several sources share (a renamed key, a timeout in milliseconds or seconds, `edits` checked).
 * VS Code-free.
 */
import { isObject } from '../../../protocol/json';

/** Who owns the foreign tools of a row: VS Code's agent, Copilot CLI, Claude Code, Gemini CLI, opencode, Cursor, Codex CLI, Cline CLI, Qwen Code. */
export type ForeignSource = 'vscode' | 'copilot-cli' | 'claude' | 'gemini' | 'opencode' | 'cursor' | 'codex' | 'cline' | 'qwen';

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

/**
 * What a tool does, in the additive `effect` field of the `tool_call` event and interception: `exec` runs a command
 * or code (a terminal, a task, a test run, a notebook cell, an editor command, an installer), `write` changes files,
 * `read` reads them, `network` reaches the network. A guard that does not know a tool's name can fail closed on
 * `exec` and `write`. Absent: not known (a tool no row of the table names, e.g. another MCP server's).
 */
export type ToolEffect = 'exec' | 'write' | 'read' | 'network';

/** What each zut tool guards may see does. */
export const ZUT_TOOL_EFFECTS: Readonly<Record<string, ToolEffect>> = { bash: 'exec', write: 'write', edit: 'write', read: 'read', grep: 'read', web_open: 'network' };

/** One guard's view of a foreign call: a zut tool (or the foreign tool itself) with its arguments. */
export interface GuardView {
  name: string;
  args: JsonObject;
  effect?: ToolEffect;
}

/** A guard's rewrite mapped back onto the foreign input, or why it cannot be. */
export type MappedBack = { input: JsonObject } | { error: string };

/**
 * A row whose input guards see as one or more views (a patch: one `write`/`edit` per file) built by code, not by a
 * field list. `views` returns undefined when this input has no zut form (it then passes under its own name);
 * `back` gets each view's arguments after the chain (the same object when nobody rewrote it).
 */
export interface CustomRow {
  source: ForeignSource;
  foreign: string;
  effect: ToolEffect;
  views(input: JsonObject): { views: GuardView[]; back(modified: readonly JsonObject[]): MappedBack } | undefined;
}

/** A tool the table knows but cannot show as a zut tool: guards see its own name and input, with its `effect`. */
export interface EffectRow {
  source: ForeignSource;
  foreign: string;
  effect: ToolEffect;
}

/** A row of the table. */
export interface ToolMapping {
  source: ForeignSource;
  /** The foreign tool's exact name. */
  foreign: string;
  /** The zut tool guards see. */
  zut: string;
  /** What the tool does when its input has no zut form (default: what the zut tool does, ZUT_TOOL_EFFECTS). */
  effect?: ToolEffect;
  /** zut argument → how it maps. */
  fields: Readonly<Record<string, Field>>;
  /** Whether this input has a zut form (e.g. a multi-file edit has none); default: every required field present. */
  fits?(input: JsonObject): boolean;
  /** zut arguments every zut form of this tool has (a guard may not remove them). */
  required: readonly string[];
}

/** The one JSON-object test (src/protocol/json.ts), for the rows here. */
export { isObject };
/** Whether `key` is `o`'s own property (never one inherited from Object.prototype: `constructor`, `toString`). */
export const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);
export const str = (why: string) => (v: unknown) => (typeof v === 'string' ? undefined : why);
export const posInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
export const positive = (name: string) => (v: unknown) => (posInt(v) ? undefined : `${name} must be a positive integer`);

/**
 * What a field's `get` returns for a value present in the input but not of the field's kind (a `command` that is no
 * string): the input then has no zut form (mapping.ts), rather than a view that hides what runs.
 */
export const INVALID: unique symbol = Symbol('invalid');

/** A field that is the same value under another key (checked by `check`); removable unless the row requires it. */
export function renamed(key: string, check: (v: unknown) => string | undefined): Field {
  return {
    get: (input) => (input[key] === undefined || check(input[key]) === undefined ? input[key] : INVALID),
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

/** A path under `key`. */
export const pathField = (key: string): Field => renamed(key, str('path must be a string'));
/** A shell command under `key`. */
export const commandField = (key = 'command'): Field => renamed(key, str('command must be a string'));

/** zut's `literal`: these greps take a regular expression only, so `literal: true` cannot be expressed. */
const regexOnly = (tool: string): Field => ({
  get: () => undefined,
  set: (_out, value) => (value === undefined || value === false ? undefined : `literal has no counterpart in ${tool} (its pattern is a regular expression)`),
});

/** `grep`/`Grep` (ripgrep's options: `pattern`, `path`, `glob`, `output_mode`, `-i`, `head_limit`, …). */
export const ripgrepFields = (tool: string): Record<string, Field> => ({
  pattern: renamed('pattern', str('pattern must be a string')),
  glob: renamed('glob', str('glob must be a string')),
  limit: renamed('head_limit', positive('limit')),
  literal: regexOnly(tool),
});
