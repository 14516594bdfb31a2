/**
 * zut's MCP server in Copilot CLI's own MCP configuration, `$COPILOT_HOME/mcp-config.json` (default
 * `~/.copilot/mcp-config.json`), which VS Code's Copilot harness (Copilot CLI's engine) reads too: the entry
 * (`{"type": "local", "command", "args", "tools": ["*"]}` under `mcpServers.zut`, the form the real harness ran in
 * test/vscode/ui/agentHost.test.mjs), whether one is there, and writing or removing ours when the user asks ("Copy MCP
 * Client Configuration…" → Copilot CLI). Changed as text through the careful writer (host/disk/jsonText.ts,
 * userFile.ts): the user's other servers and every other byte kept, owner, mode and links kept. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { memberOf, parseJsonText, removeMember } from '../host/disk/jsonText';
import { userFile } from '../host/disk/userFile';
import { MCP_SERVER_NAME } from '../hooks/names';
import { isObject } from '../protocol/json';
import { parseMcpObject } from './userJson';
import { copilotHome } from './copilotHome';
import { setMember, zutMcpWords } from './claudeMcp';
import { writeOrRemove } from './agents/cursor';
import type { SetupStep } from './agents/types';
import type { Installation } from './hookInstall';

/** What "Copy MCP Client Configuration…" does with Copilot CLI's file (its `action` argument; absent: asked). */
export const COPILOT_MCP_ACTIONS = ['write', 'remove', 'copy'] as const;
export type CopilotMcpAction = (typeof COPILOT_MCP_ACTIONS)[number];

export { COPILOT_HOME_ENV, copilotHome } from './copilotHome';

/** Copilot CLI's user MCP configuration. */
export const copilotMcpFile = (home: string, env: NodeJS.ProcessEnv = process.env): string => path.join(copilotHome(home, env), 'mcp-config.json');

/** One Copilot CLI server entry: a local (stdio) server offering all its tools. */
export interface CopilotMcpEntry {
  type: 'local';
  command: string;
  args: string[];
  tools: ['*'];
}

export const copilotMcpEntry = (command: string, args: readonly string[]): CopilotMcpEntry => ({ type: 'local', command, args: [...args], tools: ['*'] });

/** The entry we write: the stable launcher's `zut-host mcp` (else this installation's Node and CLI), every folder. */
export function copilotMcpServer(inst: Pick<Installation, 'launcher' | 'node' | 'cli'>): CopilotMcpEntry {
  const { command, args } = zutMcpWords(inst);
  return copilotMcpEntry(command, args);
}

/** The file read as a JSON object (absent: `{}`); anything else is refused by name, the file left as it is. */
async function readObject(file: string) {
  const f = await userFile(file);
  return { f, json: parseMcpObject(file, f.text) ?? {} };
}

/** Whether Copilot CLI's file names a server `zut` (a file that is not JSON, or cannot be read: no). */
export async function copilotMcpNamesZut(home: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  try {
    const { json } = await readObject(copilotMcpFile(home, env));
    return isObject(json.mcpServers) && isObject(json.mcpServers[MCP_SERVER_NAME]);
  } catch {
    return false;
  }
}

/** Writes our server under `mcpServers.zut` (replacing an entry of that name; others kept); returns what changed. */
export async function applyCopilotMcp(inst: Installation, env: NodeJS.ProcessEnv = process.env): Promise<SetupStep[]> {
  const file = copilotMcpFile(inst.home, env);
  const { f } = await readObject(file);
  const entry = copilotMcpServer(inst);
  const text = setMember(f.text ?? '{\n}\n', ['mcpServers'], MCP_SERVER_NAME, entry);
  if (text === f.text) return [];
  await f.write(text);
  return [{ file, changes: [`mcpServers.${MCP_SERVER_NAME}: ${JSON.stringify(entry)}`] }];
}

/** Takes `mcpServers.zut` out (the file removed when nothing of the user's is left in it); returns what changed. */
export async function removeCopilotMcp(home: string, env: NodeJS.ProcessEnv = process.env): Promise<SetupStep[]> {
  const file = copilotMcpFile(home, env);
  if (!existsSync(file)) return [];
  const { f, json } = await readObject(file);
  if (!isObject(json.mcpServers) || !isObject(json.mcpServers[MCP_SERVER_NAME]) || f.text === undefined) return [];
  await writeOrRemove(f, removeMember(f.text, memberOf(parseJsonText(f.text), 'mcpServers')!, MCP_SERVER_NAME), { mcpServers: {} });
  return [{ file, changes: [`mcpServers.${MCP_SERVER_NAME} removed`] }];
}
