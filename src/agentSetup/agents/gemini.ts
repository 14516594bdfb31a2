/**
 * Gemini CLI's set-up row (types.ts): hooks and the MCP server `zut` in its settings.json (user:
 * `~/.gemini/settings.json`, workspace: `<folder>/.gemini/settings.json`; geminiSettings.ts), and whether Gemini CLI
 * will run them: only in a folder it trusts (geminiTrust.ts). The installer does not trust a folder itself — that is
 * the user's call about a repository, and it widens more than hooks (the folder's own settings, .env and MCP
 * servers) — so `check` reports an untrusted workspace as a problem with the exact line to add. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { userFile } from '../../host/disk/userFile';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import type { HookScope, Installation } from '../hookInstall';
import { GEMINI_HOOK_NAME, geminiEntry, geminiSettingsFile, isOurEntry, parseSettings, withHooks, withMcp, withoutHooks, withoutMcp } from './geminiSettings';
import { geminiTrust, trustedFoldersFile } from './geminiTrust';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

type Edit = (file: string, text: string | undefined) => { text: string | undefined; changes: string[] };

/** Applies `edit` to the scope's settings file through the careful writer; the step when something changed. */
async function change(inst: Installation, scope: HookScope, edit: Edit): Promise<SetupStep[]> {
  const file = geminiSettingsFile(inst, scope);
  const f = await userFile(file, scope === 'workspace' ? { within: inst.workspace } : {});
  const { text, changes } = edit(f.file, f.text);
  if (text !== undefined && text !== f.text) await f.write(text);
  return changes.length > 0 ? [{ file, changes }] : [];
}

const onPath = (bin: string) => (process.env.PATH ?? '').split(path.delimiter).some((d) => d !== '' && existsSync(path.join(d, bin)));

export const GEMINI_ROW: AgentSetupRow = {
  agent: 'gemini',
  label: 'Gemini CLI',
  scopes: ['user', 'workspace'],
  found: (inst) => existsSync(path.join(inst.home, '.gemini')) || onPath(inst.platform === 'win32' ? 'gemini.cmd' : 'gemini'),
  installHooks: (inst, scope) => change(inst, scope, (file, text) => withHooks(file, text, inst)),
  uninstallHooks: (inst, scope) => change(inst, scope, (file, text) => withoutHooks(file, text, inst)),
  installMcp: (inst, scope) => change(inst, scope, (file, text) => withMcp(file, text, inst, scope)),
  uninstallMcp: (inst, scope) => change(inst, scope, (file, text) => withoutMcp(file, text, inst)),
  check: (inst, scope) => checkGemini(inst, scope),
};

/** The scope's settings as JSON ({} when there is no file). */
async function readSettings(inst: Installation, scope: HookScope): Promise<Record<string, unknown>> {
  const file = geminiSettingsFile(inst, scope);
  const f = await userFile(file, scope === 'workspace' ? { within: inst.workspace } : {});
  return parseSettings(file, f.text);
}

/** What is installed in `scope`, and whether Gemini CLI will run the hooks in the workspace. */
async function checkGemini(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const json = await readSettings(inst, scope);
  const hooks = isObject(json.hooks) ? json.hooks : {};
  const { ours } = geminiEntry(inst, 'BeforeTool');
  const before = hooks.BeforeTool;
  const hooksInstalled = Array.isArray(before) && before.some((e) => isOurEntry(e, ours));
  const mcpInstalled = isObject(json.mcpServers) && isObject(json.mcpServers[MCP_SERVER_NAME]);
  const problems: string[] = [];
  let hooksRun: boolean | undefined;
  if (hooksInstalled) {
    const trust = await geminiTrust(inst.home, inst.workspace);
    hooksRun = trust.trusted;
    if (!trust.trusted) {
      problems.push(
        `Gemini CLI runs no hooks in a folder it does not trust, and ${inst.workspace} is not trusted (${trust.why}): zut's guards would be skipped there ` +
          `(gemini -p refuses to start; interactively, a "don't trust" answer runs without hooks). If you trust this repository, add ` +
          `${JSON.stringify(inst.workspace)}: "TRUST_FOLDER" to ${trustedFoldersFile(inst.home)}, or answer Gemini CLI's trust prompt (/permissions) with "Trust folder".`,
      );
    }
    // `hooksConfig` (Gemini CLI's settings: `enabled`, default true; `disabled`, hook names) of either file.
    for (const other of [json, ...(scope === 'workspace' ? [await readSettings(inst, 'user')] : [])]) {
      const config = isObject(other.hooksConfig) ? other.hooksConfig : {};
      if (config.enabled === false) problems.push(`hooksConfig.enabled is false in Gemini CLI's settings: it runs no hooks (remove it, or set it to true).`);
      if (Array.isArray(config.disabled) && config.disabled.includes(GEMINI_HOOK_NAME)) problems.push(`hooksConfig.disabled names "${GEMINI_HOOK_NAME}" in Gemini CLI's settings: it skips zut's hooks (remove it from that list).`);
    }
    if (problems.length > 0) hooksRun = false;
  }
  return { agent: 'gemini', found: GEMINI_ROW.found(inst), hooksInstalled, mcpInstalled, ...(hooksInstalled && { hooksRun }), problems };
}
