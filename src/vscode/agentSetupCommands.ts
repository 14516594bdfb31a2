/**
 * The entry of dist/agent-setup.js, loaded at run time by agentSetup.ts (outside dist/extension.js's size limit):
 * keeps the stable launcher `<global storage>/bin/zut-host` (`.cmd` on Windows) running this installation's Node and
 * CLI (src/agentSetup/launcher.ts), runs "Zut: Guard Agent Tools…" (a readable summary, the exact entries on request,
 * then merges or removes the hook entries running `<launcher> hook …` for VS Code's agent, Copilot CLI or Claude Code,
 * src/agentSetup/hookInstall.ts; every other agent through its set-up row, src/agentSetup/agents, those found on this
 * machine offered first), and re-exports "Zut: Copy MCP Client Configuration…" (copyMcpCommand.ts) and "Where zut
 * Reaches" (reach.ts). Each command takes an argument object for tests and keybindings (every field optional; a
 * missing one is asked).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookAgent } from '../hooks/names';
import { applyInstall, applyUninstall, describePlan, installedCount, planInstall, summarizePlan, type HookKind, type HookScope, type Installation, type InstallPlan } from '../agentSetup/hookInstall';
import { applyClaudeMcp, claudeMcpFile, findClaudeMcp } from '../agentSetup/claudeMcp';
import { ensureLauncher } from '../agentSetup/launcher';
import { writeLauncherPointer } from '../agentSetup/launcherPointer';
import { isWorkspaceTrusted } from './trust';
import { errorText, pickFolder, stepsText } from './agentSetupShared';
import { SETUP_ROWS, setupRowOf, type AgentSetupRow } from '../agentSetup/agents';
import { agentOnMachine } from '../agentSetup/agents/found';
import { copilotCliFound } from '../agentSetup/copilotHome';
import { agentChecks } from '../agentSetup/agents/checks';

/** "Zut: Copy MCP Client Configuration…" (copyMcpCommand.ts), in this bundle. */
export { copyMcpConfig, type CopyArgs } from './copyMcpCommand';

/** "Zut: Where zut Reaches" and the doctor's "Where zut reaches" lines (reach.ts), in this bundle too. */
export { reachDoctorLines, showReach, type ReachArgs } from './reach';

/** For "zut: Doctor" (management.ts): Claude Code's mcp_tool hooks left without zut's MCP server. */
export { claudeMcpHookGaps } from '../agentSetup/claudeMcp';

/** For "zut: Doctor": every set-up row's check for `workspace` (agents found or set up; hooks they will not run). */
export async function otherAgentChecks(context: vscode.ExtensionContext, workspace: string): Promise<{ lines: string[]; problems: string[] }> {
  return agentChecks({ node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), home: os.homedir(), workspace, platform: process.platform });
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
  { agent: 'copilot-cli', label: 'Copilot CLI', detail: 'the same files, "version": 1, camelCase events', found: copilotCliFound },
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
