/**
 * Codex CLI's set-up row (Codex 0.169.0; test/agents/codex.test.mjs): zut's hooks in `$CODEX_HOME/hooks.json`
 * (default `~/.codex`; Claude Code's shape: `hooks.<Event>[{matcher?, hooks: [{type: "command", command, timeout}]}]`),
 * their trust in `config.toml` (codexTrust.ts — without it Codex skips them silently), and zut's MCP server as
 * `[mcp_servers.zut]` (command, args) in the same config.toml. User scope only: a project's `.codex/hooks.json` runs
 * only once the person trusts the project, a decision zut does not take for them.
 *
 * Fail closed: Codex treats a hook that exits other than 0 or 2, prints what it cannot read, or outlives its timeout as
 * a failure and runs the call (observed). zut's own answer already denies on every failure it sees (failure.ts) and
 * answers within HOOK_BUDGET_MS, inside the 30 s timeout written here; on POSIX the PreToolUse command is also wrapped
 * so that a hook process that dies without answering (killed, Node missing) exits 2 with a reason on stderr — Codex's
 * deny. Files go through the careful writer (host/disk/userFile.ts): hooks.json as JSON text (jsonText.ts via
 * hookInstall.ts), config.toml through tomlText.ts, every other byte kept. VS Code-free.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { claudeMcpServer } from '../claudeMcp';
import { applyInstall, applyUninstall, hookCommand, hookEntry, type HookScope, type InstallPlan, type Installation } from '../hookInstall';
import { userFile } from '../../host/disk/userFile';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import { HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';
import { agentOnMachine } from './found';
import { definedElsewhere, findTable, readString, removeTable, renameTable, setTable, tomlTables } from './tomlText';
import { trustHash, trustKey, trustTable } from './codexTrust';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

/** The events zut answers for Codex, as Codex spells them (all of its hook events). */
export const CODEX_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'] as const;
const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse']);

/** Codex's home: `$CODEX_HOME` when set (absolute), else `~/.codex`. */
export function codexHome(inst: Pick<Installation, 'home'>): string {
  const env = process.env.CODEX_HOME;
  return env && path.isAbsolute(env) ? env : path.join(inst.home, '.codex');
}
export const codexHooksFile = (inst: Pick<Installation, 'home'>): string => path.join(codexHome(inst), 'hooks.json');
export const codexConfigFile = (inst: Pick<Installation, 'home'>): string => path.join(codexHome(inst), 'config.toml');

/** Why a PreToolUse command that died says so: Codex shows it to the model as the reason. */
const DIED = 'zut-host hook ended without an answer: the call is blocked (fail closed)';

/**
 * The PreToolUse command on POSIX: zut's, then any exit but 0 and 2 (a crash, a kill) turned into exit 2 with a
 * reason on stderr — Codex's deny. Codex runs the command with a POSIX shell.
 */
export const failClosed = (command: string): string => `${command}; s=$?; [ "$s" -eq 0 ] || [ "$s" -eq 2 ] || { echo '${DIED}' >&2; exit 2; }; exit "$s"`;

/** What installing writes into hooks.json. */
export function codexPlan(inst: Installation): InstallPlan {
  const entries: Record<string, Record<string, unknown>> = {};
  const also: Record<string, string[]> = {};
  const dir = path.dirname(inst.cli);
  const entry = hookEntry(inst);
  for (const event of CODEX_EVENTS) {
    const plain = hookCommand(inst, 'codex', event, undefined, entry);
    const wrap = (c: string) => (event === 'PreToolUse' && inst.platform !== 'win32' ? failClosed(c) : c);
    const command = wrap(plain);
    // This installation's other forms (without the launcher, the CLI or the light entry; wrapped or not) are ours too.
    const forms = [plain, ...[path.join(dir, 'cli.js'), path.join(dir, 'hook.js')].map((s) => hookCommand({ ...inst, launcher: undefined }, 'codex', event, undefined, s))];
    also[event] = [...new Set([...forms, ...forms.map((c) => failClosed(c))])].filter((c) => c !== command);
    entries[event] = { ...(TOOL_EVENTS.has(event) && { matcher: '*' }), hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] };
  }
  return { file: codexHooksFile(inst), entries, top: {}, also };
}

type Json = Record<string, unknown>;

/** hooks.json as JSON (undefined: no file or not readable JSON). */
async function readHooks(file: string): Promise<Json | undefined> {
  const f = await userFile(file);
  if (f.text === undefined) return undefined;
  try {
    const j: unknown = JSON.parse(f.text);
    return isObject(j) ? j : undefined;
  } catch {
    return undefined;
  }
}

/** The commands of a group. */
const groupCommands = (g: unknown): string[] => (isObject(g) && Array.isArray(g.hooks) ? g.hooks.flatMap((h) => (isObject(h) && typeof h.command === 'string' ? [h.command] : [])) : []);

/** The indexes of our groups per event in `hooks` (a group all of whose commands are this installation's). */
export function ourGroups(plan: InstallPlan, hooks: Json | undefined): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const all = isObject(hooks?.hooks) ? hooks.hooks : {};
  for (const [event, entry] of Object.entries(plan.entries)) {
    const ours = new Set([...groupCommands(entry), ...(plan.also[event] ?? [])]);
    const list = all[event];
    out[event] = Array.isArray(list) ? list.flatMap((g, i) => (groupCommands(g).length > 0 && groupCommands(g).every((c) => ours.has(c)) ? [i] : [])) : [];
  }
  return out;
}

/** The trust each of our installed handlers needs: config.toml key → hash. */
export function neededTrust(plan: InstallPlan, hooks: Json | undefined): Map<string, string> {
  const need = new Map<string, string>();
  const all = isObject(hooks?.hooks) ? hooks.hooks : {};
  for (const [event, idx] of Object.entries(ourGroups(plan, hooks))) {
    for (const i of idx) {
      const g = (all[event] as unknown[])[i];
      const n = isObject(g) && Array.isArray(g.hooks) ? g.hooks.length : 0;
      for (let h = 0; h < n; h++) {
        const hash = trustHash(event, g, h);
        if (hash) need.set(trustKey(plan.file, event, i, h), hash);
      }
    }
  }
  return need;
}

async function installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  if (scope !== 'user') throw new Error('Codex CLI: hooks are installed for the user only (~/.codex/hooks.json)');
  const plan = codexPlan(inst);
  await applyInstall(plan);
  const need = neededTrust(plan, await readHooks(plan.file));
  const cfg = await userFile(codexConfigFile(inst));
  let text = cfg.text ?? '';
  const changes: string[] = [];
  for (const [key, hash] of need) {
    if (definedElsewhere(text, trustTable(key))) throw new Error(`${cfg.file}: hooks.state."${key}" is set outside its own table: left as it is`);
    if (readString(text, trustTable(key), 'trusted_hash') === hash) continue;
    text = setTable(text, trustTable(key), { trusted_hash: hash });
    changes.push(`[hooks.state."${key}"] trusted_hash = "${hash}"`);
  }
  if (text !== (cfg.text ?? '')) await cfg.write(text);
  return [
    { file: plan.file, changes: Object.entries(plan.entries).map(([e, v]) => `hooks.${e}: ${JSON.stringify(v)}`) },
    ...(changes.length > 0 ? [{ file: cfg.file, changes }] : []),
  ];
}

/**
 * Takes out our groups and their trust; the trust of the user's groups after them moves with them (Codex keys it by
 * the group's index, which shifts).
 */
async function uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  if (scope !== 'user') return [];
  const plan = codexPlan(inst);
  const before = await readHooks(plan.file);
  const ours = ourGroups(plan, before);
  const removed = await applyUninstall(plan);
  const cfg = await userFile(codexConfigFile(inst));
  let text = cfg.text ?? '';
  const changes: string[] = [];
  const all = isObject(before?.hooks) ? before.hooks : {};
  for (const [event, idx] of Object.entries(ours)) {
    if (idx.length === 0) continue;
    const n = Array.isArray(all[event]) ? all[event].length : 0;
    const prefix = trustKey(plan.file, event, 0, 0).replace(/0:0$/, '');
    for (const t of tomlTables(text).filter((x) => x.path.length === 3 && x.path[0] === 'hooks' && x.path[1] === 'state' && x.path[2].startsWith(prefix))) {
      const [g] = t.path[2].slice(prefix.length).split(':').map(Number);
      if (idx.includes(g)) {
        text = removeTable(text, t.path);
        changes.push(`removed [hooks.state."${t.path[2]}"]`);
      }
    }
    for (let g = 0; g < n; g++) {
      if (idx.includes(g)) continue;
      const shift = idx.filter((i) => i < g).length;
      if (shift === 0) continue;
      for (const t of tomlTables(text).filter((x) => x.path.length === 3 && x.path[0] === 'hooks' && x.path[1] === 'state' && x.path[2].startsWith(`${prefix}${g}:`))) {
        const moved = `${prefix}${g - shift}:${t.path[2].slice(`${prefix}${g}:`.length)}`;
        text = renameTable(text, t.path, trustTable(moved));
        changes.push(`[hooks.state."${t.path[2]}"] moved to "${moved}" (its group moved)`);
      }
    }
  }
  if (text !== (cfg.text ?? '')) await cfg.write(text);
  return [...(removed > 0 ? [{ file: plan.file, changes: [`removed ${removed} entr${removed === 1 ? 'y' : 'ies'} of zut's`] }] : []), ...(changes.length > 0 ? [{ file: cfg.file, changes }] : [])];
}

const MCP_TABLE = ['mcp_servers', MCP_SERVER_NAME];
/**
 * Codex starts MCP servers with a few variables of its environment only (observed: without these the server saw no
 * `$ZUT_HOME`, so none of the person's zut extensions); hooks get all of it. zut's own are passed through by name.
 */
export const CODEX_MCP_ENV_VARS = ['ZUT_HOME', 'ZOT_HOME', 'ZUT_HOOKS_DIR', 'XDG_STATE_HOME'];

async function installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  if (scope !== 'user') throw new Error("Codex CLI: zut's MCP server is installed for the user only (~/.codex/config.toml)");
  const server = claudeMcpServer(inst, 'user');
  const cfg = await userFile(codexConfigFile(inst));
  const text = cfg.text ?? '';
  if (definedElsewhere(text, MCP_TABLE)) throw new Error(`${cfg.file}: mcp_servers.${MCP_SERVER_NAME} is set outside its own table: left as it is`);
  const next = setTable(text, MCP_TABLE, { command: server.command, args: server.args, env_vars: CODEX_MCP_ENV_VARS });
  if (next === text) return [];
  await cfg.write(next);
  return [{ file: cfg.file, changes: [`[mcp_servers.${MCP_SERVER_NAME}] command = ${JSON.stringify(server.command)}, args = ${JSON.stringify(server.args)}, env_vars = ${JSON.stringify(CODEX_MCP_ENV_VARS)}`] }];
}

async function uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  if (scope !== 'user') return [];
  const cfg = await userFile(codexConfigFile(inst));
  if (cfg.text === undefined || !findTable(cfg.text, MCP_TABLE)) return [];
  await cfg.write(removeTable(cfg.text, MCP_TABLE));
  return [{ file: cfg.file, changes: [`removed [mcp_servers.${MCP_SERVER_NAME}]`] }];
}

async function check(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const found = CODEX_ROW.found(inst);
  if (scope !== 'user') return { agent: 'codex', found, hooksInstalled: false, mcpInstalled: false, problems: [] };
  const plan = codexPlan(inst);
  const hooks = await readHooks(plan.file);
  const groups = ourGroups(plan, hooks);
  const hooksInstalled = Object.values(groups).some((g) => g.length > 0);
  const text = (await userFile(codexConfigFile(inst))).text ?? '';
  const problems: string[] = [];
  for (const [key, hash] of neededTrust(plan, hooks)) {
    const has = readString(text, trustTable(key), 'trusted_hash');
    if (has !== hash) problems.push(`the hook ${key} is ${has === undefined ? 'not trusted' : 'trusted for other content (stale trusted_hash)'}: Codex skips it silently — run zut-host hook install --agent codex --scope user again, or trust it in Codex (/hooks)`);
  }
  const missing = CODEX_EVENTS.filter((e) => (groups[e]?.length ?? 0) === 0);
  if (hooksInstalled && missing.length > 0) problems.push(`zut's hooks for ${missing.join(', ')} are missing from ${plan.file}`);
  return { agent: 'codex', found, hooksInstalled, mcpInstalled: findTable(text, MCP_TABLE) !== undefined, ...(hooksInstalled && { hooksRun: problems.length === 0 }), problems };
}

export const CODEX_ROW: AgentSetupRow = {
  agent: 'codex',
  label: 'Codex CLI',
  scopes: ['user'],
  found: (inst) => existsSync(codexHome(inst)) || agentOnMachine('codex', [], inst.home, process.env, inst.platform),
  installHooks,
  uninstallHooks,
  installMcp,
  uninstallMcp,
  check,
};
