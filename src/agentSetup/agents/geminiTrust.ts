/**
 * Whether Gemini CLI trusts a folder, as Gemini CLI 0.61.0 decides it (its trustedFolders.ts `checkPathTrust`):
 * `$GEMINI_CLI_TRUST_WORKSPACE` (`true`/`false`), `$GEMINI_RESTRICTED_MODE=true` (never), `security.folderTrust.enabled:
 * false` in the user's settings (every folder trusted), else the longest rule of `~/.gemini/trustedFolders.json`
 * (`$GEMINI_CLI_TRUSTED_FOLDERS_PATH`) covering the folder's real path: `TRUST_FOLDER` (that folder and below),
 * `TRUST_PARENT` (its parent and below), `DO_NOT_TRUST`. No rule: not trusted. In a folder it does not trust, Gemini
 * CLI runs NO settings hooks — the user's either (its hookRegistry: "Project hooks disabled because the folder is not
 * trusted") — and `gemini -p` refuses to start (exit 55); interactively it asks, and a "no" runs the session without
 * them. We never trust a folder for the user: trusting a folder is their decision about that repository (it also
 * lets the folder's own .gemini/settings.json, .env and MCP servers run); the check names the exact line instead.
 * VS Code-free.
 */
import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isObject } from '../../protocol/json';

export type GeminiTrust = { trusted: true; why: string } | { trusted: false; why: string };

/** The trusted-folders file Gemini CLI reads. */
export function trustedFoldersFile(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(home, '.gemini', 'trustedFolders.json');
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};
const within = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const readJson = async (file: string): Promise<unknown> => {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} cannot be read as JSON: ${(e as Error).message}`);
  }
};

/** Whether Gemini CLI trusts `folder` for the user whose home is `home`. */
export async function geminiTrust(home: string, folder: string, env: NodeJS.ProcessEnv = process.env): Promise<GeminiTrust> {
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false, why: 'the environment says not to trust it ($GEMINI_RESTRICTED_MODE / $GEMINI_CLI_TRUST_WORKSPACE)' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { trusted: true, why: '$GEMINI_CLI_TRUST_WORKSPACE=true' };
  const settings = await readJson(path.join(home, '.gemini', 'settings.json')).catch(() => undefined);
  const security = isObject(settings) && isObject(settings.security) ? settings.security : undefined;
  if (security && isObject(security.folderTrust) && security.folderTrust.enabled === false) return { trusted: true, why: 'folder trust is off (security.folderTrust.enabled: false)' };
  const file = trustedFoldersFile(home, env);
  const rules = await readJson(file);
  if (rules !== undefined && !isObject(rules)) throw new Error(`${file} is not a JSON object (Gemini CLI refuses to start with it)`);
  const where = real(folder);
  let best: { rule: string; level: unknown } | undefined;
  for (const [rule, level] of Object.entries(rules ?? {})) {
    const base = level === 'TRUST_PARENT' ? path.dirname(rule) : rule;
    if (within(real(base), where) && (!best || rule.length > best.rule.length)) best = { rule, level };
  }
  if (best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT') return { trusted: true, why: `${file}: "${best.rule}": "${String(best.level)}"` };
  if (best?.level === 'DO_NOT_TRUST') return { trusted: false, why: `${file} says "${best.rule}": "DO_NOT_TRUST"` };
  return { trusted: false, why: `no rule of ${file} covers it` };
}
