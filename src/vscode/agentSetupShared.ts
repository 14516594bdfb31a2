/**
 * What the agent set-up commands of dist/agent-setup.js share (agentSetupCommands.ts, copyMcpCommand.ts): the folder
 * a command is for, an error's text, a set-up's changes as text.
 */
import * as vscode from 'vscode';
import type { SetupStep } from '../agentSetup/agents';

export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const stepsText = (steps: readonly SetupStep[]) => steps.map((s) => [s.file, ...s.changes.map((c) => `  ${c}`)].join('\n')).join('\n');

/** The folder the args name, the only one open, or the one picked; undefined when none (or cancelled). */
export async function pickFolder(given: string | undefined, placeHolder: string): Promise<string | undefined> {
  if (given) return given;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) throw new Error('Open a folder first: the configuration is for one workspace folder.');
  if (folders.length === 1) return folders[0].uri.fsPath;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder }))?.uri.fsPath;
}
