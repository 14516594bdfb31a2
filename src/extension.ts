/**
 * zut-vscode: hosts zut extensions in VS Code. `activate` reads as a table of contents: one register call per
 * surface. Nothing here waits for extensions: discovery and spawning run in the background.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from './host/api';
import { registerAgentModeMcpServer } from './vscode/agentModeMcpServer';
import { registerAgentHooks } from './vscode/agentHooks';
import { registerAgentSetup } from './vscode/agentSetup';
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
import { watchSettings } from './vscode/settingsRead';

/** What `activate` returns (`vscode.extensions.getExtension('zut.zut-vscode').exports`), for tests and scripts. */
export interface ZutApi {
  readonly host: ExtensionHost;
  /** How long activation took (the in-host suite records these for `npm run bench`). */
  readonly timings: ActivationTimings;
}

/** Milliseconds measured with `performance.now()` from the start of `activate()`. */
export interface ActivationTimings {
  /** Time spent in `activate()` itself. */
  readonly activateMs: number;
  /** Resolves once the first start is over (every extension ready or failed): its time and who became ready. */
  readonly started: Promise<{ ms: number; ready: string[] }>;
  /**
   * Set by dist/main.js (src/main.ts), whose activate() returns before this bundle is loaded: that call's own time
   * (what VS Code's figure holds of ours beyond loading dist/main.js), the wait from its return to the load's task
   * (the extension host's other work), the load (a task of its own), whether its code cache served, and the time
   * from dist/main.js's activate() call to its promise resolving (this activate() returned).
   */
  callMs?: number;
  waitMs?: number;
  bundleLoadMs?: number;
  codeCache?: 'used' | 'none' | 'rejected';
  resolvedMs?: number;
}

let running: { stop(): Promise<void> } | undefined;

export function activate(context: vscode.ExtensionContext): ZutApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Zut', { log: true });
  context.subscriptions.push(log);
  log.info(`zut-vscode ${String((context.extension.packageJSON as { version?: unknown }).version)} activated`);

  // First: the one settings reader drops its copy on a change before any surface's listener reads again.
  context.subscriptions.push(watchSettings());
  registerDocuments(context);
  const ui = new VsCodeHostUi(context, { log: (m) => log.warn(m) });
  context.subscriptions.push(ui);
  const { host, control } = createHost(context, ui, log);
  running = host;
  ui.attach(host);
  registerCommands(context, host, ui);
  registerExtensionsView(context, host);
  registerContextKeys(context, host);
  registerManagement(context, host, control);
  registerConsentPrompt(context, host);
  registerNewExtension(context, host, control);
  registerProblems(context, host);
  registerChat(context, host, ui);
  registerAgentModeMcpServer(context, host, (listener) => ui.onDidNote((n) => listener({ ext: n.ext, message: n.text })), (m) => log.info(m));
  registerAgentHooks(context, host, (m) => log.info(m));
  registerAgentSetup(context, (m) => log.info(m));
  const activateMs = performance.now() - t0;
  // Tests check this line comes before the first "Loaded …": activation must not wait for extensions.
  log.info(`Activation complete in ${activateMs.toFixed(1)} ms; zut extensions start in the background`);
  const started = control.started.then((r) => ({ ms: performance.now() - t0, ready: r.ready }));
  void started.catch(() => undefined);
  return { host, timings: { activateMs, started } };
}

/** Stops every extension process (shutdown → grace → SIGTERM → SIGKILL) before VS Code unloads us. */
export async function deactivate(): Promise<void> {
  const host = running;
  running = undefined;
  await host?.stop();
}
