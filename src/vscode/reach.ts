/**
 * "Zut: Where zut Reaches" (`zut.showReach`) and the doctor's "Where zut reaches" lines: the facts gathered in this
 * window (the route of zut's tools, VS Code's harness settings, which hook files of ours are in place, each terminal
 * agent's check), the rows made by ui-model/reach.ts, shown as a quick pick whose gap items run their one fix. Part of
 * dist/agent-setup.js (re-exported by agentSetupCommands.ts), loaded at its first use; agentSetup.ts registers the
 * command.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETUP_ROWS } from '../agentSetup/agents';
import type { SetupCheck } from '../agentSetup/agents/types';
import type { HookScope, Installation } from '../agentSetup/hookInstall';
import { launcherPath } from '../agentSetup/launcher';
import { claudeCodeCheck, copilotCliCheck, ownHookFiles } from '../agentSetup/olderAgentChecks';
import { CLAUDE_MCP_FIX, COPILOT_CLI_MCP_FIX, gapsOf, reachLines, reachRows, type Capability, type ReachFacts, type ReachFix, type ReachRow, type ReachState, type TerminalAgentFacts } from '../ui-model/reach';
import { chatPluginsSupported, currentRoute, harnessSettings } from './agentRoute';
import { zutSettings } from './settingsRead';

/** `zut.showReach`'s argument: `show: false` returns the rows without the quick pick (tests, scripts). */
export interface ReachArgs {
  show?: boolean;
  folder?: string;
}

const SCOPES: readonly HookScope[] = ['user', 'workspace'];
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** One agent's checks for both scopes it has; a check that throws counts as nothing found, its error a problem. */
async function checksOf(agent: string, scopes: readonly HookScope[], check: (s: HookScope) => Promise<SetupCheck>): Promise<TerminalAgentFacts['checks']> {
  return Promise.all(
    SCOPES.filter((s) => scopes.includes(s)).map(async (scope) => {
      const c = await check(scope).catch((e: unknown): SetupCheck => ({ agent: agent as SetupCheck['agent'], found: false, hooksInstalled: false, mcpInstalled: false, problems: [`cannot be checked: ${errorText(e)}`] }));
      return { scope, found: c.found, hooksInstalled: c.hooksInstalled, mcpInstalled: c.mcpInstalled, ...(c.hooksRun !== undefined && { hooksRun: c.hooksRun }), problems: c.problems };
    }),
  );
}

/** The facts for `folder` (the first workspace folder, else the home directory). */
export async function reachFacts(context: vscode.ExtensionContext, folder?: string): Promise<ReachFacts> {
  // The launcher's path (updateLauncher writes it there): the hook entries of ours run it, and are recognised by it.
  const storage = context.globalStorageUri;
  const launcher = storage.scheme === 'file' ? launcherPath(path.join(storage.fsPath, 'bin')) : undefined;
  const workspace = folder ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
  const inst: Installation = { node: process.execPath, cli: context.asAbsolutePath('dist/cli.js'), ...(launcher && { launcher }), home: os.homedir(), workspace, platform: process.platform };
  const s = zutSettings().settings;
  const files = async (agent: 'vscode' | 'copilot-cli') => (await ownHookFiles(inst, agent).catch(() => [])).map((f) => `${f.file} (${f.scope})`);
  const agents: TerminalAgentFacts[] = [
    {
      agent: 'claude',
      label: 'Claude Code',
      checks: await checksOf('claude', SCOPES, (scope) => claudeCodeCheck(inst, scope)),
      mcpFix: CLAUDE_MCP_FIX,
    },
    {
      agent: 'copilot-cli',
      label: 'Copilot CLI',
      checks: await checksOf('copilot-cli', SCOPES, (scope) => copilotCliCheck(inst, scope)),
      mcpFix: COPILOT_CLI_MCP_FIX,
    },
    ...(await Promise.all(SETUP_ROWS.map(async (r) => ({ agent: r.agent, label: r.label, checks: await checksOf(r.agent, r.scopes, (scope) => r.check(inst, scope)) })))),
  ];
  return {
    route: currentRoute(),
    via: s.agentToolsVia,
    harness: harnessSettings(),
    pluginsSupported: chatPluginsSupported(),
    platform: process.platform,
    remoteAgentHost: vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined,
    vscodeHooks: await files('vscode'),
    copilotCliHooks: await files('copilot-cli'),
    agents,
  };
}

/** For "zut: Doctor": the rows as lines. */
export async function reachDoctorLines(context: vscode.ExtensionContext, folder?: string): Promise<string[]> {
  return reachLines(reachRows(await reachFacts(context, folder)));
}

const ICON: Record<ReachState, string> = { reached: '$(pass)', 'not-reached': '$(error)', unknown: '$(question)' };

type Item = vscode.QuickPickItem & { fix?: ReachFix };

/** The quick pick's items: a separator per row, what is reached in one item, then one item per gap (with its fix). */
export function reachItems(rows: readonly ReachRow[]): Item[] {
  return rows.flatMap((row): Item[] => {
    const head: Item = { label: row.surface, kind: vscode.QuickPickItemKind.Separator };
    if (!row.present) return [head, { label: `$(circle-slash) ${row.note ?? 'not found on this machine'}`, detail: 'Nothing to do unless you use it here.' }];
    const gaps = gapsOf(row);
    const reached = (['tools', 'skills', 'guards', 'events'] as const).filter((c: Capability) => row[c].state === 'reached');
    const items: Item[] = [head];
    if (row.warning) items.push({ label: '$(warning) two zut servers', description: `$(wrench) ${row.warning.fix.label}`, detail: row.warning.text, fix: row.warning.fix });
    if (reached.length > 0) items.push({ label: `${ICON.reached} ${reached.join(', ')}: reached`, description: row.note, detail: [...new Set(reached.map((c) => row[c].how))].join(' · ') });
    for (const g of gaps) {
      items.push({
        label: `${ICON[g.cell.state]} ${g.capability}: ${g.cell.state === 'unknown' ? 'unknown' : 'not reached'}`,
        description: g.cell.fix ? `$(wrench) ${g.cell.fix.label}` : reached.length === 0 ? row.note : undefined,
        detail: g.cell.how,
        ...(g.cell.fix && { fix: g.cell.fix }),
      });
    }
    return items;
  });
}

/** "Zut: Where zut Reaches": the rows; picking a gap runs its fix. Resolves with the rows (and the fix run, if any). */
export async function showReach(context: vscode.ExtensionContext, args: ReachArgs): Promise<{ rows: ReachRow[]; ran?: ReachFix }> {
  const rows = reachRows(await reachFacts(context, args.folder));
  if (args.show === false) return { rows };
  const picked = await vscode.window.showQuickPick(reachItems(rows), {
    title: 'Where zut Reaches',
    placeHolder: 'Pick a gap to run its fix',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked?.fix) return { rows };
  await vscode.commands.executeCommand(picked.fix.command, ...(picked.fix.args ?? []));
  return { rows, ran: picked.fix };
}
