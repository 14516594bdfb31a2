/**
 * "Zut: Copy MCP Client Configuration…" (part of dist/agent-setup.js, agentSetupCommands.ts re-exports it): a
 * client's snippet running `<launcher> mcp --cwd <folder>`, global extensions only unless the project's are chosen,
 * then pinned to their content (src/agentSetup/mcpConfig.ts, src/host/extensions/pins.ts); Copilot CLI's own file
 * written or cleaned (copilotMcpCommand.ts); an agent set up through a row (src/agentSetup/agents) gets zut's server
 * written into its configuration.
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookAgent } from '../hooks/names';
import type { Installation } from '../agentSetup/hookInstall';
import { allowProjectNote, isMcpClient, mcpClients, mcpConfigFile, mcpSnippet, type McpClient } from '../agentSetup/mcpConfig';
import { COPILOT_MCP_ACTIONS, type CopilotMcpAction } from '../agentSetup/copilotMcp';
import { SETUP_ROWS, setupRowOf, type AgentSetupRow } from '../agentSetup/agents';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import { projectPins, type Pin } from '../host/extensions/pins';
import { copilotCliMcp } from './copilotMcpCommand';
import { isWorkspaceTrusted } from './trust';
import { pickFolder, stepsText } from './agentSetupShared';

/** `zut.copyMcpConfig`'s argument; with `allowProject`, nothing about it is asked (the project's are pinned). */
export interface CopyArgs {
  /** A snippet's client, or an agent set up through a row (agentSetup/agents): its configuration is written. */
  client?: McpClient | HookAgent;
  folder?: string;
  allowProject?: boolean;
  /** Copilot CLI: write zut's server into its mcp-config.json, take it out, or copy the snippet (absent: asked). */
  action?: CopilotMcpAction;
}

/** The project's extensions pinned now, as the headless host will see them (zut, zot and e: the CLI's defaults). */
function pinsNow(folder: string): ReturnType<typeof projectPins> {
  return projectPins(folder, { zutHome: resolveZutHome(), zot: { home: resolveZotHome() }, e: { home: resolveEHome() } });
}

const TITLE_COPY = 'Copy MCP Client Configuration';

/**
 * "Copy MCP Client Configuration…": the client (VS Code last: zut's tools are in its agent mode already), then which
 * extensions, the safe choice first (global only). The project's are pinned to their content now, after a modal that
 * says plainly the client will run the repository's code on every start without asking (not asked when `args` says
 * `allowProject`). Offers to open the client's configuration file where we know it.
 */
export async function copyMcpConfig(context: vscode.ExtensionContext, launcher: string, args: CopyArgs): Promise<{ client: McpClient | HookAgent; text: string } | undefined> {
  const folder = await pickFolder(args.folder, 'The workspace folder the MCP server serves');
  if (!folder) return undefined;
  const base = { launcher, folder, allowProject: false };
  const inst = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), launcher, home: os.homedir(), workspace: folder, platform: process.platform };
  let picked: McpClient | HookAgent | undefined = args.client;
  if (!picked) {
    // The agents found on this machine (their configuration written), the snippets, the agents not found, VS Code last.
    const rowItem = (r: AgentSetupRow, found: boolean) => ({ client: r.agent as McpClient | HookAgent, label: r.label, detail: `${found ? '' : 'not found on this machine · '}writes zut's server into its MCP configuration` });
    const snippet = (c: McpClient) => ({ client: c as McpClient | HookAgent, label: mcpSnippet(c, base).label, detail: mcpSnippet(c, base).detail });
    const found = SETUP_ROWS.filter((r) => r.found(inst));
    // A client with a row of its own is written through it, not offered as a snippet too.
    const snippets = mcpClients().filter((c) => !SETUP_ROWS.some((r) => r.agent === c));
    const items = [
      ...found.map((r) => rowItem(r, true)),
      ...snippets.filter((c) => c !== 'vscode').map(snippet),
      ...SETUP_ROWS.filter((r) => !found.includes(r)).map((r) => rowItem(r, false)),
      ...snippets.filter((c) => c === 'vscode').map(snippet),
    ];
    picked = (await vscode.window.showQuickPick(items, { title: TITLE_COPY, placeHolder: 'Which MCP client?', ignoreFocusOut: true }))?.client;
    if (!picked) return undefined;
  }
  const row = setupRowOf(picked as HookAgent);
  if (row) return mcpThroughRow(row, inst);
  if (!isMcpClient(picked)) throw new Error(`Copy MCP Client Configuration: no MCP client ${JSON.stringify(picked)} (one of ${mcpClients().join(', ')}, or ${SETUP_ROWS.map((r) => r.agent).join(', ')})`);
  if (args.action !== undefined && !(COPILOT_MCP_ACTIONS as readonly unknown[]).includes(args.action)) throw new Error(`Copy MCP Client Configuration: no action ${JSON.stringify(args.action)} (one of ${COPILOT_MCP_ACTIONS.join(', ')})`);
  if (picked === 'copilot-cli') {
    const done = await copilotCliMcp(inst, args.action);
    if (done !== 'copy') return done;
  }
  const client = picked;
  const label = mcpSnippet(client, base).label;
  let allowProject = args.allowProject;
  if (allowProject === undefined) {
    const items = [
      { allow: false, label: 'Only your global extensions', detail: "Recommended. The folder's own extensions are never started by that client." },
      { allow: true, label: "Also this folder's extensions, as they are now", detail: `${label} will run the repository's code on every start, without asking you.` },
    ];
    allowProject = (await vscode.window.showQuickPick(items, { title: TITLE_COPY, placeHolder: `Which extensions may ${label} start?`, ignoreFocusOut: true }))?.allow;
    if (allowProject === undefined) return undefined;
  }
  let pins: Pin[] | undefined;
  if (allowProject) {
    const found = await pinsNow(folder);
    pins = found.pins;
    if (args.allowProject === undefined) {
      const names = found.pins.map((p) => p.name).join(', ') || 'none now';
      const detail = [
        `Project extensions of ${folder}: ${names}.`,
        'They are pinned to their content now: one that changes later (a pull, a branch switch, an agent\'s edit) or appears is not started until you copy again.',
        ...found.refused,
      ].join('\n\n');
      const ok = await vscode.window.showWarningMessage(`${label} will run this repository's code on every start, without asking you.`, { modal: true, detail }, 'Copy with Project Extensions');
      if (!ok) return undefined;
    }
  }
  const options = { ...base, allowProject, ...(pins && { pins }) };
  const snippet = mcpSnippet(client, options);
  await vscode.env.clipboard.writeText(snippet.text);
  const file = mcpConfigFile(client, { home: os.homedir(), platform: process.platform, appData: process.env.APPDATA });
  const open = file ? `Open ${path.basename(file)}` : client === 'vscode' ? 'Open User Configuration' : undefined;
  void vscode.window
    .showInformationMessage(`Copied the ${snippet.label} configuration for ${path.basename(folder)}: paste it ${snippet.where}. ${allowProjectNote(options)}`, ...(open ? [open] : []))
    .then((b) => {
      if (!b) return;
      if (file) void vscode.window.showTextDocument(vscode.Uri.file(file).with(existsSync(file) ? {} : { scheme: 'untitled' }));
      else void vscode.commands.executeCommand('workbench.mcp.openUserMcpJson');
    });
  return { client, text: snippet.text };
}

/**
 * zut's MCP server written into an agent's own configuration (a row's `installMcp`): user scope (global extensions
 * only, every folder), or this folder's (`--cwd`), after a modal naming the file.
 */
async function mcpThroughRow(row: AgentSetupRow, inst: Installation): Promise<{ client: HookAgent; text: string } | undefined> {
  const trusted = isWorkspaceTrusted();
  const items = row.scopes
    .filter((s) => s === 'user' || trusted)
    .map((scope) => ({ scope, label: scope === 'user' ? 'User' : 'Workspace', detail: scope === 'user' ? `${row.label} in every folder` : `${row.label} in ${path.basename(inst.workspace)} only` }));
  const scope = items.length === 1 ? items[0]!.scope : (await vscode.window.showQuickPick(items, { title: TITLE_COPY, placeHolder: `Where should ${row.label} find zut's MCP server?`, ignoreFocusOut: true }))?.scope;
  if (!scope) return undefined;
  const ok = await vscode.window.showInformationMessage(`Write zut's MCP server into ${row.label}'s configuration (${scope})?`, { modal: true, detail: "Only your global extensions start (the folder's own are never started). Other entries stay as they are." }, 'Write');
  if (!ok) return undefined;
  const steps = await row.installMcp(inst, scope);
  const text = stepsText(steps);
  void vscode.window.showInformationMessage(`${row.label} now starts zut's MCP server: ${steps.map((s) => s.file).join(', ')}.`);
  return { client: row.agent, text };
}
