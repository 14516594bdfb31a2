/**
 * Qwen Code's set-up row (@qwen-code/qwen-code 0.24.4, read from its bundle): hooks in `~/.qwen/settings.json`
 * (user) or `<workspace>/.qwen/settings.json` (workspace) in Claude Code's shape, `hooks.<Event>[{matcher, hooks:
 * [{type: "command", command, timeout (seconds)}]}]`, run through the shell; the MCP server in the same file's
 * `mcpServers.zut` ({command, args}). A workspace's hooks and MCP servers run only in a trusted folder when folder
 * trust is on (`security.folderTrust.enabled` in the user settings; `~/.qwen/trustedFolders.json`); `disableAllHooks:
 * true` turns every hook off: check says so. Qwen Code lets a call run when its hook fails (any exit but 0 and 2, a
 * timeout); exit 2 denies with stderr as the reason — so the PreToolUse command line runs ours under a watchdog and
 * turns a crash, a hang or garbage into exit 2 (qwenCommand). Windows (PowerShell command lines) is refused: zut writes POSIX shell lines here.
 * Files through the careful writer (hookInstall.ts applyInstall, host/disk/userFile.ts). VS Code-free.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { appendMember, memberOf, parseJsonText, removeMember, replaceValue } from '../../host/disk/jsonText';
import { userFile } from '../../host/disk/userFile';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import { HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';
import { claudeMcpServer } from '../claudeMcp';
import { applyInstall, applyUninstall, hookCommand, installedCount, type HookScope, type Installation, type InstallPlan } from '../hookInstall';
import { agentOnMachine } from './found';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

/** The events we install (Qwen Code's names, Claude Code's). */
export const QWEN_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse']);

export function qwenSettingsFile(inst: Pick<Installation, 'home' | 'workspace'>, scope: HookScope): string {
  return scope === 'user' ? path.join(inst.home, '.qwen', 'settings.json') : path.join(inst.workspace, '.qwen', 'settings.json');
}

/**
 * Qwen Code's own deadline for our entries: past our watchdog (HOOK_TIMEOUT_SECONDS), so the watchdog's deny comes
 * first — Qwen Code lets the call run when a hook times out.
 */
export const QWEN_ENTRY_TIMEOUT_SECONDS = HOOK_TIMEOUT_SECONDS * 2;

/**
 * The command line of `event` (Qwen Code runs it through the shell). PreToolUse runs our command in the background
 * with the payload on fd 3 (an asynchronous command's stdin would be /dev/null), a watchdog kills it after
 * HOOK_TIMEOUT_SECONDS, and anything but exit 0 with a JSON object or nothing becomes exit 2 with the reason on
 * stderr, Qwen Code's deny: our crash, a hung or killed hook process, garbage.
 */
export function qwenCommand(inst: Installation, event: string): string {
  const command = hookCommand(inst, 'qwen', event, 'sh');
  if (event !== 'PreToolUse') return command;
  const deny = (why: string) => `echo "blocked by zut: ${why}" >&2; exit 2`;
  return [
    `exec 3<&0; out=$(${command} <&3 3<&- & p=$!; (sleep ${HOOK_TIMEOUT_SECONDS}; kill -9 $p) >/dev/null 2>&1 & d=$!; wait $p; s=$?; kill $d 2>/dev/null; exit $s); s=$?`,
    `if [ $s -ne 0 ]; then ${deny(`zut-host hook failed or did not answer within ${HOOK_TIMEOUT_SECONDS} s (exit $s)`)}; fi`,
    `case "$out" in '') ;; '{'*) printf '%s\n' "$out";; *) ${deny('zut-host hook answered something that is not JSON')};; esac`,
  ].join('; ');
}

export function planQwen(inst: Installation, scope: HookScope): InstallPlan {
  const entries: Record<string, Record<string, unknown>> = {};
  const also: Record<string, string[]> = {};
  for (const event of QWEN_EVENTS) {
    const command = qwenCommand(inst, event);
    entries[event] = { ...(TOOL_EVENTS.has(event) && { matcher: '*' }), hooks: [{ type: 'command', command, timeout: QWEN_ENTRY_TIMEOUT_SECONDS }] };
    also[event] = [hookCommand(inst, 'qwen', event, 'sh')].filter((c) => c !== command);
  }
  return { file: qwenSettingsFile(inst, scope), entries, top: {}, also, ...(scope === 'workspace' && { workspace: inst.workspace }) };
}

function noWindows(inst: Installation): void {
  if (inst.platform === 'win32') throw new Error("zut writes Qwen Code's hook command lines for a POSIX shell; on Windows nothing was written (install from WSL)");
}

async function installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  noWindows(inst);
  const plan = planQwen(inst, scope);
  await applyInstall(plan);
  return [{ file: plan.file, changes: Object.entries(plan.entries).map(([e, v]) => `hooks.${e}: ${JSON.stringify(v)}`) }];
}

async function uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const plan = planQwen(inst, scope);
  const n = await applyUninstall(plan);
  return n > 0 ? [{ file: plan.file, changes: [`removed ${n} hook entr${n === 1 ? 'y' : 'ies'}`] }] : [];
}

async function readObject(file: string, within?: string): Promise<{ text: string | undefined; json: Record<string, unknown> | undefined; write(t: string): Promise<void> }> {
  const f = await userFile(file, within !== undefined ? { within } : {});
  if (f.text === undefined) return { text: undefined, json: undefined, write: (t) => f.write(t) };
  let j: unknown;
  try {
    j = JSON.parse(f.text);
  } catch (e) {
    throw new Error(`${file} is not strict JSON (${(e as Error).message}; zut does not rewrite a file with comments): left as it is`);
  }
  if (!isObject(j)) throw new Error(`${file} is not a JSON object: left as it is`);
  if (j.mcpServers !== undefined && !isObject(j.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object: left as it is`);
  return { text: f.text, json: j, write: (t) => f.write(t) };
}

const serverOf = (inst: Installation, scope: HookScope) => {
  const { command, args } = claudeMcpServer(inst, scope);
  return { command, args };
};

async function installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  noWindows(inst);
  const file = qwenSettingsFile(inst, scope);
  const f = await readObject(file, scope === 'workspace' ? inst.workspace : undefined);
  const entry = serverOf(inst, scope);
  if (isObject(f.json?.mcpServers) && isDeepStrictEqual(f.json.mcpServers[MCP_SERVER_NAME], entry)) return [];
  let text = f.text ?? '{\n}\n';
  const node = memberOf(parseJsonText(text), 'mcpServers');
  const old = node && memberOf(node, MCP_SERVER_NAME);
  text = old ? replaceValue(text, old, entry) : node ? appendMember(text, node, MCP_SERVER_NAME, entry) : appendMember(text, parseJsonText(text), 'mcpServers', { [MCP_SERVER_NAME]: entry });
  await f.write(text);
  return [{ file, changes: [`mcpServers.${MCP_SERVER_NAME}: ${JSON.stringify(entry)}`] }];
}

async function uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const file = qwenSettingsFile(inst, scope);
  const f = await readObject(file, scope === 'workspace' ? inst.workspace : undefined);
  const v = isObject(f.json?.mcpServers) ? f.json.mcpServers[MCP_SERVER_NAME] : undefined;
  const ours = serverOf(inst, scope);
  if (!isObject(v) || v.command !== ours.command || !isDeepStrictEqual(v.args, ours.args) || f.text === undefined) return [];
  await f.write(removeMember(f.text, memberOf(parseJsonText(f.text), 'mcpServers')!, MCP_SERVER_NAME));
  return [{ file, changes: [`removed mcpServers.${MCP_SERVER_NAME}`] }];
}

const TRUSTING = new Set(['TRUST_FOLDER', 'TRUST_PARENT']);

/**
 * Whether `~/.qwen/trustedFolders.json` trusts `folder`: the rule for the folder itself or its nearest ancestor
 * (`TRUST_PARENT` of a path stands for that path's parent), as Qwen Code's precedence picks the most specific one.
 */
export function qwenTrusts(rules: Record<string, unknown>, folder: string): boolean {
  let best: { len: number; level: string } | undefined;
  for (const [p, level] of Object.entries(rules)) {
    if (typeof level !== 'string') continue;
    const at = path.resolve(level === 'TRUST_PARENT' ? path.dirname(p) : p);
    const inside = folder === at || folder.startsWith(at.endsWith(path.sep) ? at : at + path.sep);
    if (inside && (!best || at.length > best.len)) best = { len: at.length, level };
  }
  return best !== undefined && TRUSTING.has(best.level);
}

async function check(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const plan = planQwen(inst, scope);
  const count = await installedCount(plan);
  const user = await readObject(qwenSettingsFile(inst, 'user')).then((f) => f.json, () => undefined);
  const own = scope === 'user' ? user : await readObject(plan.file).then((f) => f.json, () => undefined);
  const problems: string[] = [];
  if (count > 0 && !(await installedCount({ ...plan, entries: { PreToolUse: plan.entries.PreToolUse! } }))) problems.push(`${plan.file} has zut's hooks but not its PreToolUse: tool calls are not guarded (zut-host hook install --agent qwen --scope ${scope})`);
  for (const [label, s] of [['user', user], [scope, own]] as const) {
    if (count > 0 && s?.disableAllHooks === true) problems.push(`${label} settings set disableAllHooks: Qwen Code runs no hook (remove it from ${qwenSettingsFile(inst, label)})`);
  }
  const security = isObject(user?.security) ? user.security : undefined;
  const trustOn = isObject(security?.folderTrust) && security.folderTrust.enabled === true;
  if (count > 0 && scope === 'workspace' && trustOn) {
    const rules = await readObject(path.join(inst.home, '.qwen', 'trustedFolders.json')).then((f) => f.json ?? {}, () => ({}));
    if (!qwenTrusts(rules, path.resolve(inst.workspace))) problems.push(`folder trust is on and ${inst.workspace} is not trusted in ~/.qwen/trustedFolders.json: Qwen Code skips this folder's hooks (trust it in Qwen Code, or install with --scope user)`);
  }
  const servers = own?.mcpServers;
  return {
    agent: 'qwen',
    found: agentOnMachine('qwen', ['.qwen'], inst.home),
    hooksInstalled: count > 0,
    mcpInstalled: isObject(servers) && isObject(servers[MCP_SERVER_NAME]),
    ...(count > 0 && { hooksRun: problems.length === 0 }),
    problems: [...new Set(problems)],
  };
}

export const QWEN_ROW: AgentSetupRow = {
  agent: 'qwen',
  label: 'Qwen Code',
  scopes: ['user', 'workspace'],
  found: (inst) => agentOnMachine('qwen', ['.qwen'], inst.home),
  installHooks,
  uninstallHooks,
  installMcp,
  uninstallMcp,
  check,
};
