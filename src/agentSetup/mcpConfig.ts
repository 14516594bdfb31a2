/**
 * MCP client configuration snippets that run `zut-host mcp` for one workspace folder through the stable launcher
 * (launcher.ts): Claude Desktop's `claude_desktop_config.json` and Cursor's `mcp.json` (`{"mcpServers": …}`), Copilot
 * CLI's `mcp-config.json` (its entry's form, copilotMcp.ts: `"type": "local"`, `"tools": ["*"]`), a
 * command line for any other stdio client (POSIX sh; on Windows PowerShell or cmd.exe, quoted so nothing in it
 * expands), or VS Code's user `mcp.json` (`{"servers": …}`, offered last: zut's tools are in VS Code's agent mode
 * already). Global extensions only, unless the project's are asked for: then `--allow-project` with one `--pin
 * ID=FINGERPRINT` per project extension (its identity relative to the folder and its consent fingerprint at copy
 * time, host/extensions/pins.ts), so `zut-host mcp` starts only that content. What each is, where it goes and what
 * it starts are said with it. VS Code-free.
 */
import * as path from 'node:path';
import { cmdQuote, psCommandLine, shQuote } from './launcher';
import { MCP_SERVER_NAME } from '../hooks/names';
import { copilotMcpEntry, copilotMcpFile } from './copilotMcp';

export type McpClient = 'claude-desktop' | 'cursor' | 'copilot-cli' | 'generic' | 'cmd' | 'vscode';

/** The clients offered on `platform`, the likeliest first; cmd.exe on Windows only; VS Code last. */
export function mcpClients(platform: NodeJS.Platform = process.platform): McpClient[] {
  return ['claude-desktop', 'cursor', 'copilot-cli', 'generic', ...(platform === 'win32' ? (['cmd'] as const) : []), 'vscode'];
}

/** Whether `client` is a snippet's client on `platform` (a command's argument is checked with it before use). */
export function isMcpClient(client: unknown, platform: NodeJS.Platform = process.platform): client is McpClient {
  return (mcpClients(platform) as unknown[]).includes(client);
}

/** A project extension pinned to its content (`zut-host mcp --pin ID=FINGERPRINT`). */
export interface McpPin {
  /** Its identity (directory, or an e extension's entry file) relative to the folder, `/`-separated. */
  id: string;
  fingerprint: string;
}

export interface McpSnippetOptions {
  /** The launcher's absolute path. */
  launcher: string;
  /** The workspace folder the server serves (`--cwd`). */
  folder: string;
  /** Start the folder's own extensions too (`--allow-project`). */
  allowProject: boolean;
  /** With `allowProject`: only this content (`--pin`); absent = whatever is there when the client starts it. */
  pins?: readonly McpPin[];
  platform?: NodeJS.Platform;
}

export interface McpSnippet {
  client: McpClient;
  /** Who reads it, shown in the pick. */
  label: string;
  /** What the pick says about it. */
  detail: string;
  /** Where the text goes. */
  where: string;
  /** What is copied. */
  text: string;
}

const LABELS: Record<McpClient, { label: string; detail: string; where: string }> = {
  'claude-desktop': {
    label: 'Claude Desktop',
    detail: 'claude_desktop_config.json, under "mcpServers"',
    where: 'under "mcpServers" in claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config)',
  },
  cursor: { label: 'Cursor', detail: '~/.cursor/mcp.json, under "mcpServers"', where: 'under "mcpServers" in your ~/.cursor/mcp.json (rather than the repository\'s .cursor/mcp.json)' },
  'copilot-cli': {
    label: 'Copilot CLI',
    detail: 'writes zut\'s server into ~/.copilot/mcp-config.json (VS Code\'s Copilot harness reads it too), or copies it',
    where: 'under "mcpServers" in ~/.copilot/mcp-config.json ($COPILOT_HOME/mcp-config.json when COPILOT_HOME is set)',
  },
  generic: { label: 'Command line', detail: 'for any MCP client that starts a stdio server', where: 'as the command of an MCP client that starts a stdio server' },
  cmd: { label: 'Command line for cmd.exe', detail: 'for an MCP client that runs its command with cmd.exe', where: 'as the command of an MCP client that runs it with cmd.exe' },
  vscode: {
    label: 'VS Code (mcp.json)',
    detail: "zut's tools are in this window's agent mode already: this duplicates them (for another VS Code without zut-vscode)",
    where: 'under "servers" in your user mcp.json (MCP: Open User Configuration)',
  },
};


/** The arguments after the launcher. */
export function mcpArgs(o: McpSnippetOptions): string[] {
  const pins = (o.pins ?? []).flatMap((p) => ['--pin', `${p.id}=${p.fingerprint}`]);
  return ['mcp', '--cwd', o.folder, ...(o.allowProject ? ['--allow-project', ...pins] : [])];
}

/** The snippet for `client`. */
export function mcpSnippet(client: McpClient, o: McpSnippetOptions): McpSnippet {
  const args = mcpArgs(o);
  // Always `zut`, as VS Code's agent mode names it: an agent's hook then knows these tools for ours (tools.ts) and
  // does not judge a call twice.
  const name = MCP_SERVER_NAME;
  const windows = (o.platform ?? process.platform) === 'win32';
  let text: string;
  let label = LABELS[client].label;
  if (client === 'generic') {
    text = windows ? psCommandLine([o.launcher, ...args]) : [o.launcher, ...args].map(shQuote).join(' ');
    label = windows ? 'Command line for PowerShell' : label;
  } else if (client === 'cmd') {
    text = [o.launcher, ...args].map(cmdQuote).join(' ');
  } else if (client === 'vscode') {
    text = JSON.stringify({ servers: { [name]: { type: 'stdio', command: o.launcher, args } } }, null, 2);
  } else if (client === 'copilot-cli') {
    text = JSON.stringify({ mcpServers: { [name]: copilotMcpEntry(o.launcher, args) } }, null, 2);
  } else {
    text = JSON.stringify({ mcpServers: { [name]: { command: o.launcher, args } } }, null, 2);
  }
  return { client, ...LABELS[client], label, text };
}

/**
 * The client's own configuration file where we know it (Cursor's `~/.cursor/mcp.json`, Copilot CLI's
 * `$COPILOT_HOME/mcp-config.json`; Claude Desktop's on macOS and Windows), for an "Open" button; undefined elsewhere
 * (VS Code's is opened by its own command).
 */
export function mcpConfigFile(client: McpClient, env: { home: string; platform: NodeJS.Platform; appData?: string | undefined; copilotHome?: string | undefined }): string | undefined {
  if (client === 'cursor') return path.join(env.home, '.cursor', 'mcp.json');
  if (client === 'copilot-cli') return copilotMcpFile(env.home, { COPILOT_HOME: env.copilotHome });
  if (client !== 'claude-desktop') return undefined;
  if (env.platform === 'darwin') return path.join(env.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (env.platform === 'win32' && env.appData) return path.win32.join(env.appData, 'Claude', 'claude_desktop_config.json');
  return undefined;
}

/** The sentence said with a snippet about what it starts. */
export function allowProjectNote(o: McpSnippetOptions): string {
  if (!o.allowProject) return "Only your global extensions start (the folder's own are never started).";
  if (!o.pins) return "--allow-project: that client starts this folder's own extensions (code from the repository) without asking, whatever they are when it starts.";
  return `That client starts ${o.pins.length === 0 ? 'no project extension' : `${o.pins.length} project extension${o.pins.length === 1 ? '' : 's'}`} of this folder without asking, as they are now; one that changes or appears later is not started until you copy again.`;
}
