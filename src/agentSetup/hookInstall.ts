/**
 * Installing `zut-host hook` into an agent's hook file, visibly and reversibly: which file, the exact entries, a
 * merge that never touches other entries, and a removal that takes out exactly ours (entries whose command is the
 * one this installation writes). Files: VS Code `~/.copilot/hooks/zut.json` (user) or `.github/hooks/zut.json`
 * (workspace), PascalCase events with `command`; Copilot CLI the same files with `version: 1`, camelCase events with
 * `bash`/`powershell`; Claude Code `~/.claude/settings.json` (user) or `.claude/settings.local.json` (workspace),
 * `hooks.<Event>[{matcher?, hooks: [{type: "command", command, timeout}]}]` — or, with `hooks: 'mcp'`, Claude Code's
 * `mcp_tool` entries calling zut's MCP server's hook tool (hooks/mcpHook.ts: no process per call; SessionStart stays a
 * command, mcp_tool hooks do not run there), either form of ours replacing the other in place. The command runs the launcher when
 * given, else the light entry dist/hook.js beside the CLI when it is there (`node dist/hook.js hook <args…>` behaves
 * as `node dist/cli.js hook <args…>`, faster per tool call); an entry of this installation in another of these forms
 * counts as ours too (replaced in place by install, removed by uninstall). Files are changed as text, every byte of
 * the user's kept (host/disk/jsonText.ts), through the careful writer (host/disk/userFile.ts: a link written through,
 * a workspace file leading out of the workspace, a read-only file or one whose owner cannot be kept refused by name;
 * mode and owner kept; an exclusive temporary file, fsync, rename). VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { userFile } from '../host/disk/userFile';
import { HOOK_TIMEOUT_SECONDS } from '../protocol/limits';
import { appendItem, appendMember, memberOf, parseJsonText, removeItem, removeMember, replaceValue } from '../host/disk/jsonText';
import { cmdQuote, psCommandLine, shQuote } from './launcher';
import { NO_WARM_FLAG, type HookAgent } from '../hooks/names';
import { isObject } from '../protocol/json';
import { parseObject } from './userJson';
import { copilotHome } from './copilotHome';
import { isOwnMcpHookHandler, MCP_HOOK_EVENTS, mcpHookHandler } from '../hooks/mcpHook';

/** How Claude Code's entries reach zut: a command per call, or an `mcp_tool` call to zut's MCP server. */
export type HookKind = 'command' | 'mcp';

/** What an `mcp_tool` entry of ours counts as among an entry's commands (commandsOf): one of our forms. */
const OWN_MCP_HOOK = 'mcp_tool:zut';

export type HookScope = 'user' | 'workspace';

/**
 * The events each agent's entry names, as that agent spells them. The permission events give zut's
 * `tool_confirmation_requested` and zot's `permission_decision` (permissions.ts); VS Code's agent has none.
 */
const INSTALLED_EVENTS: Record<HookAgent, readonly string[]> = {
  vscode: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop'],
  'copilot-cli': ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'permissionRequest', 'notification'],
  claude: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStop'],
  gemini: [], // set up through its row (agents/gemini.ts)
  opencode: [], // set up through its row (agents/opencode.ts)
  cursor: [], // set up through its row (agents/cursor.ts)
  codex: [], // set up by its row (agents/codex.ts)
  cline: [], // set up through its row (agents/cline.ts)
  qwen: [], // set up through its row (agents/qwen.ts)
};

/** Claude Code's events about one tool call: their entries match every tool (`matcher: "*"`). */
const CLAUDE_TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse', 'PermissionRequest', 'PermissionDenied']);

/**
 * Where this installation lives: the Node binary and the CLI script (absolute), or the stable launcher that runs them
 * (launcher.ts: the VS Code extension's, which survives version updates) — when given, the command runs it instead
 * (it runs dist/hook.js for `hook EVENT`); else the command runs dist/hook.js when it is beside the CLI.
 */
export interface Installation {
  node: string;
  cli: string;
  launcher?: string;
  home: string;
  workspace: string;
  platform: NodeJS.Platform;
}

/** One hook file and the entries (per event) we put in it. */
export interface InstallPlan {
  file: string;
  /** Event → our entry (the object put in the event's array). */
  entries: Record<string, Record<string, unknown>>;
  /** The file's top-level fields we set when absent (Copilot CLI's `version`). */
  top: Record<string, unknown>;
  /** Event → this installation's other commands for it (its CLI form), which count as ours too. */
  also: Record<string, string[]>;
  /** The workspace folder of a workspace-scope file: the file must not lead out of it through a link. */
  workspace?: string;
}

/** How a hook command line is quoted: POSIX sh, cmd.exe, or PowerShell (launcher.ts). */
export type HookShell = 'sh' | 'cmd' | 'powershell';

/** The script hook commands run: dist/hook.js when it is beside the CLI (or is the script itself), else the CLI. */
export function hookEntry(inst: Installation): string {
  const light = path.join(path.dirname(inst.cli), 'hook.js');
  return path.basename(inst.cli) === 'hook.js' || existsSync(light) ? light : inst.cli;
}

/** The words a hook command runs: the launcher, or Node and `script`; then `hook --agent AGENT [FLAGS] EVENT`. */
function hookWords(inst: Installation, agent: HookAgent, event: string, script: string, flags: readonly string[] = []): string[] {
  return [...(inst.launcher ? [inst.launcher] : [inst.node, script]), 'hook', '--agent', agent, ...flags, event];
}

/** The shell an agent runs a command in on `inst.platform`: PowerShell for Copilot CLI's `powershell` field, else cmd.exe on Windows. */
const shellOf = (inst: Installation, agent: HookAgent): HookShell => (inst.platform !== 'win32' ? 'sh' : agent === 'copilot-cli' ? 'powershell' : 'cmd');

/**
 * The command line of one event, in `shell`'s quoting (default: the shell the agent runs it in on `inst.platform`),
 * running `script`: nothing in it expands in that shell (a path cmd.exe cannot hold safely is refused).
 */
export function hookCommand(inst: Installation, agent: HookAgent, event: string, shell: HookShell = shellOf(inst, agent), script = hookEntry(inst), flags: readonly string[] = []): string {
  const words = hookWords(inst, agent, event, script, flags);
  if (shell === 'powershell') return psCommandLine(words);
  const q = shell === 'cmd' ? cmdQuote : shQuote;
  // The paths quoted; `hook --agent AGENT [FLAGS] EVENT` as written (plain words).
  const plain = 4 + flags.length;
  return words.map((w, i) => (i < words.length - plain ? q(w) : w)).join(' ');
}

/** The Windows forms an older zut-vscode wrote (paths always in double quotes; PowerShell's after `& `): still ours. */
function olderWindowsForms(inst: Installation, agent: HookAgent, event: string, script: string): string[] {
  const words = hookWords(inst, agent, event, script);
  const line = words.map((w, i) => (i < words.length - 4 ? `"${w}"` : w)).join(' ');
  return [line, `& ${line}`];
}

function fileOf(inst: Installation, agent: HookAgent, scope: HookScope): string {
  if (agent === 'claude') return scope === 'user' ? path.join(inst.home, '.claude', 'settings.json') : path.join(inst.workspace, '.claude', 'settings.local.json');
  // VS Code's agent reads ~/.copilot/hooks; Copilot CLI its own configuration directory ($COPILOT_HOME when set).
  const copilot = agent === 'copilot-cli' ? copilotHome(inst.home) : path.join(inst.home, '.copilot');
  return scope === 'user' ? path.join(copilot, 'hooks', 'zut.json') : path.join(inst.workspace, '.github', 'hooks', 'zut.json');
}

/** What installing for `agent` in `scope` writes. */
export function planInstall(inst: Installation, agent: HookAgent, scope: HookScope, kind: HookKind = 'command'): InstallPlan {
  const entries: Record<string, Record<string, unknown>> = {};
  const also: Record<string, string[]> = {};
  const dir = path.dirname(inst.cli);
  // This installation's other forms (its CLI or its hook entry run directly, without the launcher; on Windows, as
  // an older version quoted them) are ours too.
  const entry = hookEntry(inst);
  const scripts = [path.join(dir, 'cli.js'), path.join(dir, 'hook.js')];
  for (const event of INSTALLED_EVENTS[agent]) {
    const viaMcp = kind === 'mcp' && MCP_HOOK_EVENTS.includes(event);
    // Claude Code with its hooks through zut's MCP server: the one command left (SessionStart, which Claude Code runs
    // before any MCP client) answers by itself or through a window, and starts no warm host — nothing else would call
    // it, and its extensions would run beside the MCP server's for HOOK_HOST_IDLE_MS.
    const flags = agent === 'claude' && kind === 'mcp' && !viaMcp ? [NO_WARM_FLAG] : [];
    const command = hookCommand(inst, agent, event, undefined, entry, flags);
    const forms = scripts.map((s) => hookCommand({ ...inst, launcher: undefined }, agent, event, undefined, s));
    // Either kind's command is ours for the other (with and without --no-warm).
    if (agent === 'claude') forms.push(hookCommand(inst, agent, event, undefined, entry), ...[entry, ...scripts].map((s, i) => hookCommand(i === 0 ? inst : { ...inst, launcher: undefined }, agent, event, undefined, s, [NO_WARM_FLAG])));
    const older = inst.platform === 'win32' ? [entry, ...scripts].flatMap((s, i) => olderWindowsForms(i === 0 ? inst : { ...inst, launcher: undefined }, agent, event, s)) : [];
    also[event] = [...new Set([...forms, ...older])].filter((c) => c !== command);
    // Claude Code: our command and our mcp_tool entry are each the other's older form (either kind replaces the other).
    if (agent === 'claude') also[event].push(OWN_MCP_HOOK, command);
    if (agent === 'copilot-cli') {
      entries[event] = { type: 'command', ...(inst.platform === 'win32' ? { powershell: command } : { bash: command }), timeoutSec: HOOK_TIMEOUT_SECONDS };
    } else if (agent === 'claude') {
      // PreToolUse fails closed even when our command cannot: `"onFailure": "block"` (Claude Code 2.1.328: a hook
      // that cannot start, times out or exits other than 0 or 2 then blocks the call; test/agents/onFailure.test.mjs).
      // Only that value: Claude Code drops every hook of a settings file whose onFailure it does not know.
      // With `kind: 'mcp'` the same (onFailure on PreToolUse) as an mcp_tool call: a server not connected blocks too.
      const handler = viaMcp
        ? mcpHookHandler(agent, event, HOOK_TIMEOUT_SECONDS, event === 'PreToolUse')
        : { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS, ...(event === 'PreToolUse' && { onFailure: 'block' }) };
      entries[event] = { ...(CLAUDE_TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), hooks: [handler] };
    } else {
      entries[event] = { type: 'command', command, ...(inst.platform === 'win32' ? { windows: command } : {}), timeout: HOOK_TIMEOUT_SECONDS };
    }
  }
  return { file: fileOf(inst, agent, scope), entries, top: agent === 'copilot-cli' ? { version: 1 } : {}, also, ...(scope === 'workspace' && { workspace: inst.workspace }) };
}

/** The plan as shown to a person: the file and the exact entries. */
export function describePlan(plan: InstallPlan, verb: 'install' | 'uninstall'): string {
  const lines = [verb === 'install' ? `Merging into ${plan.file}:` : `Removing from ${plan.file}:`];
  for (const [event, entry] of Object.entries(plan.entries)) lines.push(`  hooks.${event}: ${JSON.stringify(entry)}`);
  return lines.join('\n');
}

/**
 * The plan as a person reads it in a dialog: the file, the events, the one command (its event shown as `<event>`)
 * and the timeout; `describePlan` has the exact entries.
 */
export function summarizePlan(plan: InstallPlan): string {
  const events = Object.keys(plan.entries);
  const shown = (c: string | undefined, event: string) => (c === OWN_MCP_HOOK ? "mcp_tool: zut's MCP server (zut_hook)" : c?.replace(new RegExp(`${event}$`), '<event>'));
  const commands = [...new Set(Object.entries(plan.entries).map(([event, entry]) => shown(commandsOf(entry)[0], event)))];
  return [
    `File: ${plan.file}`,
    `Events: ${events.join(', ')}`,
    `Command: ${commands.join(' | ')}`,
    `Timeout: ${HOOK_TIMEOUT_SECONDS} s`,
  ].join('\n');
}

type Json = Record<string, unknown>;

/** The commands an entry runs (ours are recognised by their exact command). */
function commandsOf(entry: unknown): string[] {
  if (!isObject(entry)) return [];
  if (isOwnMcpHookHandler(entry)) return [OWN_MCP_HOOK];
  const own = [entry.command, entry.bash, entry.powershell, entry.windows].filter((c): c is string => typeof c === 'string');
  const nested = Array.isArray(entry.hooks) ? entry.hooks.flatMap(commandsOf) : [];
  return [...own, ...nested];
}

const sameEntry = (a: unknown, b: Json, also: readonly string[] = []) => {
  const ours = new Set([...commandsOf(b), ...also]);
  const theirs = commandsOf(a);
  return theirs.length > 0 && theirs.every((c) => ours.has(c));
};

/** The plan's file, resolved by the careful writer (a workspace file must not lead out of the workspace). */
const open = (plan: InstallPlan) => userFile(plan.file, plan.workspace !== undefined ? { within: plan.workspace } : {});

/** How many of the plan's entries its file holds now (0 when there is no file, or it is not JSON we can read). */
export async function installedCount(plan: InstallPlan): Promise<number> {
  const json = await open(plan).then((f) => parseObject(f.file, f.text)).catch(() => undefined);
  if (!json || !isObject(json.hooks)) return 0;
  const hooks = json.hooks;
  return Object.entries(plan.entries).filter(([event, entry]) => Array.isArray(hooks[event]) && hooks[event].some((e) => sameEntry(e, entry, plan.also[event]))).length;
}

/**
 * Writes the plan through the careful writer (host/disk/userFile.ts): each event's array keeps its other entries; an
 * entry of ours already there is replaced in place; the rest of the file stays byte for byte (jsonText.ts).
 */
export async function applyInstall(plan: InstallPlan): Promise<void> {
  const f = await open(plan);
  const json = parseObject(f.file, f.text) ?? {};
  if (json.hooks !== undefined && !isObject(json.hooks)) throw new Error(`${plan.file}: "hooks" is not an object: left as it is`);
  for (const event of Object.keys(plan.entries)) {
    const list = isObject(json.hooks) ? json.hooks[event] : undefined;
    if (list !== undefined && !Array.isArray(list)) throw new Error(`${plan.file}: hooks.${event} is not an array: left as it is`);
  }
  let text = f.text ?? '{\n}\n'; // a new file: written on several lines
  const root = () => parseJsonText(text);
  for (const [k, v] of Object.entries(plan.top)) if (json[k] === undefined) text = appendMember(text, root(), k, v);
  for (const [event, entry] of Object.entries(plan.entries)) {
    const hooks = memberOf(root(), 'hooks');
    if (!hooks) {
      text = appendMember(text, root(), 'hooks', { [event]: [entry] });
      continue;
    }
    const list = memberOf(hooks, event);
    if (!list) {
      text = appendMember(text, hooks, event, [entry]);
      continue;
    }
    const now = (JSON.parse(text) as { hooks: Record<string, unknown[]> }).hooks[event]!;
    const at = now.findIndex((e) => sameEntry(e, entry, plan.also[event]));
    if (at < 0) text = appendItem(text, list, entry);
    else if (JSON.stringify(now[at]) !== JSON.stringify(entry)) text = replaceValue(text, list.items[at]!, entry);
  }
  if (text !== f.text) await f.write(text);
}

/**
 * Takes out exactly our entries; an event left empty loses its key, a file left with nothing of anyone's is
 * deleted (a linked file is written instead: the link and its target stay). Returns how many entries were removed.
 */
export async function applyUninstall(plan: InstallPlan): Promise<number> {
  const f = await open(plan);
  const json = parseObject(f.file, f.text);
  if (!json || !isObject(json.hooks) || f.text === undefined) return 0;
  let text = f.text;
  let removed = 0;
  for (const [event, entry] of Object.entries(plan.entries)) {
    const list = json.hooks[event];
    if (!Array.isArray(list)) continue;
    const ours = list.flatMap((e, i) => (sameEntry(e, entry, plan.also[event]) ? [i] : []));
    removed += ours.length;
    const hooks = memberOf(parseJsonText(text), 'hooks')!;
    if (ours.length > 0 && ours.length === list.length) text = removeMember(text, hooks, event);
    else for (const i of ours.reverse()) text = removeItem(text, memberOf(memberOf(parseJsonText(text), 'hooks'), event)!, i);
  }
  if (removed === 0) return 0;
  const left = JSON.parse(text) as Json;
  const ownTop = Object.keys(left).every((k) => k === 'hooks' || (k in plan.top && left[k] === plan.top[k]));
  if (ownTop && Object.keys(left.hooks as Json).length === 0 && !f.linked) await f.remove();
  else await f.write(text);
  return removed;
}
