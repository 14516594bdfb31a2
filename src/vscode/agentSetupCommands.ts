/**
 * The entry of dist/agent-setup.js, loaded at run time by agentSetup.ts (outside dist/extension.js's size limit):
 * keeps the stable launcher `<global storage>/bin/zut-host` (`.cmd` on Windows) running this installation's Node and
 * CLI (src/hooks/launcher.ts), and runs "Zut: Copy MCP Client Configuration…" (a client's snippet running
 * `<launcher> mcp --cwd <folder>`, src/hooks/mcpConfig.ts) and "Zut: Guard Agent Tools…" (shows, then merges or
 * removes, the hook entries running `<launcher> hook …` for VS Code's agent, Copilot CLI or Claude Code,
 * src/hooks/install.ts). Each command takes an argument object for tests and keybindings (every field optional; a
 * missing one is asked).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookAgent } from '../hooks/names';
import { applyInstall, applyUninstall, describePlan, installedCount, planInstall, type HookScope } from '../hooks/install';
import { ensureLauncher } from '../hooks/launcher';
import { allowProjectNote, MCP_CLIENTS, mcpSnippet, type McpClient } from '../hooks/mcpConfig';
import { isWorkspaceTrusted } from './trust';

/** `zut.copyMcpConfig`'s argument. */
export interface CopyArgs {
  client?: McpClient;
  folder?: string;
  allowProject?: boolean;
}

/** `zut.guardAgentTools`'s argument; with `action`, nothing more is asked (no confirmation). */
export interface GuardArgs {
  agent?: HookAgent;
  scope?: HookScope;
  folder?: string;
  action?: 'install' | 'remove';
}

const AGENTS: { agent: HookAgent; label: string; detail: string }[] = [
  { agent: 'vscode', label: "VS Code's agent", detail: 'Copilot Agent mode: ~/.copilot/hooks/zut.json or .github/hooks/zut.json' },
  { agent: 'copilot-cli', label: 'Copilot CLI', detail: 'the same files, "version": 1, camelCase events' },
  { agent: 'claude', label: 'Claude Code', detail: '~/.claude/settings.json or .claude/settings.local.json' },
];

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Writes or updates the launcher; resolves with its path. */
export async function updateLauncher(context: vscode.ExtensionContext, log: (line: string) => void): Promise<string> {
  const storage = context.globalStorageUri;
  if (storage.scheme !== 'file') throw new Error(`the extension's global storage is not on disk (${storage.toString()})`);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const target = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), hook: context.asAbsolutePath('dist/hook.js'), version };
  const r = await ensureLauncher(path.join(storage.fsPath, 'bin'), target);
  log(`launcher: ${r.launcher} (${r.written ? 'written' : 'up to date'}; runs ${target.node} ${target.cli})`);
  return r.launcher;
}

/** Runs a command: an error is shown, and the command resolves undefined. */
export function runCommand<T>(fn: () => Promise<T>): Promise<T | undefined> {
  return fn().catch((e: unknown) => {
    void vscode.window.showErrorMessage(errorText(e));
    return undefined;
  });
}

/** The folder the args name, the only one open, or the one picked; undefined when none (or cancelled). */
async function pickFolder(given: string | undefined, placeHolder: string): Promise<string | undefined> {
  if (given) return given;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) throw new Error('Open a folder first: the configuration is for one workspace folder.');
  if (folders.length === 1) return folders[0].uri.fsPath;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder }))?.uri.fsPath;
}

export async function copyMcpConfig(launcher: string, args: CopyArgs): Promise<{ client: McpClient; text: string } | undefined> {
  const folder = await pickFolder(args.folder, 'The workspace folder the MCP server serves');
  if (!folder) return undefined;
  const base = { launcher, folder, allowProject: true };
  let client = args.client;
  if (!client) {
    const items = MCP_CLIENTS.map((c) => ({ client: c, label: mcpSnippet(c, base).label, detail: mcpSnippet(c, base).where }));
    client = (await vscode.window.showQuickPick(items, { title: 'Copy MCP Client Configuration', placeHolder: 'Which MCP client?' }))?.client;
    if (!client) return undefined;
  }
  let allowProject = args.allowProject;
  if (allowProject === undefined) {
    const items = [
      { allow: true, label: "This folder's extensions and your global ones (--allow-project)", detail: "The client starts the repository's own .zut/.zot/.e extensions without asking: choose this only for a repository you trust." },
      { allow: false, label: 'Only your global extensions', detail: "The folder's own extensions are listed by `zut-host doctor` but never started." },
    ];
    allowProject = (await vscode.window.showQuickPick(items, { title: 'Copy MCP Client Configuration', placeHolder: 'Which extensions may that client start?' }))?.allow;
    if (allowProject === undefined) return undefined;
  }
  const options = { ...base, allowProject };
  const snippet = mcpSnippet(client, options);
  await vscode.env.clipboard.writeText(snippet.text);
  void vscode.window.showInformationMessage(
    `Copied the ${snippet.label} configuration for ${path.basename(folder)}: paste it into ${snippet.where}. It runs ${launcher}, which zut-vscode keeps pointing at its current version. ${allowProjectNote(options)}`,
  );
  return { client, text: snippet.text };
}

export async function guardAgentTools(context: vscode.ExtensionContext, launcher: string, args: GuardArgs): Promise<{ file: string; action: 'install' | 'remove'; entries: number } | undefined> {
  const agent = args.agent ?? (await vscode.window.showQuickPick(AGENTS, { title: 'Guard Agent Tools', placeHolder: "Whose tool calls should your zut guards see?" }))?.agent;
  if (!agent) return undefined;
  const trusted = isWorkspaceTrusted();
  const hasFolder = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file');
  let scope = args.scope;
  if (!scope) {
    const items: { scope: HookScope; label: string; detail: string }[] = [{ scope: 'user', label: 'User', detail: 'every folder this agent works in, on this machine' }];
    if (hasFolder && trusted) items.push({ scope: 'workspace', label: 'Workspace', detail: 'this folder only (a file in the repository: keep it out of commits unless your team wants it)' });
    const placeHolder = hasFolder && !trusted ? 'Where? (Workspace needs a trusted workspace)' : 'Where?';
    scope = (await vscode.window.showQuickPick(items, { title: 'Guard Agent Tools', placeHolder }))?.scope;
    if (!scope) return undefined;
  }
  if (scope === 'workspace' && !trusted) throw new Error('Guard Agent Tools: the workspace scope needs a trusted workspace (Manage Workspace Trust).');
  const folder = scope === 'workspace' ? await pickFolder(args.folder, 'The folder whose hook file to write') : (args.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir());
  if (!folder) return undefined;
  const inst = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), launcher, home: os.homedir(), workspace: folder, platform: process.platform };
  const plan = planInstall(inst, agent, scope);
  const present = await installedCount(plan);
  let action = args.action;
  if (!action) {
    const name = AGENTS.find((a) => a.agent === agent)?.label ?? agent;
    const [title, detail, choices] =
      present > 0
        ? [`${name}: zut hooks are in ${plan.file}.`, `${describePlan(plan, 'uninstall')}\n\n"Write Again" replaces them with the entries above; other entries stay as they are.`, ['Remove', 'Write Again']]
        : [`Let your zut guards and event subscribers see ${name}'s tool calls?`, `${describePlan(plan, 'install')}\n\nOther entries stay as they are. Run this command again to remove exactly these.`, ['Write']];
    const picked = await vscode.window.showInformationMessage(title, { modal: true, detail }, ...choices);
    if (!picked) return undefined;
    action = picked === 'Remove' ? 'remove' : 'install';
  }
  if (action === 'remove') {
    const removed = await applyUninstall(plan);
    void vscode.window.showInformationMessage(removed ? `Removed ${removed} zut hook entr${removed === 1 ? 'y' : 'ies'} from ${plan.file}.` : `No zut hook entry was in ${plan.file}.`);
    return { file: plan.file, action, entries: removed };
  }
  await applyInstall(plan);
  const entries = Object.keys(plan.entries).length;
  void vscode.window.showInformationMessage(`Written ${entries} zut hook entries into ${plan.file}: they run ${launcher}. Run "Zut: Guard Agent Tools…" again to remove them.`, 'Open File').then((b) => {
    if (b) void vscode.window.showTextDocument(vscode.Uri.file(plan.file));
  });
  return { file: plan.file, action, entries };
}
