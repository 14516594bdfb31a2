/**
 * Gemini CLI's rows of the foreign-tool table (index.ts), from the function declarations Gemini CLI 0.61.0 sends the
 * model (its `tools[].functionDeclarations`, recorded by test/agents/gemini.test.mjs) — each row says what its input
 * is. A rewrite replaces the call's input whole (its scheduler builds the call from the hook's `tool_input`), so an
 * argument a guard removes is removed. Not in the table (guards see the tool as it is, with no `effect`):
 * `invoke_agent` (a subagent, whose own tool calls come through the hook), `update_topic`, `enter_plan_mode`,
 * `activate_skill`, `list_background_processes`. VS Code-free.
 */
import { commandField, pathField, posInt, renamed, singleEdit, str, type EffectRow, type Field, type ToolMapping } from './fields';

/** `read_file`'s `start_line`/`end_line` (1-based, inclusive) as zut's `offset`/`limit`. */
function lineRange(which: 'offset' | 'limit'): Field {
  return {
    get: (input) => {
      const { start_line: start, end_line: end } = input;
      if ((start !== undefined && !posInt(start)) || (end !== undefined && !posInt(end))) return undefined;
      if (which === 'offset') return start;
      if (end === undefined) return undefined;
      const from = (start as number | undefined) ?? 1;
      return (end as number) >= from ? (end as number) - from + 1 : undefined;
    },
    set: (out, _value, zut) => {
      const { offset, limit } = zut;
      if ((offset !== undefined && !posInt(offset)) || (limit !== undefined && !posInt(limit))) return 'offset and limit must be positive integers';
      delete out.start_line;
      delete out.end_line;
      if (offset !== undefined) out.start_line = offset;
      if (limit !== undefined) out.end_line = ((offset as number | undefined) ?? 1) + (limit as number) - 1;
      return undefined;
    },
  };
}

/** `grep_search` takes a regular expression only: zut's `literal: true` cannot be expressed. */
const regexOnly: Field = {
  get: () => undefined,
  set: (_out, value) => (value === undefined || value === false ? undefined : 'literal has no counterpart in grep_search (its pattern is a regular expression)'),
};

/** Gemini CLI's tools, as their function declarations give their input. */
export const GEMINI_ROWS: readonly (ToolMapping | EffectRow)[] = [
  // {command, description?, dir_path?, is_background?, delay_ms?}: `bash -c <command>`; no timeout argument.
  { source: 'gemini', foreign: 'run_shell_command', zut: 'bash', required: ['command'], fields: { command: commandField() } },
  // {file_path, start_line?, end_line?}
  { source: 'gemini', foreign: 'read_file', zut: 'read', required: ['path'], fields: { path: pathField('file_path'), offset: lineRange('offset'), limit: lineRange('limit') } },
  // {file_path, content}
  { source: 'gemini', foreign: 'write_file', zut: 'write', required: ['path', 'content'], fields: { path: pathField('file_path'), content: renamed('content', str('content must be a string')) } },
  {
    // {file_path, instruction, old_string, new_string, allow_multiple?}: `instruction` has no zut counterpart and is
    // kept; the texts of an allow_multiple edit cannot be rewritten (zut's edit replaces one occurrence): refused.
    source: 'gemini',
    foreign: 'replace',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: pathField('file_path'),
      edits: {
        get: singleEdit('replace', 'old_string', 'new_string').get,
        set: (out, value, zut) => (out.allow_multiple === true ? 'edits of an allow_multiple replace cannot be rewritten' : singleEdit('replace', 'old_string', 'new_string').set(out, value, zut)),
      },
    },
  },
  // {pattern, dir_path?, include_pattern?, exclude_pattern?, names_only?, max_matches_per_file?, total_max_matches?}
  {
    source: 'gemini',
    foreign: 'grep_search',
    zut: 'grep',
    required: ['pattern'],
    fields: { pattern: renamed('pattern', str('pattern must be a string')), glob: renamed('include_pattern', str('glob must be a string')), limit: renamed('total_max_matches', (v) => (posInt(v) ? undefined : 'limit must be a positive integer')), literal: regexOnly },
  },
  // {prompt}: the URLs are inside the prompt text (up to 20): no zut web_open form.
  { source: 'gemini', foreign: 'web_fetch', effect: 'network' },
  { source: 'gemini', foreign: 'google_web_search', effect: 'network' },
  // {pattern, dir_path?, …} / {dir_path, ignore?, …} / {pid, lines?, delay_ms?}
  { source: 'gemini', foreign: 'glob', effect: 'read' },
  { source: 'gemini', foreign: 'list_directory', effect: 'read' },
  { source: 'gemini', foreign: 'read_background_output', effect: 'read' },
];
