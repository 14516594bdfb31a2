/**
 * Cline's rows of the foreign-tool table (index.ts), from the tools' zod schemas in Cline CLI 3.0.65 (@cline/core):
 * `run_commands {commands: string[]}` (it also takes `{commands: string}`, `{command}`, `{cmd}`; the commands run side
 * by side: one `bash` view each), `editor {path, old_text?, new_text, insert_line?}` (a replacement: `edit`; no
 * old_text: it creates the file — `write`; `insert_line`: no zut form), `apply_patch {input}` (the canonical patch
 * grammar: one view per file), `read_files`, `search_codebase`, `fetch_web_content`. The older Cline's names, which
 * Cline CLI 3 maps onto these (`execute_command`, `write_to_file`, `replace_in_file`, `read_file`), keep rows of
 * their own for hook input that still carries them. Not in the table: `ask_question`, `submit_and_exit`, `skills`,
 * the `team_*` tools (a teammate's own tool calls come through its hooks). VS Code-free.
 */
import { patchRowViews } from './applyPatch';
import { mappedViews } from './mapping';
import { commandField, pathField, renamed, singleEdit, str, type CustomRow, type EffectRow, type GuardView, type JsonObject, type ToolMapping } from './fields';

/** Where `run_commands` keeps its commands in this input, and them: only shell strings have a zut form. */
function commandsOf(input: JsonObject): { key: string; list: boolean; commands: string[] } | undefined {
  const c = input.commands;
  if (Array.isArray(c)) return c.length > 0 && c.every((x) => typeof x === 'string') ? { key: 'commands', list: true, commands: c as string[] } : undefined;
  if (typeof c === 'string') return { key: 'commands', list: false, commands: [c] };
  if (c !== undefined) return undefined;
  for (const key of ['command', 'cmd']) if (typeof input[key] === 'string' && input.args === undefined) return { key, list: false, commands: [input[key] as string] };
  return undefined;
}

const RUN_COMMANDS: CustomRow = {
  source: 'cline',
  foreign: 'run_commands',
  effect: 'exec',
  views(input) {
    const found = commandsOf(input);
    if (!found) return undefined;
    const views: GuardView[] = found.commands.map((command) => ({ name: 'bash', args: { command }, effect: 'exec' }));
    return {
      views,
      back(modified) {
        const out = structuredClone(input);
        const next: string[] = [];
        for (const m of modified) {
          const extra = Object.keys(m).filter((k) => k !== 'command');
          if (extra.length > 0) return { error: `bash.${extra[0]} has no counterpart in run_commands` };
          if (typeof m.command !== 'string') return { error: 'bash.command must be a string' };
          next.push(m.command);
        }
        out[found.key] = found.list ? next : next[0];
        return { input: out };
      },
    };
  },
};

const EDITOR_EDIT: ToolMapping = {
  source: 'cline',
  foreign: 'editor',
  zut: 'edit',
  required: ['path', 'edits'],
  fields: { path: pathField('path'), edits: singleEdit('editor', 'old_text', 'new_text') },
};

const EDITOR_WRITE: ToolMapping = {
  source: 'cline',
  foreign: 'editor',
  zut: 'write',
  required: ['path', 'content'],
  fields: { path: pathField('path'), content: renamed('new_text', str('content must be a string')) },
};

/** `editor`: a replacement (`edit`), a creation (`write`), or an insertion at a line (no zut form: `write` effect). */
const EDITOR: CustomRow = {
  source: 'cline',
  foreign: 'editor',
  effect: 'write',
  views(input) {
    if (input.insert_line !== undefined && input.insert_line !== null) return undefined;
    return typeof input.old_text === 'string' ? mappedViews(EDITOR_EDIT, input) : input.old_text === undefined || input.old_text === null ? mappedViews(EDITOR_WRITE, input) : undefined;
  },
};

export const CLINE_ROWS: readonly (ToolMapping | CustomRow | EffectRow)[] = [
  RUN_COMMANDS,
  EDITOR,
  { source: 'cline', foreign: 'apply_patch', effect: 'write', views: patchRowViews('apply_patch') },
  // {files: [{path, start_line?, end_line?}]} (or a path, or paths): several files, no one zut form.
  { source: 'cline', foreign: 'read_files', effect: 'read' },
  // {queries: string[]}: regular expressions over the workspace.
  { source: 'cline', foreign: 'search_codebase', effect: 'read' },
  // {requests: [{url, prompt}]}
  { source: 'cline', foreign: 'fetch_web_content', effect: 'network' },
  // The older Cline's tools: {command, requires_approval}, {path, content}, {path, diff} (SEARCH/REPLACE blocks), {path}.
  { source: 'cline', foreign: 'execute_command', zut: 'bash', required: ['command'], fields: { command: commandField() } },
  { source: 'cline', foreign: 'write_to_file', zut: 'write', required: ['path', 'content'], fields: { path: pathField('path'), content: renamed('content', str('content must be a string')) } },
  { source: 'cline', foreign: 'replace_in_file', effect: 'write' },
  { source: 'cline', foreign: 'read_file', zut: 'read', required: ['path'], fields: { path: pathField('path') } },
];
