/**
 * Workspace Trust. In an untrusted workspace the Manager marks project-local and explicit extensions `blocked`
 * (never spawned: they are programs from the repository or from workspace settings); global ones run.
 * Granting trust reloads so the blocked ones start.
 */
import * as vscode from 'vscode';

/** The Manager's `isTrusted` option. */
export function isWorkspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/**
 * Calls `onGranted` when the user trusts the workspace, and registers `zut.manageTrust` (the action on blocked
 * extensions in the Extensions view).
 */
export function registerTrust(context: vscode.ExtensionContext, onGranted: () => void): void {
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(onGranted),
    vscode.commands.registerCommand('zut.manageTrust', () => vscode.commands.executeCommand('workbench.trust.manage')),
  );
}
