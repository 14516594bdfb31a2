/**
 * Qwen Code's rows of the foreign-tool table (index.ts), from the tools' JSON schemas in @qwen-code/qwen-code
 * 0.24.4 (Gemini CLI's tools, renamed): `run_shell_command {command, description?, directory?, is_background?,
 * timeout? (milliseconds)}`, `write_file {file_path, content}`, `edit {file_path, old_string, new_string,
 * replace_all?}`, `read_file {file_path, offset? (0-based line), limit?, pages?}`, `grep_search`, `glob`,
 * `list_directory`, `web_fetch {url, prompt}`, `web_search`, `notebook_edit`. Not in the table: `agent` (a subagent,
 * whose own calls come through the hook), `todo_write`, `save_memory`, `ask_user_question`, `skill`, `exit_plan_mode`.
 * VS Code-free.
 */
import { commandField, millisTimeout, pathField, positive, posInt, renamed, singleEdit, str, type EffectRow, type Field, type ToolMapping } from './fields';

/** zut's `offset` (1-based line) from `read_file`'s 0-based `offset`. */
const zeroBasedOffset: Field = {
  get: (input) => (typeof input.offset === 'number' && Number.isInteger(input.offset) && input.offset >= 0 ? input.offset + 1 : undefined),
  set: (out, value) => {
    if (value === undefined) return void delete out.offset;
    if (!posInt(value)) return 'offset must be a positive integer';
    out.offset = (value as number) - 1;
    return undefined;
  },
};

export const QWEN_ROWS: readonly (ToolMapping | EffectRow)[] = [
  // `directory` (where it runs) and the rest have no zut counterpart and are kept.
  { source: 'qwen', foreign: 'run_shell_command', zut: 'bash', required: ['command'], fields: { command: commandField(), timeout: millisTimeout('timeout') } },
  { source: 'qwen', foreign: 'write_file', zut: 'write', required: ['path', 'content'], fields: { path: pathField('file_path'), content: renamed('content', str('content must be a string')) } },
  {
    // replace_all has no zut counterpart and is kept; the texts of a replace_all edit cannot be rewritten.
    source: 'qwen',
    foreign: 'edit',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: pathField('file_path'),
      edits: {
        get: singleEdit('edit', 'old_string', 'new_string').get,
        set: (out, value, zut) => (out.replace_all === true ? 'edits of a replace_all edit cannot be rewritten' : singleEdit('edit', 'old_string', 'new_string').set(out, value, zut)),
      },
    },
  },
  { source: 'qwen', foreign: 'read_file', zut: 'read', required: ['path'], fields: { path: pathField('file_path'), offset: zeroBasedOffset, limit: renamed('limit', positive('limit')) } },
  { source: 'qwen', foreign: 'web_fetch', zut: 'web_open', required: ['url'], fields: { url: renamed('url', str('url must be a string')) } },
  { source: 'qwen', foreign: 'notebook_edit', effect: 'write' },
  { source: 'qwen', foreign: 'grep_search', effect: 'read' },
  { source: 'qwen', foreign: 'glob', effect: 'read' },
  { source: 'qwen', foreign: 'list_directory', effect: 'read' },
  { source: 'qwen', foreign: 'web_search', effect: 'network' },
];
