/**
 * Picking what a command is about: the zut extension (a view node, a name, or a quick pick) and where a new or
 * installed extension goes (global, a workspace folder's project directory, or an absolute directory).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostCatalog } from '../host/api';
import { globalExtensionsDir, projectExtensionsDir } from '../host/disk/paths';
import type { ExtensionInfo } from '../host/types';
import { nameOf } from './output';

/** The extension a command is about: a view node, a name, or a quick pick (optionally filtered). */
export async function resolveExtension(
  host: Pick<HostCatalog, 'extensions'>,
  target: unknown,
  placeHolder: string,
  filter: (e: ExtensionInfo) => boolean = () => true,
  none = 'No zut extension matches.',
): Promise<ExtensionInfo | undefined> {
  const all = host.extensions();
  const fromNode = typeof target === 'object' && target !== null ? (target as { info?: ExtensionInfo }).info : undefined;
  if (fromNode?.dir) return all.find((e) => e.dir === fromNode.dir) ?? fromNode;
  const name = nameOf(target);
  if (name !== undefined) {
    const n = name.toLowerCase();
    const found = all.filter((e) => e.name.toLowerCase() === n);
    const info = found.find((e) => e.state !== 'shadowed') ?? found[0];
    if (!info) void vscode.window.showErrorMessage(`No zut extension named "${name}".`);
    return info;
  }
  const items = all.filter(filter).map((e) => ({ label: e.name, description: `${e.state} · ${e.scope}`, detail: e.dir, info: e }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.info;
}

/** The one destination rule: `global`, `project` (the first folder) or an absolute extensions directory. */
export function destinationRoot(dest: string, zutHome: string): string | undefined {
  if (dest === 'global') return globalExtensionsDir(zutHome);
  const first = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (dest === 'project') return first ? projectExtensionsDir(first.uri.fsPath) : undefined;
  return path.isAbsolute(dest) ? dest : undefined;
}

/**
 * Global or one workspace folder's `.zut/extensions`: the chosen extensions directory. "New Extension…" and
 * "Install Extension…" ask it in the same words and order (the project first), under their own `title`.
 */
export async function pickDestination(zutHome: string, title: string): Promise<string | undefined> {
  const global = {
    label: 'Global',
    description: globalExtensionsDir(zutHome),
    detail: 'All your workspaces, yours only ($ZUT_HOME/extensions); runs without being asked for',
    root: globalExtensionsDir(zutHome),
  };
  const projects = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({
      label: `Project: ${f.name}`,
      description: projectExtensionsDir(f.uri.fsPath),
      detail: "This project only, shared through its repository (.zut/extensions); runs in a trusted workspace, allowed as you wrote it",
      root: projectExtensionsDir(f.uri.fsPath),
    }));
  return (await vscode.window.showQuickPick([...projects, global], { title, placeHolder: 'Where should it go?', ignoreFocusOut: true }))?.root;
}
