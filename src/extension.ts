/**
 * zut-vscode: hosts zut extensions in VS Code. `activate` reads as a table of contents: one register call per surface.
 */
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Zut', { log: true });
  context.subscriptions.push(log);
  log.info(`zut-vscode ${String(context.extension.packageJSON.version)} activated`);
}

export function deactivate(): void {}
