/**
 * Reading zut's settings section from VS Code: one \`getConfiguration('zut')\` per read of all the keys (each call
 * copies the section; one call per key made a settings read allocate ~25 copies).
 */
import * as vscode from 'vscode';

/** A getter over one snapshot of the \`zut\` section, for \`readSettings\` (src/ui-model/settings.ts). */
export function sectionGetter(): (key: string) => unknown {
  const section = vscode.workspace.getConfiguration('zut');
  return (key) => section.get(key);
}
