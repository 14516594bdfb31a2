/**
 * The one reader of zut's settings in VS Code, for every surface: `zutSettings()` validates the whole `zut` section
 * (src/ui-model/settings.ts), user-scoped where trust requires (`USER_ONLY_KEYS`: a workspace's value is ignored and
 * named), and keeps that reading until a `zut` setting changes — one `getConfiguration('zut')` copies the whole
 * section, and the Extensions view asks for each tool row (at a window's start with 20 extensions this was the
 * extension host's second largest allocation). `watchSettings` drops the copy on a change; registered first in
 * `activate`, it runs before any other surface's `onDidChangeConfiguration` listener reads again.
 */
import * as vscode from 'vscode';
import { readSettings, userScopedGetter, type SettingsRead } from '../ui-model/settings';

/** A reading of the settings: the values, invalid ones named, and user-only settings a workspace tried to set. */
export interface SettingsReading extends SettingsRead {
  /** `zut.<key>` of each user-only setting a workspace or folder sets (ignored). */
  ignored: string[];
}

const cache: { on: boolean; value?: SettingsReading } = { on: false };

function read(): SettingsReading {
  const ignored: string[] = [];
  return { ...readSettings(userScopedGetter(vscode.workspace.getConfiguration('zut'), ignored)), ignored };
}

/** zut's settings now (the kept reading while `watchSettings` is registered; a fresh one otherwise). */
export function zutSettings(): SettingsReading {
  if (!cache.on) return read();
  return (cache.value ??= read());
}

/** Keeps `zutSettings()`'s reading, dropping it on every change of a zut setting (before any later listener). */
export function watchSettings(): vscode.Disposable {
  cache.on = true;
  cache.value = undefined;
  const sub = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('zut')) cache.value = undefined;
  });
  return new vscode.Disposable(() => {
    sub.dispose();
    cache.on = false;
    cache.value = undefined;
  });
}
