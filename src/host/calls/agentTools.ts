/**
 * Rows of the foreign-tool table (foreignTools.ts) for the agents that run zut's hook outside the editor's own
 * tools: Copilot CLI and Claude Code. Each row says where its tool's input was read. What does not map passes under
 * its own name and input (guards see the agent's tool as it is):
 * - Copilot CLI: `glob` (zut has no glob tool), `task` (a subagent), `ask_user`, `write_bash`/`read_bash`/
 *   `stop_bash` and their `powershell` twins (input to a running session, not a new command), the older
 *   `str_replace_editor`, `insert`, `undo_edit`.
 * - Claude Code: `Glob`, `LS`, `NotebookEdit` (notebook cells), `WebSearch` (zut's `web_search` arguments are not
 *   stated in zut-extensions.md), `Task`/`Agent`, `TodoWrite`.
 * VS Code-free.
 */
import { editsOf, isObject, millisTimeout, positive, posInt, renamed, singleEdit, str, type Field, type JsonObject, type ToolMapping } from './foreignFields';

const path = (key: string) => renamed(key, str('path must be a string'));
const command = renamed('command', str('command must be a string'));

/** zut's `literal`: these greps take a regular expression only, so `literal: true` cannot be expressed. */
const regexOnly = (tool: string): Field => ({
  get: () => undefined,
  set: (_out, value) => (value === undefined || value === false ? undefined : `literal has no counterpart in ${tool} (its pattern is a regular expression)`),
});

/** `grep`/`Grep` (ripgrep's options: `pattern`, `path`, `glob`, `output_mode`, `-i`, `head_limit`, …). */
const ripgrepFields = (tool: string): Record<string, Field> => ({
  pattern: renamed('pattern', str('pattern must be a string')),
  glob: renamed('glob', str('glob must be a string')),
  limit: renamed('head_limit', positive('limit')),
  literal: regexOnly(tool),
});

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

/** Claude Code's `MultiEdit` edits (`[{old_string, new_string, replace_all?}]`), when every one has both strings. */
function multiEditsOf(input: JsonObject): JsonObject[] | undefined {
  const e = input.edits;
  return Array.isArray(e) && e.length > 0 && e.every((x) => isObject(x) && typeof x.old_string === 'string' && typeof x.new_string === 'string') ? (e as JsonObject[]) : undefined;
}

/** Copilot CLI's tools, as vscode-copilot-chat's Copilot CLI integration types them (copilotCLITools.ts). */
const COPILOT_CLI: readonly ToolMapping[] = [
  ...(['bash', 'powershell'] as const).map(
    (foreign): ToolMapping => ({
      // {command, description, sessionId?, async?, timeout?}; timeout in seconds (Copilot's agent tool description:
      // "Maximum time in seconds"). `powershell`'s command is PowerShell, as VS Code's run_in_terminal on Windows.
      source: 'copilot-cli',
      foreign,
      zut: 'bash',
      required: ['command'],
      fields: { command, timeout: renamed('timeout', positive('timeout')) },
    }),
  ),
  // {path, view_range?: [start, end]} (a directory path lists it; guards see a read of that path).
  { source: 'copilot-cli', foreign: 'view', zut: 'read', required: ['path'], fields: { path: path('path'), offset: viewRange('offset'), limit: viewRange('limit') } },
  {
    // {path, file_text?} (no file_text: an empty file).
    source: 'copilot-cli',
    foreign: 'create',
    zut: 'write',
    required: ['path', 'content'],
    fields: {
      path: path('path'),
      content: {
        get: (input) => (input.file_text === undefined ? '' : typeof input.file_text === 'string' ? input.file_text : undefined),
        set: (out, value) => (typeof value === 'string' ? void (out.file_text = value) : 'content must be a string'),
      },
    },
  },
  // {path, old_str, new_str?} (no new_str: the old text is deleted).
  { source: 'copilot-cli', foreign: 'edit', zut: 'edit', required: ['path', 'edits'], fields: { path: path('path'), edits: singleEdit('edit', 'old_str', 'new_str', true) } },
  // {pattern, path?, output_mode, glob?, type?, -i?, -A?, -B?, -C?, -n?, head_limit?, multiline?}: `path` and the rest kept.
  { source: 'copilot-cli', foreign: 'grep', zut: 'grep', required: ['pattern'], fields: ripgrepFields('grep') },
  // {url, …}: GitHub's Copilot CLI docs name web_fetch ("Fetch web pages"); its other arguments are kept as they are.
  { source: 'copilot-cli', foreign: 'web_fetch', zut: 'web_open', required: ['url'], fields: { url: renamed('url', str('url must be a string')) } },
];

/** Claude Code's tools, as its tools reference and hook docs give their `tool_input`. */
const CLAUDE: readonly ToolMapping[] = [
  // {command, timeout? (milliseconds), description?, run_in_background?}
  { source: 'claude', foreign: 'Bash', zut: 'bash', required: ['command'], fields: { command, timeout: millisTimeout('timeout') } },
  // {file_path, offset? (1-based line), limit? (line count), pages?}
  { source: 'claude', foreign: 'Read', zut: 'read', required: ['path'], fields: { path: path('file_path'), offset: renamed('offset', positive('offset')), limit: renamed('limit', positive('limit')) } },
  { source: 'claude', foreign: 'Write', zut: 'write', required: ['path', 'content'], fields: { path: path('file_path'), content: renamed('content', str('content must be a string')) } },
  {
    // {file_path, old_string, new_string, replace_all?}: replace_all has no zut counterpart and is kept; the texts of
    // a replace_all edit cannot be rewritten (zut's edit replaces one occurrence): refused.
    source: 'claude',
    foreign: 'Edit',
    zut: 'edit',
    required: ['path', 'edits'],
    fields: {
      path: path('file_path'),
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
      path: path('file_path'),
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
];

export const AGENT_TOOL_MAPPINGS: readonly ToolMapping[] = [...COPILOT_CLI, ...CLAUDE];
