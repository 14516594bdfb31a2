/**
 * The names and shapes every part of `zut-host hook` shares, depending on nothing but the limits (the light entry
 * src/hook.ts loads this and nothing heavy): the budget of a call, the agents, the events as each agent spells them, a call and its answer. VS Code-free.
 */

import { HOOK_BUDGET_MS } from '../protocol/limits';

/**
 * The budget of one hook call (HOOK_BUDGET_MS), or `$ZUT_HOOK_BUDGET_SECONDS` when set (between 1 and 25 s): for an
 * agent configured with a hook timeout shorter than the 30 s we install, so zut still answers first.
 */
export function hookBudgetMs(): number {
  const s = Number(process.env.ZUT_HOOK_BUDGET_SECONDS);
  return Number.isFinite(s) && s >= 1 ? Math.min(s * 1000, HOOK_BUDGET_MS) : HOOK_BUDGET_MS;
}

/**
 * The name of zut's MCP server in every configuration we write (VS Code's agent mode names it so too): an agent
 * names its tools `mcp__zut__<tool>` (Claude Code), `zut-<tool>` (Copilot CLI), `mcp_zut_<tool>` (VS Code).
 */
export const MCP_SERVER_NAME = 'zut';

/**
 * `zut-host hook --no-warm EVENT`: answered by a window on the folder, else by the hook itself — it neither asks nor
 * starts a warm host (Claude Code's SessionStart when its other hooks go to zut's MCP server: hookInstall.ts).
 */
export const NO_WARM_FLAG = '--no-warm';

/** Whose hook this is: decides the output format and the tool names (tools.ts). */
export type HookAgent = 'vscode' | 'copilot-cli' | 'claude' | 'gemini' | 'opencode' | 'cursor' | 'codex' | 'cline' | 'qwen';
export const HOOK_AGENTS: readonly HookAgent[] = ['vscode', 'copilot-cli', 'claude', 'gemini', 'opencode', 'cursor', 'codex', 'cline', 'qwen'];

/** The lifecycle points we answer, in their canonical (PascalCase) names. */
export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PermissionRequest'
  | 'PermissionDenied'
  | 'Notification'
  | 'Stop'
  | 'SubagentStop'
  | 'SessionEnd';

/** Our events by their lowercase names (each agent's own spellings: its dialect, dialects/*.ts `eventNames`). */
export const CANONICAL_EVENTS: Readonly<Record<string, HookEvent>> = {
  sessionstart: 'SessionStart',
  userpromptsubmit: 'UserPromptSubmit',
  pretooluse: 'PreToolUse',
  posttooluse: 'PostToolUse',
  permissionrequest: 'PermissionRequest', // Claude Code; Copilot CLI's camelCase permissionRequest
  permissiondenied: 'PermissionDenied', // Claude Code
  notification: 'Notification',
  stop: 'Stop',
  subagentstop: 'SubagentStop',
  sessionend: 'SessionEnd',
};

/** Whether the event name is Copilot CLI's camelCase form (its answers then use `modifiedArgs`). */
export function isCamelEvent(name: string): boolean {
  return /^[a-z]/.test(name);
}

/** How to answer: the agent, the event, and whether the agent named it in camelCase (Copilot CLI's own format). */
export interface HookCall {
  agent: HookAgent;
  event: HookEvent;
  camel: boolean;
}

/** The answer: what to print on stdout ('' = nothing), stderr, and the exit code. */
export interface HookAnswer {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

/**
 * The light entry (dist/hook.js) hands the stdin it already read to the CLI bundle it falls back to through this
 * global: the raw input, or null when it was over HOOK_INPUT_MAX_BYTES. Absent: the CLI reads stdin itself.
 */
export const PRESET_STDIN = Symbol.for('zut-host.hook.stdin');

/** Set by the light entry when it asked the running hosts already and none answered: the CLI does not ask again. */
export const PRESET_ASKED = Symbol.for('zut-host.hook.asked');
