/**
 * Foreign tools as guards see them: one table mapping another agent's or editor's tools (VS Code's
 * `run_in_terminal`, `read_file`, …) onto zut's built-in tools (`bash`, `read`, …), so a guard written for zut runs
 * unmodified over them. `toZut` gives the name and arguments of the `tool_call` event and interception; a guard's
 * `modified_args` map back onto the original input (the whole object with the mapped fields replaced, unknown fields
 * kept), or are refused when they cannot (fail closed: the caller blocks the call). VS Code-free; every caller that
 * runs foreign tools (`@zut`'s loop, zot's `call_tool` of editor tools, agent hooks) uses this one table.
 *
 * The table is keyed by source: VS Code's rows are here; Copilot CLI's and Claude Code's are in agentTools.ts (each
 * row names where its tool's input was read); the field kinds they share are in foreignFields.ts.
 * zut's argument names are zut's tools': `bash {command, timeout}` (seconds), `read {path, offset, limit}` (1-based
 * line, line count), `write {path, content}`, `edit {path, edits: [{oldText, newText}]}`, `grep {pattern, glob,
 * literal, limit}`, `web_open {url}` (zut-extensions.md names `web_open` among zut's tools).
 */
import { isDeepStrictEqual } from 'node:util';
import { AGENT_TOOL_MAPPINGS } from './agentTools';
import { editsOf, isObject, millisTimeout, posInt, renamed, singleEdit, str, type Field, type ForeignSource, type JsonObject, type ToolMapping } from './foreignFields';

export type { ForeignSource, JsonObject, ToolMapping } from './foreignFields';

/** `multi_replace_string_in_file`'s replacements, when they all name one file (else it has no zut form). */
function replacementsOf(input: JsonObject): JsonObject[] | undefined {
  const r = input.replacements;
  if (!Array.isArray(r) || r.length === 0 || !r.every(isObject)) return undefined;
  const path = r[0].filePath;
  return typeof path === 'string' && r.every((x) => x.filePath === path) ? r : undefined;
}

/** VS Code's `read_file`: `startLine`/`endLine` (1-based, inclusive) or, in newer versions, `offset`/`limit`. */
function readField(which: 'offset' | 'limit'): Field {
  return {
    get: (input) => {
      if (input.startLine === undefined && input.endLine === undefined) return input[which];
      const start = input.startLine;
      if (which === 'offset') return start;
      const end = input.endLine;
      return posInt(start) && typeof end === 'number' && Number.isInteger(end) && end >= (start as number) ? end - (start as number) + 1 : undefined;
    },
    set: (out, _value, zut) => {
      const { offset, limit } = zut;
      if ((offset !== undefined && !posInt(offset)) || (limit !== undefined && !posInt(limit))) return 'offset and limit must be positive integers';
      if (out.startLine === undefined && out.endLine === undefined) {
        for (const [k, v] of [['offset', offset], ['limit', limit]] as const) {
          if (v === undefined) delete out[k];
          else out[k] = v;
        }
        return undefined;
      }
      if (offset === undefined || limit === undefined) return 'read_file needs both a start and an end line';
      out.startLine = offset;
      out.endLine = (offset as number) + (limit as number) - 1;
      return undefined;
    },
  };
}

/** VS Code's agent tools (names and inputs from vscode-copilot-chat's tool definitions). */
const VSCODE_TOOL_MAPPINGS: readonly ToolMapping[] = [
  {
    source: 'vscode',
    foreign: 'run_in_terminal',
    zut: 'bash',
    required: ['command'],
    fields: {
      command: renamed('command', str('command must be a string')),
      // zut: seconds (a positive integer); VS Code: milliseconds, 0 or absent = none.
      timeout: millisTimeout('timeout'),
    },
  },
  {
    source: 'vscode',
    foreign: 'read_file',
    zut: 'read',
    required: ['path'],
    fields: { path: renamed('filePath', str('path must be a string')), offset: readField('offset'), limit: readField('limit') },
  },
  {
    source: 'vscode',
    foreign: 'create_file',
    zut: 'write',
    required: ['path', 'content'],
    fields: { path: renamed('filePath', str('path must be a string')), content: renamed('content', str('content must be a string')) },
  },
  {
    source: 'vscode',
    foreign: 'replace_string_in_file',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: renamed('filePath', str('path must be a string')),
      edits: singleEdit('replace_string_in_file', 'oldString', 'newString'),
    },
  },
  {
    source: 'vscode',
    foreign: 'multi_replace_string_in_file',
    zut: 'edit',
    required: ['path', 'edits'],
    fits: (input) => replacementsOf(input) !== undefined,
    fields: {
      path: {
        get: (input) => replacementsOf(input)?.[0].filePath,
        set: (out, value) => {
          if (typeof value !== 'string') return 'path must be a string';
          out.replacements = (out.replacements as JsonObject[]).map((r) => ({ ...r, filePath: value }));
          return undefined;
        },
      },
      edits: {
        get: (input) => replacementsOf(input)?.map((r) => ({ oldText: r.oldString, newText: r.newString })),
        set: (out, value) => {
          const edits = editsOf(value);
          if (typeof edits === 'string') return edits;
          const rs = out.replacements as JsonObject[];
          if (edits.length !== rs.length) return `multi_replace_string_in_file keeps its ${rs.length} replacement(s): edits cannot be added or removed`;
          out.replacements = rs.map((r, i) => ({ ...r, oldString: edits[i].oldText, newString: edits[i].newText }));
          return undefined;
        },
      },
    },
  },
  {
    source: 'vscode',
    foreign: 'grep_search',
    zut: 'grep',
    required: ['pattern'],
    fields: {
      pattern: renamed('query', str('pattern must be a string')),
      glob: renamed('includePattern', str('glob must be a string')),
      literal: {
        get: (input) => (typeof input.isRegexp === 'boolean' ? !input.isRegexp : undefined),
        set: (out, value) => {
          if (value === undefined) return void delete out.isRegexp;
          if (typeof value !== 'boolean') return 'literal must be a boolean';
          out.isRegexp = !value;
          return undefined;
        },
      },
      limit: renamed('maxResults', (v) => (posInt(v) ? undefined : 'limit must be a positive integer')),
    },
  },
  {
    source: 'vscode',
    foreign: 'fetch_webpage',
    zut: 'web_open',
    required: ['url'],
    // One URL only: zut opens one page per call; the `query` (what to look for) has no zut counterpart and is kept.
    fits: (input) => Array.isArray(input.urls) && input.urls.length === 1 && typeof input.urls[0] === 'string',
    fields: {
      url: {
        get: (input) => (Array.isArray(input.urls) ? input.urls[0] : undefined),
        set: (out, value) => {
          if (typeof value !== 'string') return 'url must be a string';
          out.urls = [value];
          return undefined;
        },
      },
    },
  },
];

/** The table: VS Code's rows here, Copilot CLI's and Claude Code's in agentTools.ts. */
export const TOOL_MAPPINGS: readonly ToolMapping[] = [...VSCODE_TOOL_MAPPINGS, ...AGENT_TOOL_MAPPINGS];

/** The row for `source`'s tool `name` (exact name), if any. */
export function mappingOf(source: ForeignSource, name: string): ToolMapping | undefined {
  return TOOL_MAPPINGS.find((m) => m.source === source && m.foreign === name);
}

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
    if (v !== undefined) out[key] = v;
  }
  for (const k of m.required) if (out[k] === undefined) return undefined;
  return out;
}

/**
 * A guard's `modified_args` (zut shape) mapped back onto `original` (the foreign input): a copy of the original
 * with the changed fields rewritten; unchanged fields keep their original spelling exactly. A string says why the
 * change cannot be mapped (an argument zut's tool has but this one has not, a removed required argument, a
 * change the foreign tool cannot express).
 */
export function fromZutArgs(m: ToolMapping, modified: unknown, original: JsonObject): { input: JsonObject } | { error: string } {
  if (!isObject(modified)) return { error: 'modified_args must be a JSON object' };
  const before = toZutArgs(m, original) ?? {};
  const out = structuredClone(original);
  for (const key of Object.keys(modified)) {
    if (!Object.hasOwn(m.fields, key)) return { error: `${m.zut}.${key} has no counterpart in ${m.foreign}` };
  }
  for (const [key, f] of fieldsOf(m)) {
    const value = modified[key];
    if (isDeepStrictEqual(value, before[key])) continue;
    if (value === undefined && m.required.includes(key)) return { error: `${m.zut}.${key} cannot be removed` };
    const why = f.set(out, value, modified);
    if (why) return { error: `${m.zut}.${why}` };
  }
  return { input: out };
}

/** How one foreign tool call appears on zut's guarded path. */
export interface ForeignCall {
  /** The name in the `tool_call` event and interception: zut's when mapped, else the foreign tool's own. */
  name: string;
  /** The arguments guards see. */
  args: JsonObject;
  /** The foreign tool's real name (the frames' additive `editor_tool` field). */
  foreign: string;
  /** Whether guards see zut's name and shape. */
  mapped: boolean;
  /** A guard's `modified_args` → the input to run the foreign tool with, or why it cannot be applied. */
  back(modified: unknown): { input: JsonObject } | { error: string };
}

/** The guarded-path form of calling `source`'s tool `name` with `input` (unmapped tools pass as they are). */
export function foreignCall(source: ForeignSource, name: string, input: unknown): ForeignCall {
  const original = isObject(input) ? input : {};
  const m = mappingOf(source, name);
  const args = m && toZutArgs(m, original);
  if (!m || !args) {
    const back = (modified: unknown) => (isObject(modified) ? { input: modified } : { error: 'modified_args must be a JSON object' });
    return { name, args: original, foreign: name, mapped: false, back };
  }
  // The guards' own object back (nobody rewrote it): the original input as it is, nothing to map.
  return { name: m.zut, args, foreign: name, mapped: true, back: (modified) => (modified === args ? { input: original } : fromZutArgs(m, modified, original)) };
}
