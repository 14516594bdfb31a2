/**
 * The Problems panel: each zut extension's load error and diagnostics as diagnostics on its `extension.json`
 * (decided by src/host/disk/problems.ts), refreshed once after each burst of changes of the extensions, cleared
 * once it loads cleanly.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { HostCatalog, HostLogs } from '../host/api';
import { manifestProblems, problemRange } from '../host/disk/problems';

export function registerProblems(context: vscode.ExtensionContext, host: HostCatalog & HostLogs): void {
  const collection = vscode.languages.createDiagnosticCollection('zut');
  context.subscriptions.push(collection);
  let generation = 0;
  const refresh = async (): Promise<void> => {
    const mine = ++generation;
    const problems = manifestProblems(host.extensions());
    const entries = await Promise.all(
      [...problems].map(async ([file, list]) => {
        const text = await fs.readFile(file, 'utf8').catch(() => '');
        const diagnostics = list.map((p) => {
          const r = problemRange(text, p);
          const severity = p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
          const d = new vscode.Diagnostic(new vscode.Range(r.line, r.character, r.endLine, r.endCharacter), p.message, severity);
          d.source = 'zut';
          return d;
        });
        return { file, diagnostics };
      }),
    );
    if (mine !== generation) return; // a newer refresh is under way
    collection.clear();
    for (const e of entries) collection.set(vscode.Uri.file(e.file), e.diagnostics);
  };
  // One refresh per burst of changes (a window's start fires several per extension): after the current task.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    timer ??= setTimeout(() => {
      timer = undefined;
      void refresh().catch(() => undefined);
    }, 0);
  };
  context.subscriptions.push(host.onDidChangeExtensions(schedule), host.onDidFail(schedule), { dispose: () => clearTimeout(timer) });
  schedule();
}
