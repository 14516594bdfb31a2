/**
 * Copilot CLI's rows of the foreign-tool table (index.ts), from the tools' JSON schemas in Copilot CLI 1.0.102's
 * runtime and vscode-copilot-chat's typed mirror of them (copilotCLITools.ts); each row says what its input is. Not
 * in the table (guards see the tool as it is, with no `effect`): `task` (a subagent, whose own calls come through the
 * hook), `ask_user`, `list_bash`. Its PascalCase hook events name these tools as Claude Code does (`COPILOT_CLI_ALIASES`).
 * VS Code-free.
 */
import { patchRowViews } from './applyPatch';
import { mappedViews } from './mapping';
import { commandField, pathField, positive, posInt, renamed, ripgrepFields, singleEdit, str, type CustomRow, type EffectRow, type Field, type JsonObject, type ToolMapping } from './fields';

/** Copilot CLI's `view` range: `view_range: [start, end]` (1-based, inclusive; end -1 = to the end of the file). */
function viewRange(which: 'offset' | 'limit'): Field {
  return {
    get: (input) => {
      const r = input.view_range;
      if (!Array.isArray(r) || r.length !== 2 || !posInt(r[0]) || !Number.isInteger(r[1])) return undefined;
      const [start, end] = r as [number, number];
      if (which === 'offset') return start;
      return end >= start ? end - start + 1 : undefined;
    },
    set: (out, _value, zut) => {
      const { offset, limit } = zut;
      if ((offset !== undefined && !posInt(offset)) || (limit !== undefined && !posInt(limit))) return 'offset and limit must be positive integers';
      if (offset === undefined && limit === undefined) delete out.view_range;
      else {
        const start = (offset as number | undefined) ?? 1;
        out.view_range = [start, limit === undefined ? -1 : start + (limit as number) - 1];
      }
      return undefined;
    },
  };
}

/** Copilot CLI's tools, as vscode-copilot-chat's Copilot CLI integration types them (copilotCLITools.ts). */
export const COPILOT_CLI_ROWS: readonly (ToolMapping | CustomRow | EffectRow)[] = [
  ...(['bash', 'powershell'] as const).map(
    (foreign): ToolMapping => ({
      // {command, description, sessionId?, async?, timeout?}; timeout in seconds (Copilot's agent tool description:
      // "Maximum time in seconds"). `powershell`'s command is PowerShell, as VS Code's run_in_terminal on Windows.
      source: 'copilot-cli',
      foreign,
      zut: 'bash',
      required: ['command'],
      fields: { command: commandField(), timeout: renamed('timeout', positive('timeout')) },
    }),
  ),
  // {path, view_range?: [start, end]} (a directory path lists it; guards see a read of that path).
  { source: 'copilot-cli', foreign: 'view', zut: 'read', required: ['path'], fields: { path: pathField('path'), offset: viewRange('offset'), limit: viewRange('limit') } },
  {
    // {path, file_text?} (no file_text: an empty file).
    source: 'copilot-cli',
    foreign: 'create',
    zut: 'write',
    required: ['path', 'content'],
    fields: {
      path: pathField('path'),
      content: {
        get: (input) => (input.file_text === undefined ? '' : typeof input.file_text === 'string' ? input.file_text : undefined),
        set: (out, value) => (typeof value === 'string' ? void (out.file_text = value) : 'content must be a string'),
      },
    },
  },
  // {path, old_str, new_str?} (no new_str: the old text is deleted).
  { source: 'copilot-cli', foreign: 'edit', zut: 'edit', required: ['path', 'edits'], fields: { path: pathField('path'), edits: singleEdit('edit', 'old_str', 'new_str', true) } },
  // {pattern, path?, output_mode, glob?, type?, -i?, -A?, -B?, -C?, -n?, head_limit?, multiline?}: `path` and the rest kept.
  { source: 'copilot-cli', foreign: 'grep', zut: 'grep', required: ['pattern'], fields: ripgrepFields('grep') },
  // {url, max_length?, start_index?, raw?}: the other arguments are kept as they are.
  { source: 'copilot-cli', foreign: 'web_fetch', zut: 'web_open', required: ['url'], fields: { url: renamed('url', str('url must be a string')) } },
  // `rg` is grep's other name.
  { source: 'copilot-cli', foreign: 'rg', zut: 'grep', required: ['pattern'], fields: ripgrepFields('rg') },
  ...(['write_bash', 'write_powershell'] as const).map(
    // {shellId, input, delay?}: text typed into a running shell session: what it runs is `input`.
    (foreign): ToolMapping => ({ source: 'copilot-cli', foreign, zut: 'bash', required: ['command'], fields: { command: commandField('input') } }),
  ),
  // {path, old_str, new_str?}: the older name of `edit`.
  { source: 'copilot-cli', foreign: 'str_replace', zut: 'edit', required: ['path', 'edits'], fields: { path: pathField('path'), edits: singleEdit('str_replace', 'old_str', 'new_str', true) } },
  // {command: view|create|str_replace|insert, path, file_text?, old_str?, new_str?, insert_line?, view_range?}.
  { source: 'copilot-cli', foreign: 'str_replace_editor', effect: 'write', views: (input) => strReplaceEditor(input) },
  // The patch: a freeform string (the hook input reads it as {input}), or {input} / {patch}.
  { source: 'copilot-cli', foreign: 'apply_patch', effect: 'write', views: patchRowViews('apply_patch') },
  ...([
    ['insert', 'write'], // {path, insert_line, new_str}: no old text, so no zut edit
    ['read_bash', 'read'],
    ['read_powershell', 'read'],
    ['stop_bash', 'exec'],
    ['stop_powershell', 'exec'],
    ['glob', 'read'],
  ] as const).map(([foreign, effect]): EffectRow => ({ source: 'copilot-cli', foreign, effect })),
];

/** `str_replace_editor`'s sub-commands that zut has tools for: the row of the same input under its own name. */
const EDITOR_COMMANDS: Record<string, ToolMapping | undefined> = {
  view: COPILOT_CLI_ROWS.find((r): r is ToolMapping => r.foreign === 'view'),
  create: COPILOT_CLI_ROWS.find((r): r is ToolMapping => r.foreign === 'create'),
  str_replace: COPILOT_CLI_ROWS.find((r): r is ToolMapping => r.foreign === 'str_replace'),
};

/**
 * `str_replace_editor` by its `command`: view → read, create → write, str_replace → edit; `insert` has no zut form
 * and shows as it is (effect `write`, a rewrite taken whole). Another command, or an input that does not fit, has none.
 */
function strReplaceEditor(input: JsonObject): ReturnType<CustomRow['views']> {
  if (input.command === 'insert') {
    return { views: [{ name: 'str_replace_editor', args: input, effect: 'write' }], back: (modified) => ({ input: modified[0] }) };
  }
  const row = typeof input.command === 'string' && Object.prototype.hasOwnProperty.call(EDITOR_COMMANDS, input.command) ? EDITOR_COMMANDS[input.command] : undefined;
  return row && mappedViews(row, input);
}


