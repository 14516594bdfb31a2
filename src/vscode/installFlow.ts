/**
 * "Zut: Install Extension…": where from (a folder, or a git URL cloned with `git clone --depth 1`), staging with a
 * cancellable progress notification, and the plan — what the extension will run (manifest exec/args) and its files —
 * in a modal before anything is installed, since an installed global extension runs without a consent prompt. The
 * install path is the CLI's (host/disk/install.ts, installSources.ts): the same validation, link refusal and cleanup.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { stageInstall, type StagedInstall } from '../host/disk/install';
import { planDetail } from '../host/disk/installPlan';
import { InstallAborted, isGitUrl, stageFromGit } from '../host/disk/installSources';

/** A folder that exists, else a git URL, else undefined (the caller says why). */
async function kindOf(source: string): Promise<'folder' | 'git' | undefined> {
  try {
    if ((await fs.stat(source)).isDirectory()) return 'folder';
  } catch {
    /* not a local path: maybe a URL */
  }
  return isGitUrl(source) ? 'git' : undefined;
}

/** Asks for the source: a folder (open dialog) or a git URL (input box). */
export async function pickInstallSource(): Promise<string | undefined> {
  const how = await vscode.window.showQuickPick(
    [
      { label: 'From a Folder…', detail: 'A folder with extension.json (copied)', from: 'folder' as const },
      { label: 'From a Git URL…', detail: 'Any URL git accepts, cloned with git clone --depth 1 (https://…, git@host:repo, file://…)', from: 'git' as const },
    ],
    { title: 'Zut: Install Extension (1/3)', placeHolder: 'Install a zut extension from…', ignoreFocusOut: true },
  );
  if (!how) return undefined;
  if (how.from === 'git') {
    return vscode.window.showInputBox({
      title: 'Zut: Install Extension (2/3): a git URL',
      prompt: 'Cloned shallowly; nothing runs and nothing is built before you confirm what it will run.',
      placeHolder: 'https://github.com/you/your-extension.git',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' || isGitUrl(v.trim()) ? undefined : 'Not a git URL (https://…, ssh://…, git@host:path, file://…)'),
    }).then((v) => v?.trim() || undefined);
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Install',
    title: 'Zut: Install Extension (2/3): a folder with extension.json',
  });
  return picked?.[0]?.fsPath;
}

/**
 * Stages `source` (a folder or a git URL) for `destRoot` under a cancellable progress notification. Resolves with
 * undefined when cancelled (nothing left behind); throws the install error otherwise.
 */
export async function stageSource(source: string, destRoot: string): Promise<StagedInstall | undefined> {
  const kind = await kindOf(source);
  if (!kind) throw new Error(`install: ${source} is not a folder, and not a git URL`);
  const title = kind === 'git' ? `Cloning ${source}` : `Copying ${source}`;
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: kind === 'git' }, (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const staged = kind === 'git' ? stageFromGit(source, destRoot, { signal: abort.signal }) : stageInstall(source, destRoot);
      return staged.finally(() => sub.dispose());
    });
  } catch (e) {
    if (e instanceof InstallAborted) return undefined;
    throw e;
  }
}

/** The plan in a modal, `warnings` first (a name another extension has): "Install" resolves true; anything else false. */
export async function confirmPlan(staged: StagedInstall, warnings: readonly string[] = []): Promise<boolean> {
  const { manifest } = staged.plan;
  const answer = await vscode.window.showWarningMessage(
    `Install the zut extension "${manifest.name}"? It will run what is listed below.`,
    { modal: true, detail: planDetail(staged.plan, warnings) },
    'Install',
  );
  return answer === 'Install';
}
