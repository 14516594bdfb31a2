/**
 * VS Code's rows of the foreign-tool table (index.ts): its agent tools, by the names the model and the hooks see
 * (vscode-copilot-chat's package.json `languageModelTools` and src/extension/tools/node/*, VS Code's own
 * terminalContrib/chatAgentTools and testing tools; each row says what its input is). Not in the table (guards see
 * the tool as it is, with no `effect`): tools that only read or show (get_terminal_output, await_terminal,
 * terminal_selection, terminal_last_command, …) and `runSubagent` (whose own calls are guarded one by one).
 * VS Code-free.
 */
import { patchRowViews } from './applyPatch';
import { commandField, editsOf, isObject, millisTimeout, pathField, posInt, renamed, str, singleEdit, type CustomRow, type EffectRow, type Field, type JsonObject, type ToolMapping } from './fields';

type ForeignRowOf = ToolMapping | CustomRow | EffectRow;

/** `create_and_run_task`'s task, when it has a command line. */
function taskOf(input: JsonObject): { command: string; args?: unknown[] } | undefined {
  const t = input.task;
  return isObject(t) && typeof t.command === 'string' && (t.args === undefined || Array.isArray(t.args)) ? (t as { command: string; args?: unknown[] }) : undefined;
}

/** `multi_replace_string_in_file`'s replacements grouped by file, in the order files first appear (each item: its index). */
function replacementGroups(input: JsonObject): { path: string; items: { at: number; r: { oldString: string; newString: string } }[] }[] | undefined {
  const rs = input.replacements;
  if (!Array.isArray(rs) || rs.length === 0) return undefined;
  const groups = new Map<string, { path: string; items: { at: number; r: { oldString: string; newString: string } }[] }>();
  for (const [at, r] of rs.entries()) {
    if (!isObject(r) || typeof r.filePath !== 'string' || typeof r.oldString !== 'string' || typeof r.newString !== 'string') return undefined;
    let g = groups.get(r.filePath);
    if (!g) groups.set(r.filePath, (g = { path: r.filePath, items: [] }));
    g.items.push({ at, r: { oldString: r.oldString, newString: r.newString } });
  }
  return [...groups.values()];
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
export const VSCODE_ROWS: readonly ForeignRowOf[] = [
  {
    source: 'vscode',
    foreign: 'run_in_terminal',
    zut: 'bash',
    required: ['command'],
    fields: {
      command: commandField(),
      // zut: seconds (a positive integer); VS Code: milliseconds, 0 or absent = none.
      timeout: millisTimeout('timeout'),
    },
  },
  {
    source: 'vscode',
    foreign: 'read_file',
    zut: 'read',
    required: ['path'],
    fields: { path: pathField('filePath'), offset: readField('offset'), limit: readField('limit') },
  },
  {
    source: 'vscode',
    foreign: 'create_file',
    zut: 'write',
    required: ['path', 'content'],
    fields: { path: pathField('filePath'), content: renamed('content', str('content must be a string')) },
  },
  {
    source: 'vscode',
    foreign: 'replace_string_in_file',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: pathField('filePath'),
      edits: singleEdit('replace_string_in_file', 'oldString', 'newString'),
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
  // {id (a run_in_terminal execution id), command, waitForOutput?}: the text is typed into that terminal, then Enter.
  { source: 'vscode', foreign: 'send_to_terminal', zut: 'bash', required: ['command'], fields: { command: commandField() } },
  {
    // {workspaceFolder, task: {label, type: "shell", command, args?, isBackground?, problemMatcher?, group?}}: the
    // task is added to <workspaceFolder>/.vscode/tasks.json and run by a shell: guards see its command line
    // (`command` and `args` joined by spaces). A rewrite sets `task.command` to the whole new line (args dropped).
    source: 'vscode',
    foreign: 'create_and_run_task',
    zut: 'bash',
    required: ['command'],
    fits: (input) => taskOf(input) !== undefined,
    fields: {
      command: {
        get: (input) => {
          const t = taskOf(input);
          return t && [t.command, ...(Array.isArray(t.args) ? t.args.map(String) : [])].join(' ');
        },
        set: (out, value) => {
          if (typeof value !== 'string') return 'command must be a string';
          const { args: _args, ...task } = out.task as JsonObject;
          out.task = { ...task, command: value };
          return undefined;
        },
      },
    },
  },
  // {filePath, code, explanation}: `code` is the new text, with "...existing code..." marking what stays.
  { source: 'vscode', foreign: 'insert_edit_into_file', zut: 'write', required: ['path', 'content'], fields: { path: pathField('filePath'), content: renamed('code', str('content must be a string')) } },
  {
    // {explanation, replacements: [{filePath, oldString, newString}]}: one `edit` per file (its replacements in order).
    source: 'vscode',
    foreign: 'multi_replace_string_in_file',
    effect: 'write',
    views: (input) => {
      const groups = replacementGroups(input);
      if (!groups) return undefined;
      return {
        views: groups.map((g) => ({ name: 'edit', args: { path: g.path, edits: g.items.map((i) => ({ oldText: i.r.oldString, newText: i.r.newString })) }, effect: 'write' as const })),
        back: (modified) => {
          const out = structuredClone(input);
          const rs = out.replacements as JsonObject[];
          for (const [n, g] of groups.entries()) {
            const m = modified[n];
            const extra = Object.keys(m).find((k) => k !== 'path' && k !== 'edits');
            if (extra) return { error: `edit.${extra} has no counterpart in multi_replace_string_in_file` };
            if (typeof m.path !== 'string') return { error: 'edit.path must be a string' };
            const edits = editsOf(m.edits);
            if (typeof edits === 'string') return { error: `edit.${edits}` };
            if (edits.length !== g.items.length) return { error: `edit.multi_replace_string_in_file keeps its ${g.items.length} replacement(s) of ${g.path}: edits cannot be added or removed` };
            g.items.forEach((item, k) => (rs[item.at] = { ...rs[item.at], filePath: m.path, oldString: edits[k].oldText, newString: edits[k].newText }));
          }
          return { input: out };
        },
      };
    },
  },
  {
    // {urls, query}: one `web_open` per URL; `query` (what to look for) has no zut counterpart and is kept.
    source: 'vscode',
    foreign: 'fetch_webpage',
    effect: 'network',
    views: (input) => {
      const urls = input.urls;
      if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === 'string')) return undefined;
      return {
        views: urls.map((url: string) => ({ name: 'web_open', args: { url }, effect: 'network' as const })),
        back: (modified) => {
          const next: string[] = [];
          for (const m of modified) {
            const extra = Object.keys(m).find((k) => k !== 'url');
            if (extra) return { error: `web_open.${extra} has no counterpart in fetch_webpage` };
            if (typeof m.url !== 'string') return { error: m.url === undefined ? 'web_open.url cannot be removed' : 'web_open.url must be a string' };
            next.push(m.url);
          }
          return { input: { ...input, urls: next } };
        },
      };
    },
  },
  // {input: the patch, explanation}: one view per file it touches (applyPatch.ts); a rewrite cannot be applied.
  { source: 'vscode', foreign: 'apply_patch', effect: 'write', views: patchRowViews('apply_patch') },
  // Tools that run something with no command line in their input: guards see them as they are, effect `exec`.
  ...(['run_task', 'runTests', 'run_notebook_cell', 'run_vscode_command', 'install_extension', 'execution_subagent', 'kill_terminal'] as const).map(
    (foreign): EffectRow => ({ source: 'vscode', foreign, effect: 'exec' }),
  ),
  // …and tools that write with no zut form: a notebook cell, a directory, the memory files, a new notebook or project.
  ...(['edit_notebook_file', 'create_directory', 'memory', 'create_new_jupyter_notebook', 'create_new_workspace'] as const).map(
    (foreign): EffectRow => ({ source: 'vscode', foreign, effect: 'write' }),
  ),
];

