/**
 * `zut-host hook install|uninstall --agent vscode|copilot-cli|claude --scope user|workspace [--cwd DIR]
 * [--with-mcp | --command-hooks]`: prints the file and the exact entries, then merges them in (other entries untouched)
 * or takes out exactly ours (src/agentSetup/hookInstall.ts). The command written runs this installation: its Node and
 * its light hook entry (dist/hook.js beside the CLI; the CLI itself when there is none), absolute and quoted — or, when
 * this run came through the VS Code extension's stable launcher (src/agentSetup/launcher.ts), that launcher, so the
 * entries survive the extension's updates. Claude Code gets `mcp_tool` entries answered by zut's MCP server
 * (hooks/mcpHook.ts) when that server is configured for it (or `--with-mcp` configures it: agentSetup/claudeMcp.ts),
 * else commands; `--command-hooks` goes back to commands. PreToolUse's `onFailure: "block"` then blocks every tool
 * call while the server is not connected, so the choice and the way back are printed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyInstall, applyUninstall, describePlan, planInstall, type HookKind, type HookScope, type Installation } from '../agentSetup/hookInstall';
import { applyClaudeMcp, findClaudeMcp } from '../agentSetup/claudeMcp';
import { HOOK_AGENTS, type HookAgent } from '../hooks/names';
import { takeLauncherEnv } from '../agentSetup/launcher';
import { EXIT, UsageError, write, type Parsed } from './common';
import { setupRowOf, type SetupStep } from '../agentSetup/agents';

export async function hookInstall(p: Parsed, verb: 'install' | 'uninstall'): Promise<number> {
  if (p.positionals.length > 2) throw new UsageError(`hook ${verb} takes no arguments`);
  const agent = p.values.agent as HookAgent | undefined;
  if (!agent || !HOOK_AGENTS.includes(agent)) throw new UsageError(`hook ${verb} needs --agent ${HOOK_AGENTS.join('|')}`);
  const scope = p.values.scope as HookScope | undefined;
  if (scope !== 'user' && scope !== 'workspace') throw new UsageError(`hook ${verb} needs --scope user|workspace`);
  const withMcp = p.values['with-mcp'] === true;
  const commandHooks = p.values['command-hooks'] === true;
  const inst = cliInstallation(p);
  const row = setupRowOf(agent);
  if (row) return rowInstall(row, inst, scope, verb, withMcp, commandHooks);
  if ((withMcp || commandHooks) && (agent !== 'claude' || verb !== 'install')) throw new UsageError('--with-mcp and --command-hooks are for hook install --agent claude');
  if (withMcp && commandHooks) throw new UsageError('--with-mcp and --command-hooks exclude each other');
  let kind: HookKind = 'command';
  if (agent === 'claude' && verb === 'install' && !commandHooks) {
    if (withMcp) await write(process.stdout, `zut's MCP server for Claude Code written to ${await applyClaudeMcp(inst, scope)}\n`);
    const found = await findClaudeMcp(inst, scope);
    if (found) {
      kind = 'mcp';
      await write(process.stdout, `zut's MCP server is configured for Claude Code (${found}): the hooks call it (mcp_tool), no process per tool call.\n`);
    }
  }
  const plan = planInstall(inst, agent, scope, kind);
  await write(process.stdout, describePlan(plan, verb) + '\n');
  if (verb === 'install') {
    await applyInstall(plan);
    await write(process.stdout, `Written. Remove it with: zut-host hook uninstall --agent ${agent} --scope ${scope}\n`);
    if (kind === 'mcp') {
      await write(
        process.stdout,
        "While zut's MCP server is not connected, Claude Code blocks every tool call (\"[zut/zut_hook]: failed; blocking because onFailure is \"block\"\"). " +
          `If you remove the server, switch back first: zut-host hook install --agent claude --scope ${scope} --command-hooks\n`,
      );
    }
    return EXIT.ok;
  }
  const removed = await applyUninstall(plan);
  await write(process.stdout, removed ? `Removed ${removed} entr${removed === 1 ? 'y' : 'ies'}.\n` : 'Nothing of ours was there.\n');
  return EXIT.ok;
}

/** This installation as the CLI sees it (the launcher when it came through one; `--cwd` the workspace). */
export function cliInstallation(p: Parsed): Installation {
  return {
    node: process.execPath,
    // The script itself, not the npm bin link that started it (dist/hook.js is looked for beside it).
    cli: fs.realpathSync(path.resolve(process.argv[1])),
    launcher: takeLauncherEnv(),
    home: os.homedir(),
    workspace: path.resolve(p.values.cwd ?? process.cwd()),
    platform: process.platform,
  };
}

const printSteps = (steps: readonly SetupStep[]) => steps.map((s) => [`${s.file}:`, ...s.changes.map((c) => `  ${c}`)].join('\n')).join('\n');

/** An agent set up through a row (agentSetup/agents): its hooks, and with --with-mcp its MCP configuration too. */
async function rowInstall(row: NonNullable<ReturnType<typeof setupRowOf>>, inst: Installation, scope: HookScope, verb: 'install' | 'uninstall', withMcp: boolean, commandHooks: boolean): Promise<number> {
  if (commandHooks) throw new UsageError(`--command-hooks is for hook install --agent claude`);
  if (!row.scopes.includes(scope)) throw new UsageError(`${row.label}'s hooks have no ${scope} scope (${row.scopes.join(', ')})`);
  const steps = verb === 'install' ? await row.installHooks(inst, scope) : await row.uninstallHooks(inst, scope);
  if (withMcp) steps.push(...(verb === 'install' ? await row.installMcp(inst, scope) : await row.uninstallMcp(inst, scope)));
  await write(process.stdout, steps.length > 0 ? printSteps(steps) + '\n' : 'Nothing of ours was there.\n');
  if (verb === 'uninstall') return EXIT.ok;
  const check = await row.check(inst, scope);
  await write(process.stdout, `Written. Remove it with: zut-host hook uninstall --agent ${row.agent} --scope ${scope}${withMcp ? ' --with-mcp' : ''}\n`);
  if (check.problems.length > 0) await write(process.stdout, `${row.label} will not run it yet:\n${check.problems.map((x) => `  ${x}`).join('\n')}\n`);
  return EXIT.ok;
}
