/**
 * Claude Code's rows of the foreign-tool table (index.ts), as Claude Code's tools reference and hooks reference give
 * each tool's `tool_input`. Not in the table (guards see the tool as it is, with no `effect`): `Task`/`Agent` (a
 * subagent, whose own tool calls come through the hook one by one), `TodoWrite` (the agent's own list), `ExitPlanMode`.
 * VS Code-free.
 */
import { commandField, editsOf, isObject, millisTimeout, pathField, positive, renamed, ripgrepFields, singleEdit, str, type EffectRow, type JsonObject, type ToolMapping } from './fields';

/** `MultiEdit`'s edits (`[{old_string, new_string, replace_all?}]`), when every one has both strings. */
function multiEditsOf(input: JsonObject): JsonObject[] | undefined {
  const e = input.edits;
  return Array.isArray(e) && e.length > 0 && e.every((x) => isObject(x) && typeof x.old_string === 'string' && typeof x.new_string === 'string') ? (e as JsonObject[]) : undefined;
}

/** Claude Code's tools, as its tools reference and hook docs give their `tool_input`. */
export const CLAUDE_ROWS: readonly (ToolMapping | EffectRow)[] = [
  // {command, timeout? (milliseconds), description?, run_in_background?}
  { source: 'claude', foreign: 'Bash', zut: 'bash', required: ['command'], fields: { command: commandField(), timeout: millisTimeout('timeout') } },
  // {file_path, offset? (1-based line), limit? (line count), pages?}
  { source: 'claude', foreign: 'Read', zut: 'read', required: ['path'], fields: { path: pathField('file_path'), offset: renamed('offset', positive('offset')), limit: renamed('limit', positive('limit')) } },
  { source: 'claude', foreign: 'Write', zut: 'write', required: ['path', 'content'], fields: { path: pathField('file_path'), content: renamed('content', str('content must be a string')) } },
  {
    // {file_path, old_string, new_string, replace_all?}: replace_all has no zut counterpart and is kept; the texts of
    // a replace_all edit cannot be rewritten (zut's edit replaces one occurrence): refused.
    source: 'claude',
    foreign: 'Edit',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: pathField('file_path'),
      edits: {
        get: singleEdit('Edit', 'old_string', 'new_string').get,
        set: (out, value, zut) => (out.replace_all === true ? 'edits of a replace_all Edit cannot be rewritten' : singleEdit('Edit', 'old_string', 'new_string').set(out, value, zut)),
      },
    },
  },
  {
    // {file_path, edits: [{old_string, new_string, replace_all?}]}
    source: 'claude',
    foreign: 'MultiEdit',
    zut: 'edit',
    required: ['path', 'edits'],
    fits: (input) => multiEditsOf(input) !== undefined,
    fields: {
      path: pathField('file_path'),
      edits: {
        get: (input) => multiEditsOf(input)?.map((e) => ({ oldText: e.old_string, newText: e.new_string })),
        set: (out, value) => {
          const edits = editsOf(value);
          if (typeof edits === 'string') return edits;
          const before = out.edits as JsonObject[];
          if (before.some((e) => e.replace_all === true)) return 'edits of a MultiEdit with replace_all cannot be rewritten';
          const plain = before.every((e) => Object.keys(e).every((k) => k === 'old_string' || k === 'new_string'));
          if (edits.length !== before.length && !plain) return `MultiEdit keeps its ${before.length} edit(s): edits cannot be added or removed`;
          out.edits = edits.map((e, i) => ({ ...(before[i] ?? {}), old_string: e.oldText, new_string: e.newText }));
          return undefined;
        },
      },
    },
  },
  // {pattern, path?, glob?, type?, output_mode?, -i?, -n?, -A?, -B?, -C?, head_limit?, multiline?}: `path` and the rest kept.
  { source: 'claude', foreign: 'Grep', zut: 'grep', required: ['pattern'], fields: ripgrepFields('Grep') },
  // {url, prompt}: the prompt (what to extract) has no zut counterpart and is kept.
  { source: 'claude', foreign: 'WebFetch', zut: 'web_open', required: ['url'], fields: { url: renamed('url', str('url must be a string')) } },
  // {notebook_path, cell_id?, new_source, cell_type?, edit_mode?: replace|insert|delete}: one cell, no zut form.
  { source: 'claude', foreign: 'NotebookEdit', effect: 'write' },
  // {pattern, path?} / {path, ignore?} / {query, allowed_domains?, blocked_domains?}: no zut form (zut-extensions.md
  // states no arguments for a glob, list or web_search tool).
  { source: 'claude', foreign: 'Glob', effect: 'read' },
  { source: 'claude', foreign: 'LS', effect: 'read' },
  { source: 'claude', foreign: 'WebSearch', effect: 'network' },
];

