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
    void vscode.window.showInformationMessage('No matching zut extensions.');
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

/** How the destination pick reads (install and new extension word it each their own way). */
export interface DestinationWords {
  title?: string;
  placeHolder: string;
  /** The global entry first (install) or last (new extension). */
  globalFirst: boolean;
  globalDetail: string;
  projectDetail: string;
}

/** Global or one workspace folder's `.zut/extensions`: the chosen extensions directory. */
export async function pickDestination(zutHome: string, words: DestinationWords): Promise<string | undefined> {
  const global = { label: 'Global', description: globalExtensionsDir(zutHome), detail: words.globalDetail, root: globalExtensionsDir(zutHome) };
  const projects = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({
      label: `Project: ${f.name}`,
      description: projectExtensionsDir(f.uri.fsPath),
      detail: words.projectDetail,
      root: projectExtensionsDir(f.uri.fsPath),
    }));
  const items = words.globalFirst ? [global, ...projects] : [...projects, global];
  return (await vscode.window.showQuickPick(items, { title: words.title, placeHolder: words.placeHolder }))?.root;
}
