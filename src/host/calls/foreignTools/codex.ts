/**
 * Codex CLI's rows of the foreign-tool table (index.ts), as Codex CLI 0.169.0 names its tools in hook input
 * (test/agents/fixtures/codex/): the shell tool — offered to the model as `exec_command {cmd}` — reaches hooks as
 * `Bash {command}`; the patch tool as `apply_patch` with the patch text (OpenAI's "*** Begin Patch" grammar, which
 * applyPatch.ts reads). MCP tools (`mcp__<server>__<tool>`) are not in the table. VS Code-free.
 */
import { patchRowViews } from './applyPatch';
import { commandField, type CustomRow, type ToolMapping } from './fields';

export const CODEX_ROWS: readonly (ToolMapping | CustomRow)[] = [
  // {command}: the command line Codex runs with `bash -lc` (no timeout field in the hook input).
  { source: 'codex', foreign: 'Bash', zut: 'bash', required: ['command'], fields: { command: commandField() } },
  // {command: "<patch text>"} (Codex's hook input) or {input}/{patch}: one view per file.
  { source: 'codex', foreign: 'apply_patch', effect: 'write', views: (input) => patchRowViews('apply_patch')(typeof input.command === 'string' && input.input === undefined && input.patch === undefined ? { input: input.command } : input) },
];
