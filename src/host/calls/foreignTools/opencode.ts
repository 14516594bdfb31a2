/**
 * opencode's rows of the foreign-tool table (index.ts), from the tools' parameter schemas in opencode-ai 1.18.33's
 * binary (its `Struct`s: `bash {command, timeout? (ms), workdir?}`, `read {filePath, offset? (1-based), limit?}`,
 * `write {content, filePath}`, `edit {filePath, oldString, newString, replaceAll?}`, `apply_patch {patchText}` — offered
 * instead of edit/write to `gpt-*` models —, `grep {pattern, path?, include?}`, `glob {pattern, path?}`,
 * `webfetch {url, format, timeout? (s)}`, `websearch`, `lsp`). Its registry of 1.18.33 (`ToolRegistry.state`) has no
 * `batch` tool (only a leftover `experimental.batch_tool` setting); older and later versions that offer it run its
 * sub-calls `{tool_calls: [{tool, parameters}]}` without the plugin hooks seeing them one by one — the known bypass —,
 * so its row shows guards every sub-call, each as its own row shows it, and refuses a rewrite (a block of any denies
 * the batch). Not in the table: `task` (a subagent, whose calls come through the hook), `todowrite`, `question`,
 * `skill`, `plan_exit`, `invalid`. MCP tools are `<server>_<tool>`. VS Code-free.
 */
import { parsePatch, patchRowViews } from './applyPatch';
import { mappedViews } from './mapping';
import { commandField, isObject, millisTimeout, pathField, positive, renamed, singleEdit, str, type CustomRow, type EffectRow, type Field, type GuardView, type JsonObject, type ToolMapping } from './fields';

type Row = ToolMapping | CustomRow | EffectRow;

/** zut's `literal`: opencode's grep takes a regular expression only. */
const regexOnly: Field = {
  get: () => undefined,
  set: (_out, value) => (value === undefined || value === false ? undefined : "literal has no counterpart in opencode's grep (its pattern is a regular expression)"),
};

const ROWS: Row[] = [
  // {command, timeout? (milliseconds), workdir?}: workdir has no zut counterpart and is kept.
  { source: 'opencode', foreign: 'bash', zut: 'bash', required: ['command'], fields: { command: commandField(), timeout: millisTimeout('timeout') } },
  { source: 'opencode', foreign: 'read', zut: 'read', required: ['path'], fields: { path: pathField('filePath'), offset: renamed('offset', positive('offset')), limit: renamed('limit', positive('limit')) } },
  { source: 'opencode', foreign: 'write', zut: 'write', required: ['path', 'content'], fields: { path: pathField('filePath'), content: renamed('content', str('content must be a string')) } },
  {
    // replaceAll has no zut counterpart and is kept; the texts of a replaceAll edit cannot be rewritten.
    source: 'opencode',
    foreign: 'edit',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: pathField('filePath'),
      edits: {
        get: singleEdit('edit', 'oldString', 'newString').get,
        set: (out, value, zut) => (out.replaceAll === true ? 'edits of a replaceAll edit cannot be rewritten' : singleEdit('edit', 'oldString', 'newString').set(out, value, zut)),
      },
    },
  },
  // {patchText}: the "*** Begin Patch" envelope (applyPatch.ts), one view per file.
  { source: 'opencode', foreign: 'apply_patch', effect: 'write', views: (input) => (typeof input.patchText === 'string' && parsePatch(input.patchText) ? patchRowViews('apply_patch')({ patch: input.patchText }) : undefined) },
  // {pattern, path?, include? (a file glob)}: `path` kept.
  { source: 'opencode', foreign: 'grep', zut: 'grep', required: ['pattern'], fields: { pattern: renamed('pattern', str('pattern must be a string')), glob: renamed('include', str('glob must be a string')), literal: regexOnly } },
  // {url, format, timeout? (seconds)}: format and timeout kept.
  { source: 'opencode', foreign: 'webfetch', zut: 'web_open', required: ['url'], fields: { url: renamed('url', str('url must be a string')) } },
  { source: 'opencode', foreign: 'glob', effect: 'read' },
  { source: 'opencode', foreign: 'list', effect: 'read' },
  { source: 'opencode', foreign: 'lsp', effect: 'read' },
  { source: 'opencode', foreign: 'websearch', effect: 'network' },
  { source: 'opencode', foreign: 'codesearch', effect: 'network' },
  // The experimental code mode's tool: runs code that calls MCP tools (each child call reaches the plugin hook).
  { source: 'opencode', foreign: 'execute', effect: 'exec' },
];

const rowOf = (name: string): Row | undefined => ROWS.find((r) => r.foreign === name);

/**
 * One sub-call of a batch as its own row shows it; a tool no row maps passes as it is (with its row's effect), and a
 * mapped tool whose input has no zut form gives undefined (the whole batch then has none: the door blocks it, unfit).
 */
function subViews(tool: string, parameters: JsonObject): GuardView[] | undefined {
  const row = rowOf(tool);
  if (row && 'fields' in row) return mappedViews(row, parameters)?.views;
  if (row && 'views' in row) return row.views(parameters)?.views;
  return [{ name: tool, args: parameters, ...(row && { effect: row.effect }) }];
}

/** `batch {tool_calls: [{tool, parameters}]}`: every sub-call's views; a rewrite of any is refused (the batch is then blocked). */
const BATCH: CustomRow = {
  source: 'opencode',
  foreign: 'batch',
  effect: 'exec',
  views: (input) => {
    const calls = input.tool_calls;
    if (!Array.isArray(calls) || calls.length === 0 || !calls.every((c) => isObject(c) && typeof c.tool === 'string' && (c.parameters === undefined || isObject(c.parameters)))) return undefined;
    const views: GuardView[] = [];
    for (const c of calls as { tool: string; parameters?: JsonObject }[]) {
      const v = subViews(c.tool, c.parameters ?? {});
      if (!v) return undefined;
      views.push(...v);
    }
    return { views, back: () => ({ error: "batch: a guard's rewrite of a batch's call cannot be applied (only its block)" }) };
  },
};

export const OPENCODE_ROWS: readonly Row[] = [...ROWS, BATCH];
