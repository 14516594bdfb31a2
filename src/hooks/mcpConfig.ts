/**
 * MCP client configuration snippets that run `zut-host mcp` for one workspace folder through the stable launcher
 * (launcher.ts): VS Code's user `mcp.json` (`{"servers": …}`), Claude Desktop's `claude_desktop_config.json` and
 * Cursor's `mcp.json` (`{"mcpServers": …}`), or a plain command line for any other stdio client. What each is, where
 * it goes and what `--allow-project` means are said with it. VS Code-free.
 */
import { shQuote } from './launcher';
import { MCP_SERVER_NAME } from './names';

export type McpClient = 'vscode' | 'claude-desktop' | 'cursor' | 'generic';
export const MCP_CLIENTS: readonly McpClient[] = ['vscode', 'claude-desktop', 'cursor', 'generic'];

export interface McpSnippetOptions {
  /** The launcher's absolute path. */
  launcher: string;
  /** The workspace folder the server serves (`--cwd`). */
  folder: string;
  /** Start the folder's own extensions too (`--allow-project`). */
  allowProject: boolean;
  platform?: NodeJS.Platform;
}

export interface McpSnippet {
  client: McpClient;
  /** Who reads it, shown in the pick. */
  label: string;
  /** Where the text goes. */
  where: string;
  /** What is copied. */
  text: string;
}

const LABELS: Record<McpClient, { label: string; where: string }> = {
  vscode: { label: 'VS Code (mcp.json)', where: 'your user mcp.json ("MCP: Open User Configuration"), under "servers"' },
  'claude-desktop': {
    label: 'Claude Desktop (claude_desktop_config.json)',
    where: 'claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config), under "mcpServers"',
  },
  cursor: { label: 'Cursor (mcp.json)', where: 'Cursor\'s ~/.cursor/mcp.json (yours, rather than the repository\'s .cursor/mcp.json), under "mcpServers"' },
  generic: { label: 'Command line (any stdio MCP client)', where: 'the command of any MCP client that starts a stdio server' },
};


/** The arguments after the launcher. */
export function mcpArgs(o: McpSnippetOptions): string[] {
  return ['mcp', '--cwd', o.folder, ...(o.allowProject ? ['--allow-project'] : [])];
}

const cmdWord = (s: string) => (/^[\w\-.:\\/]+$/.test(s) ? s : `"${s.replaceAll('"', '""')}"`);

/** The snippet for `client`. */
export function mcpSnippet(client: McpClient, o: McpSnippetOptions): McpSnippet {
  const args = mcpArgs(o);
  // Always `zut`, as VS Code's agent mode names it: an agent's hook then knows these tools for ours (tools.ts) and
  // does not judge a call twice.
  const name = MCP_SERVER_NAME;
  let text: string;
  if (client === 'generic') {
    const q = (o.platform ?? process.platform) === 'win32' ? cmdWord : shQuote;
    text = [o.launcher, ...args].map(q).join(' ');
  } else if (client === 'vscode') {
    text = JSON.stringify({ servers: { [name]: { type: 'stdio', command: o.launcher, args } } }, null, 2);
  } else {
    text = JSON.stringify({ mcpServers: { [name]: { command: o.launcher, args } } }, null, 2);
  }
  return { client, ...LABELS[client], text };
}

/** The sentence said with a snippet about what it starts. */
export function allowProjectNote(o: McpSnippetOptions): string {
  return o.allowProject
    ? `--allow-project: that client will start this folder's own extensions (.zut/.zot/.e extensions: code from the repository) without asking, plus your global ones.`
    : `Only your global extensions start (the folder's own need --allow-project).`;
}
