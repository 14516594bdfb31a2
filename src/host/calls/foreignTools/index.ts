/**
 * Foreign tools as guards see them: one table of another agent's or editor's tools (VS Code's `run_in_terminal`,
 * Claude Code's `Bash`, Copilot CLI's `apply_patch`, …), so a guard written for zut's built-in tools (`bash`,
 * `write`, `edit`, …) runs unmodified over them. `foreignCall` gives the views of one call — usually one, a zut
 * tool's name and arguments; a patch or a multi-file edit gives one per file — and the way back: the guards'
 * `modified_args` map onto the original input (the whole object with the mapped fields replaced, unknown fields
 * kept), or are refused when they cannot (fail closed: the call is then blocked). A tool the table knows but cannot
 * show as a zut tool reaches guards under its own name with its `effect` (fields.ts). VS Code-free; the one guard
 * door (toolGuard.ts) is its only caller on the call path.
 *
 * Rows by source: vscodeAgent.ts, copilotCli.ts, claude.ts (each names where its tools' inputs were read); the row and
 * field kinds they share are in fields.ts. zut's argument names are zut's tools': `bash {command, timeout}`
 * (seconds), `read {path, offset, limit}` (1-based line, line count), `write {path, content}`, `edit {path, edits:
 * [{oldText, newText}]}`, `grep {pattern, glob, literal, limit}`, `web_open {url}`.
 */
import { CLAUDE_ROWS } from './claude';
import { CLINE_ROWS } from './cline';
import { CODEX_ROWS } from './codex';
import { COPILOT_CLI_ROWS } from './copilotCli';
import { CURSOR_ROWS } from './cursor';
import { GEMINI_ROWS } from './gemini';
import { OPENCODE_ROWS } from './opencode';
import { isObject, type CustomRow, type EffectRow, type ForeignSource, type GuardView, type JsonObject, type MappedBack, type ToolEffect, type ToolMapping, ZUT_TOOL_EFFECTS } from './fields';
import { mappedViews } from './mapping';
import { QWEN_ROWS } from './qwen';

export { fromZutArgs, toZutArgs } from './mapping';
import { VSCODE_ROWS } from './vscodeAgent';

export type { CustomRow, EffectRow, ForeignSource, GuardView, JsonObject, MappedBack, ToolEffect, ToolMapping } from './fields';

/** One row: declarative fields, code that builds several views, or just the tool's effect. */
export type ForeignRow = ToolMapping | CustomRow | EffectRow;

/** The table. */
export const FOREIGN_ROWS: readonly ForeignRow[] = [...VSCODE_ROWS, ...COPILOT_CLI_ROWS, ...CLAUDE_ROWS, ...GEMINI_ROWS, ...OPENCODE_ROWS, ...CURSOR_ROWS, ...CODEX_ROWS, ...CLINE_ROWS, ...QWEN_ROWS];

const rows = new Map<string, ForeignRow>(FOREIGN_ROWS.map((r) => [`${r.source}\0${r.foreign}`, r]));

/**
 * Copilot CLI's PascalCase hook events ("VS Code compatible") name its tools as Claude Code does (GitHub's hooks
 * reference, its name table): each such name stands for these Copilot CLI tools, tried in order until one's shape
 * fits the input. VS Code's Copilot harness runs Copilot CLI's engine with VS Code's hook files, so `vscode` hook
 * input may carry these names too.
 */
const COPILOT_CLI_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Bash: ['bash', 'powershell'],
  Read: ['view'],
  Write: ['create'],
  Edit: ['edit', 'str_replace_editor', 'apply_patch'],
  Grep: ['grep', 'rg'],
  Glob: ['glob'],
  WebFetch: ['web_fetch'],
};

/**
 * The rows that may describe `source`'s tool `name`: its own row (exact name); else, for a Claude Code name in
 * Copilot CLI's or VS Code's hook input, Copilot CLI's rows it stands for, then Claude Code's own row.
 */
function rowsOf(source: ForeignSource, name: string): ForeignRow[] {
  const own = rows.get(`${source}\0${name}`);
  if (own || (source !== 'copilot-cli' && source !== 'vscode')) return own ? [own] : []; // aliases: Copilot CLI's engine only
  const aliases = Object.prototype.hasOwnProperty.call(COPILOT_CLI_ALIASES, name) ? COPILOT_CLI_ALIASES[name] : [];
  return [...aliases.map((a) => rows.get(`copilot-cli\0${a}`)), rows.get(`claude\0${name}`)].filter((r): r is ForeignRow => r !== undefined);
}

const isMapping = (r: ForeignRow): r is ToolMapping => 'fields' in r;
const isCustom = (r: ForeignRow): r is CustomRow => 'views' in r;

/** The declarative row for `source`'s tool `name`, if it has one (its first candidate row). */
export function mappingOf(source: ForeignSource, name: string): ToolMapping | undefined {
  const r = rowsOf(source, name)[0];
  return r && isMapping(r) ? r : undefined;
}

/** How one foreign call appears to guards. */
export interface ForeignCall {
  /** The foreign tool's real name (the frames' additive `editor_tool` field). */
  foreign: string;
  /** What guards see: one view, or one per file of a patch or multi-file edit. */
  views: readonly GuardView[];
  /** Whether guards see zut's names and shapes. */
  mapped: boolean;
  /**
   * A tool the table shows as zut's whose input has not that shape (a `Bash` without a string `command`): guards
   * would see a name they do not know for a call that runs. The guard door blocks it (fail closed).
   */
  unfit: boolean;
  /** Each view's arguments after the chain → the input to run the foreign tool with, or why they cannot be applied. */
  back(modified: readonly JsonObject[]): MappedBack;
}

/** The guards' own objects back (nobody rewrote them). */
const untouched = (views: readonly GuardView[], modified: readonly JsonObject[]) => views.every((v, i) => modified[i] === v.args);

/** The guarded-path form of calling `source`'s tool `name` with `input` (a tool without a zut form passes as it is). */
export function foreignCall(source: ForeignSource, name: string, input: unknown): ForeignCall {
  const original = isObject(input) ? input : {};
  const candidates = rowsOf(source, name);
  for (const row of candidates) {
    const built = isMapping(row) ? mappedViews(row, original) : isCustom(row) ? row.views(original) : undefined;
    if (built) return { foreign: name, views: built.views, mapped: true, unfit: false, back: (modified) => (untouched(built.views, modified) ? { input: original } : built.back(modified)) };
  }
  // No zut form: the tool under its own name, with what it does when the table knows.
  const row = candidates[0];
  const effect: ToolEffect | undefined = !row ? undefined : isMapping(row) ? (row.effect ?? ZUT_TOOL_EFFECTS[row.zut]) : row.effect;
  const unfit = candidates.some((r) => isMapping(r) || isCustom(r)) && !candidates.some((r) => !isMapping(r) && !isCustom(r));
  const views = [{ name, args: original, ...(effect !== undefined && { effect }) }];
  return {
    foreign: name,
    views,
    mapped: false,
    unfit,
    back: (modified) => (untouched(views, modified) ? { input: original } : isObject(modified[0]) ? { input: modified[0] } : { error: 'modified_args must be a JSON object' }),
  };
}
