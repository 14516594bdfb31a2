/**
 * The Extensions view's workspace-local actions: consent (Allow, Don't Allow, Revoke Consent), "Disable
 * (Workspace)" / "Enable (Workspace)", and Stop / Start. The decisions are the Manager's (host/consent.ts); this
 * maps commands onto them. Every command also takes an extension name. (Remove is management.ts's, over
 * host/disk/trash.ts `moveToTrash`.)
 */
import * as vscode from 'vscode';
import type { HostCatalog, HostConsent } from '../host/api';
import type { ExtensionInfo } from '../host/types';
import { APPLIES } from './contextKeys';
import { resolveExtension } from './pickExtension';

type Reg = (id: string, fn: (...args: unknown[]) => unknown) => void;

/**
 * Registers the consent, workspace-disable and stop/start commands. From the Extensions view (multi-select) a
 * command acts on every selected extension it applies to, in one answer (VS Code passes the clicked row and the
 * selection); from the palette it asks which. "Allow All" allows everything waiting for consent.
 */
export function registerLocalChoices(reg: Reg, host: HostCatalog & HostConsent): void {
  const action =
    (verb: string, filter: (e: ExtensionInfo) => boolean, run: (names: string[]) => Promise<void>) =>
    async (target?: unknown, selection?: unknown): Promise<boolean> => {
      const selected = selectedInfos(host, target, selection).filter(filter);
      const picked = selected.length > 0 ? selected : [await resolveExtension(host, target, `${verb} which zut extension?`, filter, `No zut extension to ${verb.toLowerCase()}.`)];
      const names = picked.flatMap((i) => (i ? [i.name] : []));
      if (names.length === 0) return false;
      try {
        await run(names);
        return true;
      } catch (e) {
        void vscode.window.showErrorMessage(`${verb} ${names.join(', ')}: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
    };
  const each = (fn: (name: string) => Promise<void>) => async (names: string[]) => {
    for (const n of names) await fn(n);
  };
  reg('zut.allowExtension', action('Allow', APPLIES.allow, (ns) => host.answerConsent(ns, 'allow')));
  reg('zut.denyExtension', action("Don't allow", APPLIES.deny, (ns) => host.answerConsent(ns, 'deny')));
  reg('zut.allowAll', async () => {
    const names = host.pendingConsent().map((e) => e.name);
    if (names.length === 0) void vscode.window.showInformationMessage('No zut extension is waiting for consent.');
    else await host.answerConsent(names, 'allow');
    return names;
  });
  reg('zut.revokeConsent', action('Revoke consent for', APPLIES.revoke, each((n) => host.revokeConsent(n))));
  reg('zut.disableInWorkspace', action('Disable (Workspace)', APPLIES.disable, each((n) => host.setDisabledInWorkspace(n, true))));
  reg('zut.enableInWorkspace', action('Enable (Workspace)', APPLIES.enable, each((n) => host.setDisabledInWorkspace(n, false))));
  reg('zut.stopExtension', action('Stop', APPLIES.stop, each((n) => host.stopExtension(n))));
  reg('zut.startExtension', action('Start', APPLIES.start, each((n) => host.startExtension(n))));
}

/**
 * The extensions a view command acts on: the selection when the clicked row is part of it (VS Code's second
 * argument with `canSelectMany`), else none (the caller falls back to the one target).
 */
function selectedInfos(host: HostCatalog, target: unknown, selection: unknown): ExtensionInfo[] {
  if (!Array.isArray(selection) || selection.length < 2) return [];
  const dirOf = (n: unknown): string | undefined => (typeof n === 'object' && n !== null ? (n as { info?: ExtensionInfo }).info?.dir : undefined);
  const dirs = new Set(selection.map(dirOf).filter((d): d is string => d !== undefined));
  const clicked = dirOf(target);
  if (clicked === undefined || !dirs.has(clicked)) return [];
  return host.extensions().filter((e) => dirs.has(e.dir) && e.state !== 'shadowed');
}
