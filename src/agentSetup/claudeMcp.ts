/**
 * zut's MCP server in Claude Code's own MCP configuration, for its `mcp_tool` hooks (hookInstall.ts): where Claude
 * Code reads a server named `zut` (names.ts MCP_SERVER_NAME) — the workspace's `.mcp.json` (project scope; approved
 * for this user by `enabledMcpjsonServers` in `.claude/settings.local.json`), `~/.claude.json`'s `mcpServers` (user
 * scope) and its `projects.<folder>.mcpServers` (local scope) — whether one is there, and writing ours when the user
 * asks (`zut-host hook install --agent claude --with-mcp`, "Guard Agent Tools…"). Files are changed as text through
 * the careful writer (host/disk/jsonText.ts, userFile.ts): every other byte kept. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { appendItem, appendMember, memberOf, parseJsonText, replaceValue } from '../host/disk/jsonText';
import { userFile } from '../host/disk/userFile';
import { isOwnMcpHookHandler } from '../hooks/mcpHook';
import { MCP_SERVER_NAME } from '../hooks/names';
import { isObject } from '../protocol/json';
import type { HookScope, Installation } from './hookInstall';

/** Where Claude Code's files are for an installation: the user's home and the workspace folder. */
type Where = Pick<Installation, 'home' | 'workspace'>;

/** The file a scope's server goes in: the workspace's `.mcp.json`, or `~/.claude.json`. */
export function claudeMcpFile(inst: Where, scope: HookScope): string {
  return scope === 'workspace' ? path.join(inst.workspace, '.mcp.json') : path.join(inst.home, '.claude.json');
}

/** `zut-host mcp` and `args` as a server's command line: the launcher, else this installation's Node and CLI. */
export function zutMcpWords(inst: Pick<Installation, 'launcher' | 'node' | 'cli'>, args: readonly string[] = []): { command: string; args: string[] } {
  const cli = existsSync(path.join(path.dirname(inst.cli), 'cli.js')) ? path.join(path.dirname(inst.cli), 'cli.js') : inst.cli;
  const words = [...(inst.launcher ? [inst.launcher] : [inst.node, cli]), 'mcp', ...args];
  return { command: words[0]!, args: words.slice(1) };
}

/** The server entry that runs `zut-host mcp` (`--cwd` for a workspace). */
export function claudeMcpServer(inst: Installation, scope: HookScope): { type: 'stdio'; command: string; args: string[] } {
  return { type: 'stdio', ...zutMcpWords(inst, scope === 'workspace' ? ['--cwd', inst.workspace] : []) };
}

const readJson = async (file: string): Promise<Record<string, unknown> | undefined> => {
  try {
    const f = await userFile(file);
    const j: unknown = f.text === undefined ? undefined : JSON.parse(f.text);
    return isObject(j) ? j : undefined;
  } catch {
    return undefined;
  }
};

const hasZut = (servers: unknown) => isObject(servers) && isObject(servers[MCP_SERVER_NAME]);

/**
 * Where Claude Code would find a server named `zut` for hooks of `scope` (undefined: nowhere). A user-scope hook runs
 * in every project: only a user-scope server serves it everywhere.
 */
export async function findClaudeMcp(inst: Where, scope: HookScope): Promise<string | undefined> {
  const user = await readJson(claudeMcpFile(inst, 'user'));
  if (hasZut(user?.mcpServers)) return `${claudeMcpFile(inst, 'user')} (mcpServers.${MCP_SERVER_NAME})`;
  if (scope === 'user') return undefined;
  const projects: Record<string, unknown> = isObject(user?.projects) ? user.projects : {};
  const local = projects[inst.workspace];
  if (hasZut(isObject(local) ? local.mcpServers : undefined)) return `${claudeMcpFile(inst, 'user')} (projects, local scope)`;
  const project = await readJson(claudeMcpFile(inst, 'workspace'));
  return hasZut(project?.mcpServers) ? `${claudeMcpFile(inst, 'workspace')} (mcpServers.${MCP_SERVER_NAME})` : undefined;
}

/** Sets `key` of the object at `at` (a path of keys from the root, made when absent) to `value`, as text. */
export function setMember(text: string, at: readonly string[], key: string, value: unknown): string {
  let node = parseJsonText(text);
  for (const [i, k] of at.entries()) {
    const next = memberOf(node, k);
    if (!next) return appendMember(text, node, k, at.slice(i + 1).reduceRight<unknown>((v, kk) => ({ [kk]: v }), { [key]: value }));
    node = next;
  }
  const old = memberOf(node, key);
  return old ? replaceValue(text, old, value) : appendMember(text, node, key, value);
}

/** Writes our server into the scope's file (replacing an entry named `zut`); returns the file. */
export async function applyClaudeMcp(inst: Installation, scope: HookScope): Promise<string> {
  const file = claudeMcpFile(inst, scope);
  const f = await userFile(file, scope === 'workspace' ? { within: inst.workspace } : {});
  const json: unknown = f.text === undefined ? {} : JSON.parse(f.text);
  if (!isObject(json)) throw new Error(`${file} is not a JSON object: left as it is`);
  if (json.mcpServers !== undefined && !isObject(json.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object: left as it is`);
  const text = setMember(f.text ?? '{\n}\n', ['mcpServers'], MCP_SERVER_NAME, claudeMcpServer(inst, scope));
  if (text !== f.text) await f.write(text);
  if (scope === 'workspace') await approveProjectServer(inst);
  return file;
}

/** `.mcp.json`'s `zut` approved for this user: `enabledMcpjsonServers` in `.claude/settings.local.json` names it. */
async function approveProjectServer(inst: Installation): Promise<void> {
  const f = await userFile(path.join(inst.workspace, '.claude', 'settings.local.json'), { within: inst.workspace });
  const json: unknown = f.text === undefined ? {} : JSON.parse(f.text);
  if (!isObject(json)) throw new Error(`${f.file} is not a JSON object: left as it is`);
  const list = json.enabledMcpjsonServers;
  if (Array.isArray(list) && list.includes(MCP_SERVER_NAME)) return;
  const text = f.text ?? '{\n}\n';
  const root = parseJsonText(text);
  const node = memberOf(root, 'enabledMcpjsonServers');
  await f.write(Array.isArray(list) && node ? appendItem(text, node, MCP_SERVER_NAME) : setMember(text, [], 'enabledMcpjsonServers', [MCP_SERVER_NAME]));
}

/** Claude Code's settings files whose hooks run for `scope` (user: every project; workspace: this folder's). */
function claudeSettingsFiles(inst: Where, scope: HookScope): string[] {
  if (scope === 'user') return [path.join(inst.home, '.claude', 'settings.json')];
  return ['settings.json', 'settings.local.json'].map((f) => path.join(inst.workspace, '.claude', f));
}

/** Whether the settings object's `hooks` hold one of our mcp_tool entries (an event → groups → hooks). */
function hasOwnMcpHooks(settings: Record<string, unknown> | undefined): boolean {
  const hooks = settings?.hooks;
  if (!isObject(hooks)) return false;
  return Object.values(hooks).some((groups) => Array.isArray(groups) && groups.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isOwnMcpHookHandler)));
}

/**
 * What `zut-host doctor` says about Claude Code's mcp_tool hooks for this folder: each settings file holding ours while
 * no server named `zut` is configured where Claude Code would find it for that scope — every tool call is then
 * blocked ("[zut/zut_hook]: failed; blocking because onFailure is "block"…"), with the fix named. Empty: none.
 */
export async function claudeMcpHookGaps(inst: Where): Promise<string[]> {
  const gaps: string[] = [];
  for (const scope of ['user', 'workspace'] as const) {
    for (const file of claudeSettingsFiles(inst, scope)) {
      if (!hasOwnMcpHooks(await readJson(file))) continue;
      if (await findClaudeMcp(inst, scope)) continue;
      gaps.push(
        `Claude Code: ${file} has zut's mcp_tool hooks, but no MCP server named ${MCP_SERVER_NAME} is configured for ${scope === 'user' ? 'every project' : inst.workspace}: ` +
          `Claude Code blocks every tool call. Fix: zut-host hook install --agent claude --scope ${scope} --with-mcp (the server), or --command-hooks (a command per call), or zut-host hook uninstall --agent claude --scope ${scope}`,
      );
    }
  }
  return gaps;
}
