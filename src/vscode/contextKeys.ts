/**
 * Context keys for `when` clauses, so the Command Palette and the Extensions view's title offer a command only when
 * it has something to act on (a per-extension command with nothing to act on used to answer only "No matching zut
 * extensions."): `zut.hasExtensions` while the host knows any extension; `zut.consentPending` while one waits for
 * consent (Allow All, Don't Allow); `zut.hasAnswerable` (waiting or denied: Allow), `zut.hasAllowed` (Revoke Consent),
 * `zut.hasLive` (Stop), `zut.hasStopped` (Start), `zut.hasWorkspaceDisabled` (Enable (Workspace)). Set on every
 * change burst of the host, each only when its value changes.
 */
import * as vscode from 'vscode';
import type { HostCatalog } from '../host/api';
import type { ExtensionInfo } from '../host/types';

/** Waiting for an answer, or denied: Allow applies. */
const isAnswerable = (e: ExtensionInfo): boolean => e.state === 'consent' || e.state === 'denied';

/**
 * Which extensions each per-extension command acts on (localChoices.ts): its filter, and its context key's test
 * below, from one place.
 */
export const APPLIES = {
  allow: isAnswerable,
  deny: (e) => e.state === 'consent',
  revoke: (e) => e.fingerprint !== undefined && !isAnswerable(e),
  disable: (e) => !e.disabledInWorkspace && e.state !== 'disabled',
  enable: (e) => e.disabledInWorkspace === true,
  stop: (e) => e.pid !== undefined,
  start: (e) => e.state === 'stopped',
} satisfies Record<string, (e: ExtensionInfo) => boolean>;

/** Each context key and which extensions make it true (any of them). */
const CONTEXT_KEYS: Readonly<Record<string, (e: ExtensionInfo) => boolean>> = {
  'zut.hasExtensions': () => true,
  'zut.consentPending': APPLIES.deny,
  'zut.hasAnswerable': APPLIES.allow,
  'zut.hasAllowed': APPLIES.revoke,
  'zut.hasLive': APPLIES.stop,
  'zut.hasStopped': APPLIES.start,
  'zut.hasWorkspaceDisabled': APPLIES.enable,
};

/** Keeps the context keys in step with the host. */
export function registerContextKeys(context: vscode.ExtensionContext, host: HostCatalog): void {
  const last = new Map<string, boolean>();
  const update = (): void => {
    const all = host.extensions();
    for (const [key, applies] of Object.entries(CONTEXT_KEYS)) {
      const value = all.some(applies);
      if (last.get(key) === value) continue;
      last.set(key, value);
      void Promise.resolve(vscode.commands.executeCommand('setContext', key, value)).catch(() => undefined);
    }
  };
  context.subscriptions.push(host.onDidChangeExtensions(update));
  update();
}
