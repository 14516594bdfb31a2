/**
 * What the management commands do (registered by management.ts at activation, the `zut ext` CLI's counterparts):
 * reload, doctor report, install, and the Extensions view's item actions (restart, enable/disable, show log, open
 * manifest, remove), and "Call Tool…" (callTool.ts). Built as dist/management.js and loaded when one of them first
 * runs (lazyBundle.ts): installing, the doctor's report and removing are not what a window needs before its first
 * extension answers (issue 41).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { HostCalls, HostCatalog, HostConsent, HostLifecycle } from '../host/api';
import type { LoadReport } from '../host/types';
import { buildDoctorReport, doctorMarkdown } from '../host/disk/doctor';
import type * as AgentSetup from './agentSetupCommands';
import type { InstalledExtension, StagedInstall } from '../host/disk/install';
import { planText, shadowWarning } from '../host/disk/installPlan';
import { globalExtensionsDir, projectDataDir } from '../host/disk/paths';
import { setManifestEnabled } from '../host/disk/manifest';
import type { zutDocuments } from './documents';
import type { HostControl } from './host';
import { extensionsSummary } from '../ui-model/extensionsModel';
import { confirmPlan, pickInstallSource, stageSource } from './installFlow';
import { moveToTrash } from '../host/disk/trash';
import { callTool } from './callTool';
import { destinationRoot, pickDestination, resolveExtension } from './pickExtension';

/** The commands implemented here (package.json `contributes.commands`). */
export type ManagementCommandId =
  | 'zut.reload'
  | 'zut.doctor'
  | 'zut.install'
  | 'zut.restartExtension'
  | 'zut.enableExtension'
  | 'zut.disableExtension'
  | 'zut.openManifest'
  | 'zut.openLogFile'
  | 'zut.removeExtension'
  | 'zut.callTool';

/** What has state in dist/extension.js, handed in. */
export interface ManagementDeps {
  /** documents.ts `zutDocuments` (the one `zut:` document provider). */
  documents: typeof zutDocuments;
  /** agentHooks.ts `agentHooksStatus`: this window's hook server, for the doctor. */
  hooksStatus(): string[];
  /** dist/agent-setup.js. */
  agentSetup(): typeof AgentSetup;
}

/** The outcome of `zut.install` (for scripts and tests; the user sees notifications). */
export interface InstallOutcome {
  installed?: InstalledExtension;
  error?: string;
  /** What it runs and its files, as shown before installing (absent when staging failed). */
  plan?: string;
}

/**
 * The management commands' implementations, by command id. `deps`: what has state, from dist/extension.js (this
 * bundle's own copies of those modules would hold none of it).
 */
export function managementCommands(
  context: vscode.ExtensionContext,
  host: HostLifecycle & HostCatalog & HostCalls & HostConsent,
  control: HostControl,
  deps: ManagementDeps,
): Record<ManagementCommandId, (...args: unknown[]) => unknown> {
  const err = (e: unknown): string => (e instanceof Error ? e.message : String(e));
  const commands = {} as Record<ManagementCommandId, (...args: unknown[]) => unknown>;
  const reg = (id: ManagementCommandId, fn: (...args: never[]) => unknown): void => void (commands[id] = fn as (...args: unknown[]) => unknown);

  reg('zut.reload', () => reload(control.reload('Zut: Reload Extensions')));

  // Claude Code's hooks left without zut's MCP server: asked of dist/agent-setup.js (loaded after activation anyway).
  const { agentSetup } = deps;
  reg('zut.doctor', async () => {
    const infos = host.extensions();
    const errors = control.lastReport()?.errors ?? [];
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const gaps = [...new Set((await Promise.all(folders.map((workspace) => agentSetup().claudeMcpHookGaps({ home: os.homedir(), workspace })))).flat())];
    // Every other agent: what is installed for each folder, and hooks it will not run (a guard silently skipped).
    const others = await Promise.all((folders.length ? folders : [os.homedir()]).map((w) => agentSetup().otherAgentChecks(context, w)));
    const problems = [...new Set([...gaps, ...others.flatMap((o) => o.problems)])];
    const lines = [...new Set(others.flatMap((o) => o.lines))];
    // Where zut's tools, skills, guards and events reach (per VS Code harness and terminal agent), for the first folder.
    const reach = await agentSetup().reachDoctorLines(context, folders[0]).catch((e: unknown) => [`cannot be told: ${err(e)}`]);
    const report = { ...buildDoctorReport(infos, errors), hooks: [...lines, ...deps.hooksStatus()], ...(problems.length > 0 && { hookProblems: problems }), reach };
    const content = doctorMarkdown(report, extensionsSummary(infos, errors.length));
    const docs = deps.documents();
    // Rendered (Markdown preview): every extension value in it is a code span or block (doctor.ts).
    await docs.show(docs.uri(['doctor-report'], 'md'), content, { language: 'markdown', preview: true });
    return content;
  });

  // zut.install(source?, dest?, { confirm: false }?): source is a folder or a git URL; the plan is shown before
  // anything is installed (the options skip the modal, for scripts and tests).
  reg('zut.install', async (src?: unknown, dest?: unknown, options?: unknown): Promise<InstallOutcome | undefined> => {
    const source = typeof src === 'string' ? src : await pickInstallSource();
    if (!source) return undefined;
    const destRoot = typeof dest === 'string' ? destinationRoot(dest, control.zutHome()) : await pickDestination(control.zutHome(), 'Zut: Install Extension (3/3)');
    if (!destRoot) return undefined;
    const skipConfirm = typeof options === 'object' && options !== null && (options as { confirm?: unknown }).confirm === false;
    let staged: StagedInstall | undefined;
    try {
      staged = await stageSource(source, destRoot);
      if (!staged) return undefined;
      const plan = planText(staged.plan);
      const scope = destRoot === globalExtensionsDir(control.zutHome()) ? 'global' : 'project';
      const shadow = shadowWarning(staged.plan.manifest.name, scope, host.extensions());
      if (!skipConfirm && !(await confirmPlan(staged, shadow ? [shadow] : []))) {
        await staged.discard();
        return { plan };
      }
      const ready = staged;
      // What the user installs into a project is theirs: consent for exactly the staged copy they confirmed.
      const installed = await control.exclusive(async () => {
        await host.allowOwnContent(ready.staging, ready.plan.dest);
        return ready.commit();
      });
      const said = `Installed zut extension "${installed.name}" into ${installed.dir}.`;
      if (shadow) void vscode.window.showWarningMessage(`${said} ${shadow}`);
      else void vscode.window.showInformationMessage(said);
      await control.reload(`installed ${installed.name}`);
      return { installed, plan };
    } catch (e) {
      await staged?.discard();
      void vscode.window.showErrorMessage(err(e));
      return { error: err(e) };
    }
  });

  reg('zut.restartExtension', async (target?: unknown) => {
    const info = await resolveExtension(host, target, 'Restart which zut extension?');
    if (!info) return;
    try {
      await host.restart(info.name);
    } catch (e) {
      void vscode.window.showErrorMessage(`Restart ${info.name}: ${err(e)}`);
    }
  });

  const setEnabled = async (target: unknown, enabled: boolean): Promise<void> => {
    const info = await resolveExtension(host, target, `${enabled ? 'Enable' : 'Disable'} which zut extension?`, (e) => (e.state === 'disabled') === enabled);
    if (!info) return;
    try {
      if (info.state === 'shadowed') {
        // By name the Manager would pick the winning copy; a shadowed copy is edited by directory.
        await control.exclusive(() => setManifestEnabled(info.dir, enabled));
        await control.reload(`${enabled ? 'enabled' : 'disabled'} ${info.name}`);
      } else await host.setEnabled(info.name, enabled);
    } catch (e) {
      void vscode.window.showErrorMessage(`${enabled ? 'Enable' : 'Disable'} ${info.name}: ${err(e)}`);
    }
  };
  // "Enable/Disable in Manifest": rewrites `enabled` in extension.json (explicit; the repository sees it).
  reg('zut.enableExtension', (target?: unknown) => setEnabled(target, true));
  reg('zut.disableExtension', (target?: unknown) => setEnabled(target, false));

  reg('zut.openManifest', async (target?: unknown) => {
    const info = await resolveExtension(host, target, 'Open the manifest of which zut extension?');
    if (info) await vscode.window.showTextDocument(vscode.Uri.file(info.manifestPath));
  });

  reg('zut.openLogFile', async (target?: unknown) => {
    const info = await resolveExtension(host, target, 'Open the log file of which zut extension?');
    if (!info) return;
    try {
      await fs.access(info.logPath);
    } catch {
      void vscode.window.showInformationMessage(`${info.name} has not written a log yet (${info.logPath}).`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(info.logPath), { preview: true });
  });

  reg('zut.removeExtension', async (target?: unknown, options?: unknown) => {
    const info = await resolveExtension(host, target, 'Remove which zut extension?', (e) => e.scope !== 'explicit');
    if (!info) return false;
    if (info.scope === 'explicit') {
      void vscode.window.showErrorMessage(`${info.name} comes from zut.extensionPaths; remove it from that setting instead.`);
      return false;
    }
    const skipConfirm = typeof options === 'object' && options !== null && (options as { confirm?: unknown }).confirm === false;
    if (!skipConfirm) {
      const answer = await vscode.window.showWarningMessage(
        `Remove the zut extension "${info.name}"?`,
        {
          modal: true,
          detail:
            info.scope === 'project'
              ? `This moves ${info.dir} to the trash. Its data_dir, ${projectDataDir(control.zutHome(), info.dir, info.name)}, stays.`
              : `This moves ${info.dir} to the trash, including any state the extension keeps there.`,
        },
        'Remove',
      );
      if (answer !== 'Remove') return false;
    }
    try {
      // VS Code's trash (its file service); where the provider has none (a remote or web host), <zutHome>/trash.
      const trash = (target: string) => Promise.resolve(vscode.workspace.fs.delete(vscode.Uri.file(target), { recursive: true, useTrash: true }));
      const where = await control.exclusive(() => moveToTrash(info.dir, { zutHome: control.zutHome(), trash }));
      if (where.kind !== 'trash') void vscode.window.showInformationMessage(`Moved ${info.name} to ${where.path} (this file system has no trash).`);
      await control.reload(`removed ${info.name}`);
      return true;
    } catch (e) {
      void vscode.window.showErrorMessage(err(e));
      return false;
    }
  });
  reg('zut.callTool', (name?: unknown, argsJson?: unknown) =>
    callTool(host, deps.documents, typeof name === 'string' ? name : undefined, typeof argsJson === 'string' ? argsJson : undefined),
  );
  return commands;
}

/** Runs a reload with a progress notification; errors are summarised (each is in the Zut log). */
async function reload(p: Promise<LoadReport>): Promise<LoadReport | undefined> {
  try {
    const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reloading zut extensions' }, () => p);
    if (report.errors.length > 0) {
      const names = report.errors.map((e) => e.ext).join(', ');
      void vscode.window.showWarningMessage(`Zut reloaded with ${report.errors.length} error(s): ${names}`, 'Show Log').then((c) => {
        if (c) void vscode.commands.executeCommand('zut.showLog');
      });
    }
    return report;
  } catch (e) {
    void vscode.window.showErrorMessage(`Zut reload failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
