/**
 * Cline CLI's set-up row (cline 3.0.65, read from @cline/core and @cline/shared): its hooks are executables named after
 * the event in `~/.cline/hooks/` (user; `$CLINE_DIR/hooks` when set) or `<workspace>/.cline/hooks/` (also
 * `.clinerules/hooks/` and `~/Documents/Cline/Hooks/`), every one of them run — no trust gate. It runs a file through
 * its `#!` line (else bash), hands the payload on stdin, reads one JSON object from stdout, and ignores the exit code:
 * a hook that crashes, prints nothing or prints no JSON, or outlasts its 120 s, lets the call run. So the PreToolUse
 * file we write is a POSIX sh script that runs our hook command under a deadline (HOOK_TIMEOUT_SECONDS) and answers
 * Cline's cancel for anything but our clean exit with a JSON object or nothing (the other events' files just run the
 * command). A file of that name that is not ours (its second line is not MARKER) is never overwritten or removed:
 * refused by name. Windows: Cline runs `.ps1` hooks there, which zut does not write — refused. zut's MCP server goes
 * in `~/.cline/data/settings/cline_mcp_settings.json` `mcpServers.zut` (the only MCP file Cline CLI reads: user scope
 * only). Files through the careful writer (host/disk/userFile.ts, jsonText.ts). VS Code-free.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { appendMember, memberOf, parseJsonText, removeMember, replaceValue } from '../../host/disk/jsonText';
import { userFile } from '../../host/disk/userFile';
import { MCP_SERVER_NAME } from '../../hooks/names';
import { isObject } from '../../protocol/json';
import { parseMcpObject } from '../userJson';
import { HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';
import { claudeMcpServer } from '../claudeMcp';
import { hookCommand, type HookScope, type Installation } from '../hookInstall';
import { agentOnMachine } from './found';
import type { AgentSetupRow, SetupCheck, SetupStep } from './types';

/** The events we install, as Cline names its hook files. PromptSubmit and TaskStart run detached (output unread). */
export const CLINE_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'TaskStart'] as const;

/** The second line of every hook file we write: how ours are told from the user's own. */
export const CLINE_MARKER = '# zut-vscode: zut-host hook for Cline CLI (remove with: zut-host hook uninstall --agent cline)';

/** The hooks folder of `scope` (Cline reads `$CLINE_DIR/hooks` instead of `~/.cline/hooks` when CLINE_DIR is set). */
export function clineHooksDir(inst: Pick<Installation, 'home' | 'workspace'>, scope: HookScope): string {
  return scope === 'user' ? path.join(inst.home, '.cline', 'hooks') : path.join(inst.workspace, '.cline', 'hooks');
}

/** Cline CLI's MCP settings file (`$CLINE_MCP_SETTINGS_PATH`, `$CLINE_DATA_DIR`, `$CLINE_DIR` move it). */
export function clineMcpFile(inst: Pick<Installation, 'home'>): string {
  return path.join(inst.home, '.cline', 'data', 'settings', 'cline_mcp_settings.json');
}

const sq = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The script of one event, our command under a watchdog that kills it after HOOK_TIMEOUT_SECONDS. PreToolUse: it runs in the background with the payload on fd 3 (an asynchronous
 * command's stdin would be /dev/null), a watchdog kills it after HOOK_TIMEOUT_SECONDS, and anything but exit 0 with
 * a JSON object or nothing on stdout becomes `{"cancel": true, …}` — Cline itself would let the call run.
 */
export function clineHookScript(inst: Installation, event: string): string {
  const command = hookCommand(inst, 'cline', event, 'sh');
  const head = ['#!/bin/sh', CLINE_MARKER, `# Cline runs this for ${event}; it runs zut's hook command (zut-vscode).`];
  // Every event under the same watchdog: Cline runs some of them detached and never ends them (a hook process that
  // hung would live on); only PreToolUse turns a failure into a cancel.
  const watched = [
    'exec 3<&0',
    `${command} <&3 3<&- &`,
    'pid=$!',
    `( sleep ${HOOK_TIMEOUT_SECONDS}; kill -9 "$pid" ) >/dev/null 2>&1 &`,
    'dog=$!',
    'wait "$pid"; status=$?',
    'kill "$dog" 2>/dev/null',
    'exit "$status"',
  ];
  if (event !== 'PreToolUse') return [...head, ...watched, ''].join('\n');
  const cancel = (why: string) => `printf '%s\\n' ${sq(JSON.stringify({ cancel: true, errorMessage: `blocked by zut: ${why}` }))}`;
  return [
    ...head,
    '# Cline lets a tool call run when its hook fails, hangs or prints no JSON: here each of those cancels it.',
    'exec 3<&0',
    'out=$(',
    `  ${command} <&3 3<&- &`,
    '  pid=$!',
    `  ( sleep ${HOOK_TIMEOUT_SECONDS}; kill -9 "$pid" ) >/dev/null 2>&1 &`,
    '  dog=$!',
    '  wait "$pid"; status=$?',
    '  kill "$dog" 2>/dev/null',
    '  exit "$status"',
    ')',
    'status=$?',
    'if [ "$status" -ne 0 ]; then',
    `  ${cancel(`zut's hook for Cline failed or did not answer within ${HOOK_TIMEOUT_SECONDS} s`)}`,
    '  echo "zut-host hook exited with status $status" >&2',
    '  exit 0',
    'fi',
    'case "$out" in',
    "  '') exit 0 ;;",
    "  '{'*) printf '%s\\n' \"$out\" ;;",
    `  *) ${cancel("zut's hook for Cline answered something that is not JSON")} ;;`,
    'esac',
    '',
  ].join('\n');
}

const isOurs = (text: string | undefined) => text !== undefined && text.split('\n')[1] === CLINE_MARKER;

function noWindows(inst: Installation): void {
  if (inst.platform === 'win32') throw new Error("Cline CLI runs hooks on Windows as PowerShell (.ps1) files, which zut does not write yet: nothing written (install zut's hooks for Cline from WSL or a POSIX shell)");
}

async function installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  noWindows(inst);
  const dir = clineHooksDir(inst, scope);
  const within = scope === 'workspace' ? { within: inst.workspace } : {};
  // Refuse before writing anything: a user's own hook of one of these names stays, and nothing of ours is half there.
  const files = await Promise.all(CLINE_EVENTS.map(async (event) => ({ event, f: await userFile(path.join(dir, event), within) })));
  const theirs = files.filter(({ f }) => f.text !== undefined && !isOurs(f.text)).map(({ f }) => f.file);
  if (theirs.length > 0) throw new Error(`${theirs.join(', ')}: a hook file of yours is there, which zut does not overwrite: nothing written (rename it, e.g. to ${path.basename(theirs[0]!)}.sh — Cline runs both — and install again)`);
  const changes: string[] = [];
  for (const { event, f } of files) {
    const script = clineHookScript(inst, event);
    if (f.text === script) continue;
    await userFile(f.file, { ...within, mode: 0o755 }).then((g) => g.write(script));
    changes.push(`${f.text === undefined ? 'wrote' : 'rewrote'} ${event} (runs ${hookCommand(inst, 'cline', event, 'sh')})`);
  }
  return changes.length > 0 ? [{ file: dir, changes }] : [];
}

async function uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  const dir = clineHooksDir(inst, scope);
  const within = scope === 'workspace' ? { within: inst.workspace } : {};
  const changes: string[] = [];
  for (const event of CLINE_EVENTS) {
    const f = await userFile(path.join(dir, event), within);
    if (!isOurs(f.text)) continue;
    await f.remove();
    changes.push(`removed ${event}`);
  }
  return changes.length > 0 ? [{ file: dir, changes }] : [];
}

/** The MCP settings' JSON object (undefined: no file); anything else refused, the file left as it is. */
const mcpJson = parseMcpObject;

function userScopeOnly(scope: HookScope): void {
  if (scope !== 'user') throw new Error("Cline CLI reads MCP servers only from ~/.cline/data/settings/cline_mcp_settings.json (every folder): use --scope user for zut's MCP server");
}

async function installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  userScopeOnly(scope);
  const f = await userFile(clineMcpFile(inst));
  const json = mcpJson(f.file, f.text);
  const entry = claudeMcpServer(inst, 'user');
  const servers = json?.mcpServers;
  if (isObject(servers) && isDeepStrictEqual(servers[MCP_SERVER_NAME], entry)) return [];
  let text = f.text ?? '{\n}\n';
  const node = memberOf(parseJsonText(text), 'mcpServers');
  const old = node && memberOf(node, MCP_SERVER_NAME);
  text = old ? replaceValue(text, old, entry) : node ? appendMember(text, node, MCP_SERVER_NAME, entry) : appendMember(text, parseJsonText(text), 'mcpServers', { [MCP_SERVER_NAME]: entry });
  await f.write(text);
  return [{ file: f.file, changes: [`mcpServers.${MCP_SERVER_NAME}: ${JSON.stringify(entry)}`] }];
}

/** Whether `v` is a server entry this installation wrote (its command and arguments). */
const isOurServer = (inst: Installation, v: unknown) => {
  const ours = claudeMcpServer(inst, 'user');
  return isObject(v) && v.command === ours.command && isDeepStrictEqual(v.args, ours.args);
};

async function uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]> {
  userScopeOnly(scope);
  const f = await userFile(clineMcpFile(inst));
  const json = mcpJson(f.file, f.text);
  if (!json || !isObject(json.mcpServers) || !isOurServer(inst, json.mcpServers[MCP_SERVER_NAME])) return [];
  const node = memberOf(parseJsonText(f.text!), 'mcpServers')!;
  await f.write(removeMember(f.text!, node, MCP_SERVER_NAME));
  return [{ file: f.file, changes: [`removed mcpServers.${MCP_SERVER_NAME}`] }];
}

async function check(inst: Installation, scope: HookScope): Promise<SetupCheck> {
  const dir = clineHooksDir(inst, scope);
  const texts = await Promise.all(CLINE_EVENTS.map((e) => userFile(path.join(dir, e)).then((f) => f.text, () => undefined)));
  const hooksInstalled = texts.some(isOurs);
  const mcp = await userFile(clineMcpFile(inst)).then((f) => mcpJson(f.file, f.text), () => undefined);
  const problems: string[] = [];
  if (hooksInstalled && !isOurs(texts[0])) problems.push(`${path.join(dir, 'PreToolUse')} is not zut's: Cline's tool calls are not guarded (zut-host hook install --agent cline --scope ${scope})`);
  const clineDir = process.env.CLINE_DIR?.trim();
  if (hooksInstalled && scope === 'user' && clineDir && path.resolve(clineDir) !== path.join(inst.home, '.cline')) {
    problems.push(`CLINE_DIR is ${clineDir}: Cline reads its hooks from ${path.join(clineDir, 'hooks')}, not ${dir}`);
  }
  return {
    agent: 'cline',
    found: agentOnMachine('cline', ['.cline'], inst.home),
    hooksInstalled,
    mcpInstalled: isObject(mcp?.mcpServers) && isObject(mcp.mcpServers[MCP_SERVER_NAME]),
    ...(hooksInstalled && { hooksRun: problems.length === 0 }),
    problems,
  };
}

export const CLINE_ROW: AgentSetupRow = {
  agent: 'cline',
  label: 'Cline CLI',
  scopes: ['user', 'workspace'],
  found: (inst) => agentOnMachine('cline', ['.cline'], inst.home),
  installHooks,
  uninstallHooks,
  installMcp,
  uninstallMcp,
  check,
};
