/**
 * `zut-host hook install|uninstall --agent vscode|copilot-cli|claude --scope user|workspace [--cwd DIR]`: prints the
 * file and the exact entries, then merges them in (other entries untouched) or takes out exactly ours
 * (src/agentSetup/hookInstall.ts). The command written runs this installation: its Node and its light hook entry
 * (dist/hook.js beside the CLI; the CLI itself when there is none), absolute and quoted — or, when this run came
 * through the VS Code extension's stable launcher (src/agentSetup/launcher.ts), that launcher, so the entries survive the
 * extension's updates.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyInstall, applyUninstall, describePlan, planInstall, type HookScope } from '../agentSetup/hookInstall';
import { HOOK_AGENTS, type HookAgent } from '../hooks/names';
import { takeLauncherEnv } from '../agentSetup/launcher';
import { EXIT, UsageError, write, type Parsed } from './common';

export async function hookInstall(p: Parsed, verb: 'install' | 'uninstall'): Promise<number> {
  if (p.positionals.length > 2) throw new UsageError(`hook ${verb} takes no arguments`);
  const agent = p.values.agent as HookAgent | undefined;
  if (!agent || !HOOK_AGENTS.includes(agent)) throw new UsageError(`hook ${verb} needs --agent ${HOOK_AGENTS.join('|')}`);
  const scope = p.values.scope as HookScope | undefined;
  if (scope !== 'user' && scope !== 'workspace') throw new UsageError(`hook ${verb} needs --scope user|workspace`);
  const plan = planInstall(
    {
      node: process.execPath,
      // The script itself, not the npm bin link that started it (dist/hook.js is looked for beside it).
      cli: fs.realpathSync(path.resolve(process.argv[1])),
      launcher: takeLauncherEnv(),
      home: os.homedir(),
      workspace: path.resolve(p.values.cwd ?? process.cwd()),
      platform: process.platform,
    },
    agent,
    scope,
  );
  await write(process.stdout, describePlan(plan, verb) + '\n');
  if (verb === 'install') {
    await applyInstall(plan);
    await write(process.stdout, `Written. Remove it with: zut-host hook uninstall --agent ${agent} --scope ${scope}\n`);
    return EXIT.ok;
  }
  const removed = await applyUninstall(plan);
  await write(process.stdout, removed ? `Removed ${removed} entr${removed === 1 ? 'y' : 'ies'}.\n` : 'Nothing of ours was there.\n');
  return EXIT.ok;
}
