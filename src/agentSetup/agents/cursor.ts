/**
 * Cursor's set-up row (types.ts), from Cursor's hooks and MCP documentation (documented only: Cursor does not run
 * here). Hooks: `~/.cursor/hooks.json` (user) or `.cursor/hooks.json` (workspace), `{version: 1, hooks: {<event>:
 * [{command, timeout (s), failClosed?}]}}`: sessionStart, beforeSubmitPrompt, preToolUse (every tool; `failClosed:
 * true`, so a hook that cannot start, crashes or times out blocks the call — Cursor's default is to let it run),
 * postToolUse, stop, each running `zut-host hook --agent cursor <event>` (hookInstall.ts hookCommand: the launcher or
 * Node and dist/hook.js, quoted for sh or cmd.exe). Other entries are kept; uninstall takes out exactly the entries
 * whose command is ours. MCP: `mcpServers.zut` `{command, args}` in `~/.cursor/mcp.json` or `.cursor/mcp.json`.
 * Cursor documents no trust gate for hooks files, so installed counts as run. VS Code-free.
 */
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import * as path from 'node:path';
import { userFile, type UserFile } from '../../host/disk/userFile';
import { appendItem, memberOf, parseJsonText, removeItem, removeMember } from '../../host/disk/jsonText';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import { parseObject } from '../userJson';
import { HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';
import { claudeMcpServer, setMember } from '../claudeMcp';
import { hookCommand, hookEntry, type HookScope, type Installation } from '../hookInstall';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

/** The events we install, as Cursor spells them. */
export const CURSOR_EVENTS = ['sessionStart', 'beforeSubmitPrompt', 'preToolUse', 'postToolUse', 'stop'] as const;

const dir = (inst: Installation, scope: HookScope) => path.join(scope === 'user' ? inst.home : inst.workspace, '.cursor');
export const cursorHooksFile = (inst: Installation, scope: HookScope): string => path.join(dir(inst, scope), 'hooks.json');
export const cursorMcpFile = (inst: Installation, scope: HookScope): string => path.join(dir(inst, scope), 'mcp.json');
const within = (inst: Installation, scope: HookScope) => (scope === 'workspace' ? { within: inst.workspace } : {});

/** Our entry for `event`. */
export function cursorEntry(inst: Installation, event: string): Record<string, unknown> {
  return { command: hookCommand(inst, 'cursor', event), timeout: HOOK_TIMEOUT_SECONDS, ...(event === 'preToolUse' && { failClosed: true }) };
}

/** Every command line of this installation for `event` (the launcher's, and Node with dist/hook.js or dist/cli.js). */
function ownCommands(inst: Installation, event: string): Set<string> {
  const scripts = [hookEntry(inst), path.join(path.dirname(inst.cli), 'cli.js'), path.join(path.dirname(inst.cli), 'hook.js')];
  return new Set([hookCommand(inst, 'cursor', event), ...scripts.map((s) => hookCommand({ ...inst, launcher: undefined }, 'cursor', event, undefined, s))]);
}

async function readJson(file: string, o: { within?: string }) {
  const f = await userFile(file, o);
  return { f, json: parseObject(file, f.text) ?? {} };
}

/** Writes what is left, or deletes the file when that is only what an install writes into a new file (nothing of the user's). */
export async function writeOrRemove(f: UserFile, text: string, skeleton: unknown): Promise<void> {
  if (!f.linked && isDeepStrictEqual(JSON.parse(text), skeleton)) await f.remove();
  else await f.write(text);
}

async function installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = cursorHooksFile(inst, scope);
  const { f, json } = await readJson(file, within(inst, scope));
  if (json.hooks !== undefined && !isObject(json.hooks)) throw new Error(`${file}: "hooks" is not an object: left as it is`);
  let text = f.text ?? '{\n}\n';
  const changes: string[] = [];
  if (json.version === undefined) text = setMember(text, [], 'version', 1);
  for (const event of CURSOR_EVENTS) {
    const entry = cursorEntry(inst, event);
    const list = isObject(json.hooks) ? json.hooks[event] : undefined;
    if (list !== undefined && !Array.isArray(list)) throw new Error(`${file}: hooks.${event} is not an array: left as it is`);
    const own = ownCommands(inst, event);
    const at = (list ?? []).findIndex((e) => isObject(e) && typeof e.command === 'string' && own.has(e.command));
    const node = memberOf(memberOf(parseJsonText(text), 'hooks'), event);
    if (at >= 0 && JSON.stringify(list![at]) === JSON.stringify(entry)) continue;
    if (at >= 0 && node) text = removeItem(text, node, at);
    const now = memberOf(memberOf(parseJsonText(text), 'hooks'), event);
    text = now ? appendItem(text, now, entry) : setMember(text, ['hooks'], event, [entry]);
    changes.push(`hooks.${event}: ${JSON.stringify(entry)}`);
  }
  if (text === f.text) return [];
  await f.write(text);
  return [{ file, changes: json.version === undefined ? ['version: 1', ...changes] : changes }];
}

async function uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = cursorHooksFile(inst, scope);
  if (!existsSync(file)) return [];
  const { f, json } = await readJson(file, within(inst, scope));
  if (!isObject(json.hooks) || f.text === undefined) return [];
  let text = f.text;
  const changes: string[] = [];
  for (const [event, list] of Object.entries(json.hooks)) {
    if (!Array.isArray(list)) continue;
    const own = ownCommands(inst, event);
    // From the last, so the indexes of those before stay.
    for (let i = list.length - 1; i >= 0; i--) {
      const e: unknown = list[i];
      if (!isObject(e) || typeof e.command !== 'string' || !own.has(e.command)) continue;
      text = removeItem(text, memberOf(memberOf(parseJsonText(text), 'hooks'), event)!, i);
      changes.push(`hooks.${event}: ${e.command} removed`);
    }
    // An event left with no entries (all were ours) goes too.
    const left = memberOf(memberOf(parseJsonText(text), 'hooks'), event);
    if (left && left.items.length === 0) text = removeMember(text, memberOf(parseJsonText(text), 'hooks')!, event);
  }
  if (changes.length === 0) return [];
  await writeOrRemove(f, text, { version: 1, hooks: {} });
  return [{ file, changes }];
}

/** Cursor's MCP server entry for zut (the command Claude Code's runs). */
export function cursorMcpServer(inst: Installation, scope: HookScope): { command: string; args: string[] } {
  const { command, args } = claudeMcpServer(inst, scope);
  return { command, args };
}

async function installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = cursorMcpFile(inst, scope);
  const { f, json } = await readJson(file, within(inst, scope));
  if (json.mcpServers !== undefined && !isObject(json.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object: left as it is`);
  const text = setMember(f.text ?? '{\n}\n', ['mcpServers'], MCP_SERVER_NAME, cursorMcpServer(inst, scope));
  if (text === f.text) return [];
  await f.write(text);
  return [{ file, changes: [`mcpServers.${MCP_SERVER_NAME}: ${JSON.stringify(cursorMcpServer(inst, scope))}`] }];
}

async function uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = cursorMcpFile(inst, scope);
  if (!existsSync(file)) return [];
  const { f, json } = await readJson(file, within(inst, scope));
  if (!isObject(json.mcpServers) || !isObject(json.mcpServers[MCP_SERVER_NAME]) || f.text === undefined) return [];
  await writeOrRemove(f, removeMember(f.text, memberOf(parseJsonText(f.text), 'mcpServers')!, MCP_SERVER_NAME), { mcpServers: {} });
  return [{ file, changes: [`mcpServers.${MCP_SERVER_NAME} removed`] }];
}

async function check(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const problems: string[] = [];
  let hooksInstalled = false;
  let mcpInstalled = false;
  try {
    const { json } = await readJson(cursorHooksFile(inst, scope), within(inst, scope));
    const hooks = isObject(json.hooks) ? json.hooks : {};
    const ours = (event: string) => {
      const list = hooks[event];
      return Array.isArray(list) ? list.find((e) => isObject(e) && typeof e.command === 'string' && ownCommands(inst, event).has(e.command)) : undefined;
    };
    hooksInstalled = CURSOR_EVENTS.some((e) => ours(e) !== undefined);
    const pre: unknown = ours('preToolUse');
    if (hooksInstalled && !(isObject(pre) && pre.failClosed === true)) problems.push(`${cursorHooksFile(inst, scope)}: zut's preToolUse is missing or not failClosed, so a hook that fails lets the call run (zut-host hook install --agent cursor --scope ${scope})`);
    if (hooksInstalled && json.version !== 1) problems.push(`${cursorHooksFile(inst, scope)}: version is ${JSON.stringify(json.version)}, not 1: Cursor may not read it`);
    const mcp = await readJson(cursorMcpFile(inst, scope), within(inst, scope));
    mcpInstalled = isObject(mcp.json.mcpServers) && isObject(mcp.json.mcpServers[MCP_SERVER_NAME]);
  } catch (e) {
    problems.push((e as Error).message);
  }
  return { agent: 'cursor', found: existsSync(path.join(inst.home, '.cursor')), hooksInstalled, mcpInstalled, ...(hooksInstalled && { hooksRun: true }), problems };
}

export const CURSOR_ROW: AgentSetupRow = {
  agent: 'cursor',
  label: 'Cursor',
  scopes: ['user', 'workspace'],
  found: (inst) => existsSync(path.join(inst.home, '.cursor')),
  installHooks,
  uninstallHooks,
  installMcp,
  uninstallMcp,
  check,
};
