/**
 * The entry of dist/agent-setup.js, loaded at run time by agentSetup.ts (outside dist/extension.js's size limit):
 * keeps the stable launcher `<global storage>/bin/zut-host` (`.cmd` on Windows) running this installation's Node and
 * CLI (src/agentSetup/launcher.ts), and runs "Zut: Copy MCP Client Configuration…" (a client's snippet running
 * `<launcher> mcp --cwd <folder>`, global extensions only unless the project's are chosen, then pinned to their
 * content: src/agentSetup/mcpConfig.ts, src/host/extensions/pins.ts) and "Zut: Guard Agent Tools…" (a readable summary,
 * the exact entries on request, then merges or removes the hook entries running `<launcher> hook …` for VS Code's
 * agent, Copilot CLI or Claude Code, src/agentSetup/hookInstall.ts; every other agent through its set-up row,
 * src/agentSetup/agents, those found on this machine offered first). Each command takes an argument object for tests and
 * keybindings (every field optional; a missing one is asked).
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookAgent } from '../hooks/names';
import { applyInstall, applyUninstall, describePlan, installedCount, planInstall, summarizePlan, type HookKind, type HookScope, type Installation, type InstallPlan } from '../agentSetup/hookInstall';
import { applyClaudeMcp, claudeMcpFile, findClaudeMcp } from '../agentSetup/claudeMcp';
import { ensureLauncher } from '../agentSetup/launcher';
import { writeLauncherPointer } from '../agentSetup/launcherPointer';
import { allowProjectNote, isMcpClient, mcpClients, mcpConfigFile, mcpSnippet, type McpClient } from '../agentSetup/mcpConfig';
import { COPILOT_MCP_ACTIONS, type CopilotMcpAction } from '../agentSetup/copilotMcp';
import { copilotCliMcp } from './copilotMcpCommand';
import { resolveEHome, resolveZotHome, resolveZutHome } from '../host/disk/paths';
import { projectPins, type Pin } from '../host/extensions/pins';
import { isWorkspaceTrusted } from './trust';
import { SETUP_ROWS, setupRowOf, type AgentSetupRow, type SetupStep } from '../agentSetup/agents';
import { agentOnMachine } from '../agentSetup/agents/found';
import { agentChecks } from '../agentSetup/agents/checks';

/** "Zut: Where zut Reaches" and the doctor's "Where zut reaches" lines (reach.ts), in this bundle too. */
export { reachDoctorLines, showReach, type ReachArgs } from './reach';

/** For "zut: Doctor" (management.ts): Claude Code's mcp_tool hooks left without zut's MCP server. */
export { claudeMcpHookGaps } from '../agentSetup/claudeMcp';

/** For "zut: Doctor": every set-up row's check for `workspace` (agents found or set up; hooks they will not run). */
export async function otherAgentChecks(context: vscode.ExtensionContext, workspace: string): Promise<{ lines: string[]; problems: string[] }> {
  return agentChecks({ node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), home: os.homedir(), workspace, platform: process.platform });
}

/** `zut.copyMcpConfig`'s argument; with `allowProject`, nothing about it is asked (the project's are pinned). */
export interface CopyArgs {
  /** A snippet's client, or an agent set up through a row (agentSetup/agents): its configuration is written. */
  client?: McpClient | HookAgent;
  folder?: string;
  allowProject?: boolean;
  /** Copilot CLI: write zut's server into its mcp-config.json, take it out, or copy the snippet (absent: asked). */
  action?: CopilotMcpAction;
}

/** `zut.guardAgentTools`'s argument; with `action`, nothing more is asked (no confirmation). */
export interface GuardArgs {
  agent?: HookAgent;
  scope?: HookScope;
  folder?: string;
  action?: 'install' | 'remove';
  /** Claude Code: `mcp` (mcp_tool hooks, zut's MCP server configured when it is not) or `command`. */
  kind?: HookKind;
}

const AGENTS: { agent: HookAgent; label: string; detail: string; found: (home: string) => boolean }[] = [
  { agent: 'vscode', label: "VS Code's agent", detail: 'Copilot Agent mode: ~/.copilot/hooks/zut.json or .github/hooks/zut.json', found: () => true },
  { agent: 'copilot-cli', label: 'Copilot CLI', detail: 'the same files, "version": 1, camelCase events', found: (home) => agentOnMachine('copilot', ['.copilot'], home) },
  { agent: 'claude', label: 'Claude Code', detail: '~/.claude/settings.json or .claude/settings.local.json', found: (home) => agentOnMachine('claude', ['.claude'], home) },
];

/**
 * Every agent zut can set up, those found on this machine first (VS Code's agent, Copilot CLI and Claude Code, then
 * the set-up rows of agentSetup/agents), each saying whether it was found.
 */
function agentItems(inst: Installation): { agent: HookAgent; label: string; detail: string }[] {
  const all = [
    ...AGENTS.map((a) => ({ agent: a.agent, label: a.label, detail: a.detail, found: a.found(inst.home) })),
    ...SETUP_ROWS.map((r) => ({ agent: r.agent, label: r.label, detail: `hooks: ${r.scopes.join(' or ')} scope`, found: r.found(inst) })),
  ];
  return [...all.filter((a) => a.found), ...all.filter((a) => !a.found)].map(({ agent, label, detail, found }) => ({ agent, label, detail: found ? detail : `not found on this machine · ${detail}` }));
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Writes or updates the launcher; resolves with its path. */
export async function updateLauncher(context: vscode.ExtensionContext, log: (line: string) => void): Promise<string> {
  const storage = context.globalStorageUri;
  if (storage.scheme !== 'file') throw new Error(`the extension's global storage is not on disk (${storage.toString()})`);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const target = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), hook: context.asAbsolutePath('dist/hook.js'), version };
  const r = await ensureLauncher(path.join(storage.fsPath, 'bin'), target);
  log(`launcher: ${r.launcher} (${r.written ? 'written' : 'up to date'}; runs ${target.node} ${target.cli})`);
  const pointer = await writeLauncherPointer(r.launcher);
  if (pointer.skipped) log(`launcher: zut's agent plugin will not find it: ${pointer.skipped}`);
  else if (pointer.written) log(`launcher: its path written for zut's agent plugin to ${pointer.file}`);
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

/** The Guard modal: a readable summary; "Show Entries" opens the exact entries beside it and asks again. */
async function askGuard(title: string, plan: InstallPlan, verb: 'install' | 'uninstall', tail: string, choices: string[]): Promise<string | undefined> {
  for (;;) {
    const picked = await vscode.window.showInformationMessage(title, { modal: true, detail: `${summarizePlan(plan)}\n\n${tail}` }, ...choices, 'Show Entries');
    if (picked !== 'Show Entries') return picked;
    const doc = await vscode.workspace.openTextDocument({ language: 'jsonc', content: `// ${describePlan(plan, verb).split('\n')[0]}\n${JSON.stringify({ hooks: Object.fromEntries(Object.entries(plan.entries).map(([e, v]) => [e, [v]])) }, null, 2)}\n` });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}

export async function guardAgentTools(context: vscode.ExtensionContext, launcher: string, args: GuardArgs): Promise<{ file: string; action: 'install' | 'remove'; entries: number } | undefined> {
  const base = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), launcher, home: os.homedir(), workspace: args.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir(), platform: process.platform };
  const agent = args.agent ?? (await vscode.window.showQuickPick(agentItems(base), { title: 'Guard Agent Tools', placeHolder: 'Whose tool calls should your zut guards see?', ignoreFocusOut: true }))?.agent;
  if (!agent) return undefined;
  const row = setupRowOf(agent);
  const trusted = isWorkspaceTrusted();
  const hasFolder = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file');
  let scope = args.scope;
  if (!scope) {
    const items: { scope: HookScope; label: string; detail: string }[] = [{ scope: 'user', label: 'User', detail: 'every folder this agent works in, on this machine' }];
    if (hasFolder && trusted && (!row || row.scopes.includes('workspace'))) items.push({ scope: 'workspace', label: 'Workspace', detail: 'this folder only (a file in the repository: keep it out of commits unless your team wants it)' });
    const placeHolder = hasFolder && !trusted ? 'Where? (Workspace needs a trusted workspace)' : 'Where?';
    scope = (await vscode.window.showQuickPick(items, { title: 'Guard Agent Tools', placeHolder, ignoreFocusOut: true }))?.scope;
    if (!scope) return undefined;
  }
  if (scope === 'workspace' && !trusted) throw new Error('Guard Agent Tools: the workspace scope needs a trusted workspace (Manage Workspace Trust).');
  const folder = scope === 'workspace' ? await pickFolder(args.folder, 'The folder whose hook file to write') : (args.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir());
  if (!folder) return undefined;
  const inst = { ...base, workspace: folder };
  if (row) return guardThroughRow(row, inst, scope, args.action);
  // With `action` nothing is asked: mcp_tool hooks only where zut's MCP server is configured already.
  const unasked = async (): Promise<HookKind> => ((await findClaudeMcp(inst, scope)) ? 'mcp' : 'command');
  const kind = agent === 'claude' ? (args.kind ?? (args.action ? await unasked() : await pickClaudeKind(inst, scope))) : 'command';
  if (!kind) return undefined;
  const plan = planInstall(inst, agent, scope, kind);
  const present = await installedCount(plan);
  const name = AGENTS.find((a) => a.agent === agent)?.label ?? agent;
  let action = args.action;
  if (!action) {
    const picked =
      present > 0
        ? await askGuard(`${name}: zut hooks are in ${plan.file}.`, plan, 'uninstall', '"Write Again" replaces them; other entries stay as they are.', ['Remove', 'Write Again'])
        : await askGuard(`Let your zut guards and event subscribers see ${name}'s tool calls?`, plan, 'install', 'Other entries stay as they are. Run this command again to remove exactly these.', ['Write']);
    if (!picked) return undefined;
    action = picked === 'Remove' ? 'remove' : 'install';
  }
  if (action === 'remove') {
    const removed = await applyUninstall(plan);
    void vscode.window.showInformationMessage(removed ? `${name}'s tool calls no longer go through your zut guards: hooks removed from ${plan.file}.` : `No zut hook was in ${plan.file}.`);
    return { file: plan.file, action, entries: removed };
  }
  if (kind === 'mcp' && !(await findClaudeMcp(inst, scope))) await applyClaudeMcp(inst, scope);
  await applyInstall(plan);
  const entries = Object.keys(plan.entries).length;
  void vscode.window.showInformationMessage(`${name}'s tool calls now go through your zut guards (hooks in ${plan.file}). Run "Zut: Guard Agent Tools…" again to remove them.`, 'Open File').then((b) => {
    if (b) void vscode.window.showTextDocument(vscode.Uri.file(plan.file));
  });
  return { file: plan.file, action, entries };
}

/**
 * How Claude Code reaches zut: through zut's MCP server (`mcp_tool` hooks: no process per tool call; the server written
 * to Claude Code's configuration when it is not there) or a command per call. With mcp_tool, every tool call is blocked
 * while the server is not connected: said in the pick.
 */
async function pickClaudeKind(inst: Installation, scope: HookScope): Promise<HookKind | undefined> {
  const found = await findClaudeMcp(inst, scope);
  const items: { hooks: HookKind; label: string; detail: string }[] = [
    {
      hooks: 'mcp',
      label: "Through zut's MCP server (mcp_tool)",
      detail: `${found ? `configured in ${found}` : `also writes zut's MCP server to ${claudeMcpFile(inst, scope)}`}; fastest; every tool call is blocked while that server is not connected`,
    },
    { hooks: 'command', label: 'A command per tool call', detail: 'works without zut\'s MCP server; starts a process for each call' },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Guard Agent Tools', placeHolder: 'How should Claude Code reach zut?', ignoreFocusOut: true }))?.hooks;
}

const stepsText = (steps: readonly SetupStep[]) => steps.map((s) => [s.file, ...s.changes.map((c) => `  ${c}`)].join('\n')).join('\n');

/**
 * An agent set up through a row (agentSetup/agents): a modal saying what is there now and whether the agent will run
 * it, then its hooks written or removed; what the agent still needs before it runs them (a trust it asks for) is said
 * after, never left silent.
 */
async function guardThroughRow(row: AgentSetupRow, inst: Installation, scope: HookScope, given: 'install' | 'remove' | undefined): Promise<{ file: string; action: 'install' | 'remove'; entries: number } | undefined> {
  let action = given;
  if (!action) {
    const now = await row.check(inst, scope);
    const detail = [`${row.label}'s hooks (${scope}) run zut-host hook for each tool call; other entries stay as they are.`, ...now.problems].join('\n\n');
    const picked = now.hooksInstalled
      ? await vscode.window.showInformationMessage(`${row.label}: zut hooks are installed (${scope}).`, { modal: true, detail }, 'Remove', 'Write Again')
      : await vscode.window.showInformationMessage(`Let your zut guards and event subscribers see ${row.label}'s tool calls?`, { modal: true, detail }, 'Write');
    if (!picked) return undefined;
    action = picked === 'Remove' ? 'remove' : 'install';
  }
  const steps = action === 'remove' ? await row.uninstallHooks(inst, scope) : await row.installHooks(inst, scope);
  const file = steps[0]?.file ?? '';
  if (action === 'remove') {
    void vscode.window.showInformationMessage(steps.length ? `${row.label}'s tool calls no longer go through your zut guards (${file}).` : `No zut hook of ${row.label} was there.`);
    return { file, action, entries: steps.reduce((n, s) => n + s.changes.length, 0) };
  }
  const after = await row.check(inst, scope);
  const text = `${row.label}'s tool calls now go through your zut guards:\n${stepsText(steps)}`;
  if (after.problems.length > 0) void vscode.window.showWarningMessage(`${row.label} will not run zut's hooks yet: ${after.problems.join(' ')}`, { modal: true, detail: text });
  else void vscode.window.showInformationMessage(`${row.label}'s tool calls now go through your zut guards (${file}). Run "Zut: Guard Agent Tools…" again to remove them.`);
  return { file, action, entries: steps.reduce((n, s) => n + s.changes.length, 0) };
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
