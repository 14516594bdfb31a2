/**
 * zut's entries in Gemini CLI's settings.json (`~/.gemini/settings.json`, user; `<workspace>/.gemini/settings.json`,
 * workspace): the hook entries `hooks.<Event>: [{matcher, hooks: [{type: "command", name: "zut", command, timeout}]}]`
 * (timeout in MILLISECONDS: Gemini CLI 0.61.0's hookRunner, default 60 000) for SessionStart, BeforeAgent,
 * BeforeTool, AfterTool and AfterAgent, and the MCP server `mcpServers.zut: {command, args}`. Ours are recognised by
 * their exact command (this installation's, with or without the launcher, light entry or CLI); the rest of the file
 * stays byte for byte (host/disk/jsonText.ts) and is written through the careful writer (host/disk/userFile.ts).
 *
 * Fails closed: Gemini CLI lets a tool run when its hook exits 1, times out or dies before writing anything
 * (`exitCode || 0`: a killed process reads as success). zut answers its own failures with a deny on stdout
 * (hooks/failure.ts), and the BeforeTool command is wrapped so that any other exit — node killed, out of memory,
 * not found — becomes exit 2 with the reason on stderr, which Gemini CLI reads as `decision: "deny"`
 * (test/agents/gemini.test.mjs kills the hook process). Only BeforeTool: exit 2 on the other events would block a
 * prompt or hide a result for a failure of ours. VS Code-free.
 */
import * as path from 'node:path';
import { appendItem, appendMember, memberOf, parseJsonText, removeItem, removeMember, replaceValue } from '../../host/disk/jsonText';
import { HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';
import { isObject } from '../../protocol/json';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { hookCommand, hookEntry, type HookScope, type HookShell, type Installation } from '../hookInstall';
import { claudeMcpServer } from '../claudeMcp';

/** Gemini CLI's events we install, as it spells them. */
export const GEMINI_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'] as const;
/** The events about one tool call: their entries match every tool (`matcher: "*"`). */
const TOOL_EVENTS: ReadonlySet<string> = new Set(['BeforeTool', 'AfterTool']);
/** The `name` of our hook entries (Gemini CLI's `/hooks` lists it; `hooksConfig.disabled` names it). */
export const GEMINI_HOOK_NAME = 'zut';
/** Gemini CLI's hook `timeout` is in milliseconds: ours, HOOK_TIMEOUT_SECONDS, as such. */
export const GEMINI_HOOK_TIMEOUT_MS = HOOK_TIMEOUT_SECONDS * 1000;
/** The exit code Gemini CLI reads as a deny when stdout holds no JSON (its hookRunner: other than 0 and 1). */
const geminiDenyExit = 2;

type Json = Record<string, unknown>;

/** The settings file of `scope`. */
export function geminiSettingsFile(inst: Pick<Installation, 'home' | 'workspace'>, scope: HookScope): string {
  return scope === 'user' ? path.join(inst.home, '.gemini', 'settings.json') : path.join(inst.workspace, '.gemini', 'settings.json');
}

/** The shell Gemini CLI runs a hook command in: `bash -c` (POSIX), PowerShell on Windows (its getShellConfiguration). */
const shellOf = (inst: Installation): HookShell => (inst.platform === 'win32' ? 'powershell' : 'sh');

/** BeforeTool's command: any exit but 0 becomes a deny (exit 2, the reason on stderr). */
export function failClosed(command: string, shell: HookShell): string {
  const why = 'zut-host hook ended without answering: the tool call is denied (fail closed)';
  if (shell === 'powershell') return `${command}; if ($LASTEXITCODE -ne 0) { [Console]::Error.WriteLine('${why}'); exit ${geminiDenyExit} }`;
  return `${command} || { s=$?; echo "${why}, exit $s" >&2; exit ${geminiDenyExit}; }`;
}

/** The command of `event` running `script` (the launcher when `inst` has one). */
function commandOf(inst: Installation, event: string, script: string): string {
  const c = hookCommand(inst, 'gemini', event, shellOf(inst), script);
  return event === 'BeforeTool' ? failClosed(c, shellOf(inst)) : c;
}

/** Our entry of `event`, and every command of this installation that counts as ours for it. */
export function geminiEntry(inst: Installation, event: string): { entry: Json; ours: ReadonlySet<string> } {
  const command = commandOf(inst, event, hookEntry(inst));
  const dir = path.dirname(inst.cli);
  const bare = { ...inst, launcher: undefined };
  const ours = new Set([command, ...['cli.js', 'hook.js'].map((s) => commandOf(bare, event, path.join(dir, s)))]);
  const handler = { type: 'command', name: GEMINI_HOOK_NAME, command, timeout: GEMINI_HOOK_TIMEOUT_MS };
  return { entry: { ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), hooks: [handler] }, ours };
}

/** Whether an entry of `hooks.<Event>` is ours: it runs commands, all of them ours. */
export function isOurEntry(e: unknown, ours: ReadonlySet<string>): boolean {
  if (!isObject(e) || !Array.isArray(e.hooks) || e.hooks.length === 0) return false;
  return e.hooks.every((h) => isObject(h) && typeof h.command === 'string' && ours.has(h.command));
}

/** The settings text parsed (undefined text: a new file); anything but a JSON object is refused, the file left as it is. */
export function parseSettings(file: string, text: string | undefined): Json {
  if (text === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not strict JSON (${(e as Error).message}; comments are not edited): left as it is`);
  }
  if (!isObject(json)) throw new Error(`${file} is not a JSON object: left as it is`);
  return json;
}

/** `text` with our hook entries in (ours already there replaced in place, the user's kept); the changes made. */
export function withHooks(file: string, text: string | undefined, inst: Installation): { text: string; changes: string[] } {
  const json = parseSettings(file, text);
  if (json.hooks !== undefined && !isObject(json.hooks)) throw new Error(`${file}: "hooks" is not an object: left as it is`);
  let out = text ?? '{\n}\n';
  const changes: string[] = [];
  for (const event of GEMINI_EVENTS) {
    const { entry, ours } = geminiEntry(inst, event);
    const hooks = memberOf(parseJsonText(out), 'hooks');
    if (!hooks) {
      out = appendMember(out, parseJsonText(out), 'hooks', { [event]: [entry] });
      changes.push(`hooks.${event}: ${JSON.stringify(entry)}`);
      continue;
    }
    const list = memberOf(hooks, event);
    if (!list) {
      out = appendMember(out, hooks, event, [entry]);
      changes.push(`hooks.${event}: ${JSON.stringify(entry)}`);
      continue;
    }
    const now = (JSON.parse(out) as { hooks: Record<string, unknown> }).hooks[event];
    if (!Array.isArray(now)) throw new Error(`${file}: hooks.${event} is not an array: left as it is`);
    const at = now.findIndex((e) => isOurEntry(e, ours));
    if (at < 0) out = appendItem(out, list, entry);
    else if (JSON.stringify(now[at]) !== JSON.stringify(entry)) out = replaceValue(out, list.items[at]!, entry);
    else continue;
    changes.push(`hooks.${event}: ${JSON.stringify(entry)}`);
  }
  return { text: out, changes };
}

/** `text` without our hook entries (an event left empty loses its key, an empty `hooks` too); the changes made. */
export function withoutHooks(file: string, text: string | undefined, inst: Installation): { text: string | undefined; changes: string[] } {
  if (text === undefined) return { text, changes: [] };
  const json = parseSettings(file, text);
  if (!isObject(json.hooks)) return { text, changes: [] };
  let out = text;
  const changes: string[] = [];
  for (const event of GEMINI_EVENTS) {
    const { ours } = geminiEntry(inst, event);
    const list = (JSON.parse(out) as { hooks: Record<string, unknown> }).hooks[event];
    if (!Array.isArray(list)) continue;
    const mine = list.flatMap((e, i) => (isOurEntry(e, ours) ? [i] : []));
    if (mine.length === 0) continue;
    const hooks = () => memberOf(parseJsonText(out), 'hooks')!;
    if (mine.length === list.length) out = removeMember(out, hooks(), event);
    else for (const i of mine.reverse()) out = removeItem(out, memberOf(hooks(), event)!, i);
    changes.push(`hooks.${event}: ${mine.length} entr${mine.length === 1 ? 'y' : 'ies'} of zut's removed`);
  }
  const left = JSON.parse(out) as Json;
  if (changes.length > 0 && isObject(left.hooks) && Object.keys(left.hooks).length === 0) out = removeMember(out, parseJsonText(out), 'hooks');
  return { text: out, changes };
}

/** Our MCP server entry (Gemini CLI's stdio form: `command`, `args`). */
export function geminiMcpServer(inst: Installation, scope: HookScope): { command: string; args: string[] } {
  const { command, args } = claudeMcpServer(inst, scope);
  return { command, args };
}

/** Whether `mcpServers.zut` is one this installation wrote (either scope's form). */
export function isOurMcpServer(v: unknown, inst: Installation): boolean {
  if (!isObject(v)) return false;
  const same = (s: { command: string; args: string[] }) => v.command === s.command && JSON.stringify(v.args) === JSON.stringify(s.args);
  return (['user', 'workspace'] as const).some((scope) => same(geminiMcpServer(inst, scope)) || same(geminiMcpServer({ ...inst, launcher: undefined }, scope)));
}

/** `text` with `mcpServers.zut` set to ours; the changes made. */
export function withMcp(file: string, text: string | undefined, inst: Installation, scope: HookScope): { text: string; changes: string[] } {
  const json = parseSettings(file, text);
  if (json.mcpServers !== undefined && !isObject(json.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object: left as it is`);
  const server = geminiMcpServer(inst, scope);
  let out = text ?? '{\n}\n';
  const servers = memberOf(parseJsonText(out), 'mcpServers');
  const old = servers ? memberOf(servers, MCP_SERVER_NAME) : undefined;
  if (!servers) out = appendMember(out, parseJsonText(out), 'mcpServers', { [MCP_SERVER_NAME]: server });
  else if (!old) out = appendMember(out, servers, MCP_SERVER_NAME, server);
  else if (JSON.stringify((json.mcpServers as Json)[MCP_SERVER_NAME]) !== JSON.stringify(server)) out = replaceValue(out, old, server);
  else return { text: out, changes: [] };
  return { text: out, changes: [`mcpServers.${MCP_SERVER_NAME}: ${JSON.stringify(server)}`] };
}

/** `text` without `mcpServers.zut` when it is ours (another server named so is left, and said). */
export function withoutMcp(file: string, text: string | undefined, inst: Installation): { text: string | undefined; changes: string[] } {
  if (text === undefined) return { text, changes: [] };
  const json = parseSettings(file, text);
  const servers = isObject(json.mcpServers) ? json.mcpServers : undefined;
  if (!servers || !Object.prototype.hasOwnProperty.call(servers, MCP_SERVER_NAME)) return { text, changes: [] };
  if (!isOurMcpServer(servers[MCP_SERVER_NAME], inst)) return { text, changes: [`mcpServers.${MCP_SERVER_NAME} is not this installation's: left as it is`] };
  let out = removeMember(text, memberOf(parseJsonText(text), 'mcpServers')!, MCP_SERVER_NAME);
  if (Object.keys(servers).length === 1) out = removeMember(out, parseJsonText(out), 'mcpServers');
  return { text: out, changes: [`mcpServers.${MCP_SERVER_NAME} removed`] };
}
