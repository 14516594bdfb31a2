/**
 * opencode's set-up row (types.ts). Hooks: zut's plugin file (opencodePlugin.ts) as `plugins/zut-guard.js` in
 * opencode's global folder (`$XDG_CONFIG_HOME/opencode`, default `~/.config/opencode`) or the project's `.opencode`
 * — opencode loads every plugins/*.js of both at start, with no trust gate (a project's plugin runs as soon as
 * opencode starts there), so installed means run; check reports a file of ours that is not this installation's
 * current text (another version, another command) or whose command is gone. MCP: `mcp.zut` `{type: "local",
 * command: [argv…], enabled: true}` in `opencode.json` (global folder or project root); an `opencode.jsonc` with
 * comments is left as it is, named. Written through the careful writer. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { userFile } from '../../host/disk/userFile';
import { memberOf, parseJsonText, removeMember } from '../../host/disk/jsonText';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import { claudeMcpServer, setMember } from '../claudeMcp';
import { hookEntry, type HookScope, type Installation } from '../hookInstall';
import { writeOrRemove } from './cursor';
import { OPENCODE_PLUGIN_MARK, opencodePluginText } from './opencodePlugin';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

/** opencode's global configuration folder. */
const globalDir = (inst: Installation): string => path.join(process.env.XDG_CONFIG_HOME || path.join(inst.home, '.config'), 'opencode');

/** The folder whose `plugins/` opencode loads for `scope`. */
const pluginDir = (inst: Installation, scope: HookScope): string => (scope === 'user' ? globalDir(inst) : path.join(inst.workspace, '.opencode'));

export const pluginFile = (inst: Installation, scope: HookScope): string => path.join(pluginDir(inst, scope), 'plugins', 'zut-guard.js');
export const opencodeConfigFile = (inst: Installation, scope: HookScope): string => path.join(scope === 'user' ? globalDir(inst) : inst.workspace, 'opencode.json');

/** What the plugin runs: the launcher, else this installation's Node and light hook entry. */
export const pluginCommand = (inst: Installation): string[] => (inst.launcher ? [inst.launcher] : [inst.node, hookEntry(inst)]);

const within = (inst: Installation, scope: HookScope) => (scope === 'workspace' ? { within: inst.workspace } : {});

async function installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = pluginFile(inst, scope);
  const f = await userFile(file, within(inst, scope));
  if (f.text !== undefined && !f.text.startsWith(OPENCODE_PLUGIN_MARK)) throw new Error(`${file} is not zut's plugin: left as it is`);
  const text = opencodePluginText(pluginCommand(inst));
  if (f.text === text) return [];
  await f.write(text);
  return [{ file, changes: [`zut's plugin (tool.execute.before/after, system prompt), running ${pluginCommand(inst).join(' ')}`] }];
}

async function uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = pluginFile(inst, scope);
  const f = await userFile(file, within(inst, scope));
  if (f.text === undefined || !f.text.startsWith(OPENCODE_PLUGIN_MARK)) return [];
  await f.remove();
  return [{ file, changes: ["zut's plugin removed"] }];
}

/** opencode's local MCP server entry for zut: the same command as Claude Code's, as one argv. */
export function opencodeMcpServer(inst: Installation, scope: HookScope): { type: 'local'; command: string[]; enabled: true } {
  const s = claudeMcpServer(inst, scope);
  return { type: 'local', command: [s.command, ...s.args], enabled: true };
}

/** The configuration's JSON (a new one: `{}`), refusing anything we would have to rewrite to change. */
async function configOf(inst: Installation, scope: HookScope) {
  const file = opencodeConfigFile(inst, scope);
  const f = await userFile(file, within(inst, scope));
  let json: unknown = {};
  try {
    if (f.text !== undefined) json = JSON.parse(f.text);
  } catch (e) {
    throw new Error(`${file} is not strict JSON (${(e as Error).message}): left as it is`);
  }
  if (!isObject(json)) throw new Error(`${file} is not a JSON object: left as it is`);
  if (json.mcp !== undefined && !isObject(json.mcp)) throw new Error(`${file}: "mcp" is not an object: left as it is`);
  return { file, f, json };
}

async function installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const { file, f } = await configOf(inst, scope);
  const text = setMember(f.text ?? '{\n  "$schema": "https://opencode.ai/config.json"\n}\n', ['mcp'], MCP_SERVER_NAME, opencodeMcpServer(inst, scope));
  if (text === f.text) return [];
  await f.write(text);
  return [{ file, changes: [`mcp.${MCP_SERVER_NAME}: ${JSON.stringify(opencodeMcpServer(inst, scope))}`] }];
}

async function uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = opencodeConfigFile(inst, scope);
  if (!existsSync(file)) return [];
  const { f, json } = await configOf(inst, scope);
  if (!isObject(json.mcp) || !isObject(json.mcp[MCP_SERVER_NAME]) || f.text === undefined) return [];
  const mcp = memberOf(parseJsonText(f.text), 'mcp');
  if (!mcp) return [];
  await writeOrRemove(f, removeMember(f.text, mcp, MCP_SERVER_NAME), { $schema: 'https://opencode.ai/config.json', mcp: {} });
  return [{ file, changes: [`mcp.${MCP_SERVER_NAME} removed`] }];
}

/** The command of a plugin file of ours (its `const COMMAND = [...]` line), if it can be read. */
function commandOf(text: string): string[] | undefined {
  const m = /^const COMMAND = (\[.*\]);$/m.exec(text);
  try {
    const c: unknown = m ? JSON.parse(m[1]!) : undefined;
    return Array.isArray(c) && c.every((w) => typeof w === 'string') ? (c as string[]) : undefined;
  } catch {
    return undefined;
  }
}

async function check(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const problems: string[] = [];
  const file = pluginFile(inst, scope);
  const text = (await userFile(file, within(inst, scope)).catch(() => undefined))?.text;
  const hooksInstalled = text !== undefined && text.startsWith(OPENCODE_PLUGIN_MARK);
  if (hooksInstalled) {
    const command = commandOf(text);
    if (!command || command.slice(0, 2).some((w) => path.isAbsolute(w) && !existsSync(w))) {
      problems.push(`${file} runs ${command?.join(' ') ?? 'a command that cannot be read'}, which is gone: every tool call is blocked (run zut-host hook install --agent opencode --scope ${scope})`);
    } else if (text !== opencodePluginText(pluginCommand(inst))) {
      problems.push(`${file} is another version's or installation's plugin: reinstall (zut-host hook install --agent opencode --scope ${scope})`);
    }
  }
  let mcpInstalled = false;
  try {
    const { json } = await configOf(inst, scope);
    mcpInstalled = isObject(json.mcp) && isObject(json.mcp[MCP_SERVER_NAME]);
  } catch (e) {
    problems.push((e as Error).message);
  }
  const onPath = (process.env.PATH ?? '').split(path.delimiter).some((d) => d && existsSync(path.join(d, inst.platform === 'win32' ? 'opencode.exe' : 'opencode')));
  return { agent: 'opencode', found: onPath || existsSync(globalDir(inst)), hooksInstalled, mcpInstalled, ...(hooksInstalled && { hooksRun: true }), problems };
}

export const OPENCODE_ROW: AgentSetupRow = {
  agent: 'opencode',
  label: 'opencode',
  scopes: ['user', 'workspace'],
  found: (inst) => existsSync(globalDir(inst)),
  installHooks,
  uninstallHooks,
  installMcp,
  uninstallMcp,
  check,
};
