/**
 * zut-vscode: hosts zut extensions in VS Code. `activate` reads as a table of contents: one register call per
 * surface. Nothing here waits for extensions: discovery and spawning run in the background.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from './host/api';
import { registerAgentTools } from './vscode/agentTools';
import { registerChat } from './vscode/chat/participant';
import { registerCommands } from './vscode/commands';
import { registerConsentPrompt } from './vscode/consent';
import { registerExtensionsView } from './vscode/extensionsTree';
import { registerContextKeys } from './vscode/contextKeys';
import { registerDocuments } from './vscode/documents';
import { createHost } from './vscode/host';
import { VsCodeHostUi } from './vscode/hostUi';
import { registerManagement } from './vscode/management';
import { registerNewExtension } from './vscode/newExtension';
import { registerProblems } from './vscode/problems';

/** What `activate` returns (`vscode.extensions.getExtension('zut.zut-vscode').exports`), for tests and scripts. */
export interface ZutApi {
  readonly host: ExtensionHost;
}

let running: { stop(): Promise<void> } | undefined;

export function activate(context: vscode.ExtensionContext): ZutApi {
  const log = vscode.window.createOutputChannel('Zut', { log: true });
  context.subscriptions.push(log);
  log.info(`zut-vscode ${String((context.extension.packageJSON as { version?: unknown }).version)} activated`);

  registerDocuments(context);
  const ui = new VsCodeHostUi(context, { log: (m) => log.warn(m) });
  context.subscriptions.push(ui);
  const host = createHost(context, ui, log);
  running = host;
  ui.attach(host);
  registerCommands(context, host, ui);
  registerExtensionsView(context, host);
  registerContextKeys(context, host);
  registerManagement(context, host);
  registerConsentPrompt(context, host);
  registerNewExtension(context, host);
  registerProblems(context, host);
  registerChat(context, host, ui);
  registerAgentTools(context, host, (listener) => ui.onDidNote((n) => listener({ ext: n.ext, message: n.text })), (m) => log.info(m));
  // Tests check this line comes before the first "Loaded …": activation must not wait for extensions.
  log.info('Activation complete; zut extensions start in the background');
  return { host };
}

/** Stops every extension process (shutdown → grace → SIGTERM → SIGKILL) before VS Code unloads us. */
export async function deactivate(): Promise<void> {
  const host = running;
  running = undefined;
  await host?.stop();
}
