/**
 * Cursor's rows of the foreign-tool table (index.ts), from Cursor's hooks documentation (cursor.com/docs/hooks;
 * documented only: Cursor does not run here). Its documented `preToolUse` matchers name the tools `Shell`, `Read`,
 * `Write`, `Edit`, `StrReplace`, `Delete`, `Grep`, `Glob`, `Task`, `MCP:<tool>`; only `Shell`'s input is documented
 * (`{command, working_directory?, timeout?}`), so it is the one shown as zut's `bash` — the others reach guards under
 * their own names with what they do (`effect`: a guard that does not know them fails closed on `write`), never in a
 * guessed shape. `Task` (a subagent, whose calls come through the hook) is not in the table. VS Code-free.
 */
import { commandField, type EffectRow, type ToolMapping } from './fields';

export const CURSOR_ROWS: readonly (ToolMapping | EffectRow)[] = [
  // {command, working_directory?, timeout?}: the working directory and timeout (unit not documented) are kept.
  { source: 'cursor', foreign: 'Shell', zut: 'bash', required: ['command'], fields: { command: commandField() } },
  ...([
    ['Write', 'write'],
    ['Edit', 'write'],
    ['StrReplace', 'write'],
    ['Delete', 'write'],
    ['Read', 'read'],
    ['Grep', 'read'],
    ['Glob', 'read'],
  ] as const).map(([foreign, effect]): EffectRow => ({ source: 'cursor', foreign, effect })),
];
