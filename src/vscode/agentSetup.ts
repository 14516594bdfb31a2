/**
 * The stable launcher and the two commands that use it ("Zut: Copy MCP Client Configuration…", "Zut: Guard Agent
 * Tools…"), and "Zut: Where zut Reaches" (reach.ts: which harness and agent zut's tools, skills and guards reach, with
 * the fix of each gap): registered here, implemented in dist/agent-setup.js (agentSetupCommands.ts), loaded at run time so they
 * stay out of dist/extension.js's size limit. The launcher is written or updated after activate() returns, like the
 * host's start: never on activation's path.
 */
import * as vscode from 'vscode';
import type * as Commands from './agentSetupCommands';
import { lazyBundle } from './lazyBundle';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function registerAgentSetup(context: vscode.ExtensionContext, log: (line: string) => void): void {
  const load = lazyBundle<typeof Commands>(context, 'agent-setup');
  const launcher = new Promise<void>((resolve) => setImmediate(resolve)).then(() => load().updateLauncher(context, log));
  void launcher.catch((e: unknown) => log(`launcher: not written: ${errorText(e)}`));
  const withLauncher = <A>(fn: (c: typeof Commands, launcher: string, args: A) => Promise<unknown>) => (args?: A) =>
    launcher.then(
      (l) => load().runCommand(() => fn(load(), l, args ?? ({} as A))),
      (e: unknown) => void vscode.window.showErrorMessage(`The zut-host launcher could not be written: ${errorText(e)}`),
    );
  context.subscriptions.push(
    vscode.commands.registerCommand('zut.copyMcpConfig', withLauncher<Commands.CopyArgs>((c, l, a) => c.copyMcpConfig(context, l, a))),
    vscode.commands.registerCommand('zut.guardAgentTools', withLauncher<Commands.GuardArgs>((c, l, a) => c.guardAgentTools(context, l, a))),
    vscode.commands.registerCommand('zut.showReach', (args?: Commands.ReachArgs) => load().runCommand(() => load().showReach(context, args ?? {}))),
  );
}
