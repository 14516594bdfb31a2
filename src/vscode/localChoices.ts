/**
 * The Extensions view's workspace-local actions: consent (Allow, Don't Allow, Revoke Consent), "Disable
 * (Workspace)" / "Enable (Workspace)", Stop / Start, and Remove's move to the trash. The decisions are the
 * Manager's (host/consent.ts); this maps commands onto them. Every command also takes an extension name.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostCatalog, HostConsent } from '../host/api';
import { MANIFEST_FILE } from '../host/disk/manifest';
import type { ExtensionInfo } from '../host/types';
import { resolveExtension } from './pickExtension';

type Reg = (id: string, fn: (...args: unknown[]) => unknown) => void;

/** Registers the consent, workspace-disable and stop/start commands. */
export function registerLocalChoices(reg: Reg, host: HostCatalog & HostConsent): void {
  const action =
    (verb: string, filter: (e: ExtensionInfo) => boolean, run: (name: string) => Promise<void>) =>
    async (target?: unknown): Promise<boolean> => {
      const info = await resolveExtension(host, target, `${verb} which zut extension?`, filter);
      if (!info) return false;
      try {
        await run(info.name);
        return true;
      } catch (e) {
        void vscode.window.showErrorMessage(`${verb} ${info.name}: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
    };
  const waiting = (e: ExtensionInfo): boolean => e.state === 'consent' || e.state === 'denied';
  reg('zut.allowExtension', action('Allow', waiting, (n) => host.answerConsent([n], 'allow')));
  reg('zut.denyExtension', action("Don't allow", (e) => e.state === 'consent', (n) => host.answerConsent([n], 'deny')));
  reg('zut.revokeConsent', action('Revoke consent for', (e) => e.fingerprint !== undefined && !waiting(e), (n) => host.revokeConsent(n)));
  reg('zut.disableInWorkspace', action('Disable (Workspace)', (e) => !e.disabledInWorkspace && e.state !== 'disabled', (n) => host.setDisabledInWorkspace(n, true)));
  reg('zut.enableInWorkspace', action('Enable (Workspace)', (e) => e.disabledInWorkspace === true, (n) => host.setDisabledInWorkspace(n, false)));
  reg('zut.stopExtension', action('Stop', (e) => e.pid !== undefined, (n) => host.stopExtension(n)));
  reg('zut.startExtension', action('Start', (e) => e.state === 'stopped', (n) => host.startExtension(n)));
}

/**
 * Moves an extension directory to the trash (VS Code's, through the file system provider). Where the provider has
 * no trash (a remote or web host), it is moved into `<zutHome>/trash/<name>-<time>` instead. Refuses a directory
 * without extension.json. Resolves with `trash` or the directory it was moved to.
 */
export async function trashExtension(dir: string, zutHome: string): Promise<string> {
  const target = path.resolve(dir);
  try {
    await fs.access(path.join(target, MANIFEST_FILE));
  } catch {
    throw new Error(`remove: ${target} has no ${MANIFEST_FILE}; not removing it`);
  }
  try {
    await vscode.workspace.fs.delete(vscode.Uri.file(target), { recursive: true, useTrash: true });
    return 'trash';
  } catch {
    const dest = path.join(zutHome, 'trash', `${path.basename(target)}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    await fs.rename(target, dest).catch(async () => {
      await fs.cp(target, dest, { recursive: true, verbatimSymlinks: true });
      await fs.rm(target, { recursive: true, force: true });
    });
    return dest;
  }
}
