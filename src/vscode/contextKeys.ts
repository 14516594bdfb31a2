/**
 * Context keys for `when` clauses: `zut.hasExtensions` is true while the host knows at least one zut extension
 * (in any state), so the Command Palette offers the per-extension commands (run, call, restart, …) only when they
 * can work. Set on every change burst of the host, only when the value changes.
 */
import * as vscode from 'vscode';
import type { HostCatalog } from '../host/api';

/** The context key names this extension sets. */
export const CONTEXT_KEYS = { hasExtensions: 'zut.hasExtensions' } as const;

/** Keeps the context keys in step with the host. */
export function registerContextKeys(context: vscode.ExtensionContext, host: HostCatalog): void {
  let last: boolean | undefined;
  const update = (): void => {
    const has = host.extensions().length > 0;
    if (has === last) return;
    last = has;
    void Promise.resolve(vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasExtensions, has)).catch(() => undefined);
  };
  context.subscriptions.push(host.onDidChangeExtensions(update));
  update();
}
