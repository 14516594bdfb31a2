/**
 * Managing extensions from VS Code, the `zut ext` CLI's counterparts: reload, doctor report, install, and the
 * Extensions view's item actions (restart, enable/disable, show log, open manifest, remove), and "Call Tool…". Every
 * command also accepts its target as an argument (a view node or an extension name) so it can be scripted and
 * tested. The commands are registered here at activation; what they do is managementCommands.ts, built as
 * dist/management.js and loaded when one first runs (lazyBundle.ts). The workspace-local choices (consent, disable
 * in this workspace, stop/start: localChoices.ts) stay here: a first window may need them before anything else.
 */
import * as vscode from 'vscode';
import type { HostCalls, HostCatalog, HostConsent, HostLifecycle } from '../host/api';
import { agentHooksStatus } from './agentHooks';
import type * as AgentSetup from './agentSetupCommands';
import { lazyBundle } from './lazyBundle';
import { zutDocuments } from './documents';
import type { HostControl } from './host';
import { registerLocalChoices } from './localChoices';
import type * as Management from './managementCommands';

export type { InstallOutcome } from './managementCommands';

/** Every command of managementCommands.ts (a Record: the compiler holds the two lists equal). */
const MANAGEMENT_COMMANDS: Record<Management.ManagementCommandId, true> = {
  'zut.reload': true,
  'zut.doctor': true,
  'zut.install': true,
  'zut.restartExtension': true,
  'zut.enableExtension': true,
  'zut.disableExtension': true,
  'zut.openManifest': true,
  'zut.openLogFile': true,
  'zut.removeExtension': true,
  'zut.callTool': true,
};

/** Registers the management commands (palette and Extensions view). */
export function registerManagement(context: vscode.ExtensionContext, host: HostLifecycle & HostCatalog & HostCalls & HostConsent, control: HostControl): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown): void => void context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  const load = lazyBundle<typeof Management>(context, 'management');
  const agentSetup = lazyBundle<typeof AgentSetup>(context, 'agent-setup');
  let commands: ReturnType<typeof Management.managementCommands> | undefined;
  const impl = () => (commands ??= load().managementCommands(context, host, control, { documents: zutDocuments, hooksStatus: agentHooksStatus, agentSetup }));
  for (const id of Object.keys(MANAGEMENT_COMMANDS) as Management.ManagementCommandId[]) reg(id, (...args) => impl()[id](...args));
  registerLocalChoices(reg, host);
}
