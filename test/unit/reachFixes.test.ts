// Every fix "Where zut reaches" (src/ui-model/reach.ts reachRows) can offer works: every state the function accepts is
// made (agent tools on/off × zut.agentTools.via × each of VS Code's harness settings × plugins supported × web window
// × platform × hooks of ours × the terminal agents' checks), every fix its rows and warnings hold is collected, and
// each is run through what its command runs (src/vscode/agentSetupCommands.ts): "Copy MCP Client Configuration…"'s
// pick (a set-up row's writer, else a snippet client of that platform: mcpSnippet, and for Copilot CLI its file's
// writer), "Guard Agent Tools…"'s writers, or a setting that exists and can fix the gap on that platform — on real
// files in a temporary home, each checked afterwards by the same checks the view reads.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SETUP_ROWS, setupRowOf } from '../../src/agentSetup/agents';
import { applyClaudeMcp, findClaudeMcp } from '../../src/agentSetup/claudeMcp';
import { applyCopilotMcp, COPILOT_MCP_ACTIONS, copilotMcpNamesZut, removeCopilotMcp } from '../../src/agentSetup/copilotMcp';
import { applyInstall, installedCount, planInstall, type HookKind, type Installation } from '../../src/agentSetup/hookInstall';
import { isMcpClient, mcpSnippet } from '../../src/agentSetup/mcpConfig';
import { HOOK_AGENTS, type HookAgent } from '../../src/hooks/names';
import { isObject } from '../../src/protocol/json';
import { AGENT_TOOLS_VIA, HARNESS_SETTING_KEYS, pluginBlockedBy, type HarnessSettings } from '../../src/ui-model/agentRoute';
import { CLAUDE_MCP_FIX, COPILOT_CLI_MCP_FIX, reachRows, type AgentScopeCheck, type ReachFix, type TerminalAgentFacts } from '../../src/ui-model/reach';
import { facts } from '../helpers/reachFacts';
import { tempInstallation } from '../helpers/tempInstallation';

const PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'darwin', 'win32'];
const HARNESS_KEYS = Object.keys(HARNESS_SETTING_KEYS) as (keyof HarnessSettings)[];
/** Each of VS Code's harness settings on and off: 2^6 combinations. */
const HARNESSES: HarnessSettings[] = Array.from({ length: 1 << HARNESS_KEYS.length }, (_, bits) => Object.fromEntries(HARNESS_KEYS.map((k, i) => [k, (bits & (1 << i)) !== 0])) as unknown as HarnessSettings);

/** A terminal agent's checks in each state a row tells apart. */
const CHECK_STATES: AgentScopeCheck[][] = [
  [{ scope: 'user', found: false, hooksInstalled: false, mcpInstalled: false, problems: [] }],
  [{ scope: 'user', found: true, hooksInstalled: false, mcpInstalled: false, problems: [] }],
  [{ scope: 'user', found: true, hooksInstalled: true, hooksRun: false, mcpInstalled: false, problems: ['not trusted'] }],
  [{ scope: 'user', found: true, hooksInstalled: true, hooksRun: true, mcpInstalled: true, problems: [] }, { scope: 'workspace', found: true, hooksInstalled: false, mcpInstalled: false, problems: [] }],
];
/** The terminal agents as the window lists them (src/vscode/reach.ts): Claude Code, Copilot CLI, then every row. */
const agentsIn = (checks: AgentScopeCheck[]): TerminalAgentFacts[] => [
  { agent: 'claude', label: 'Claude Code', checks, mcpFix: CLAUDE_MCP_FIX },
  { agent: 'copilot-cli', label: 'Copilot CLI', checks, mcpFix: COPILOT_CLI_MCP_FIX },
  ...SETUP_ROWS.map((r) => ({ agent: r.agent, label: r.label, checks })),
];

/** Every distinct fix offered, with the platforms it was offered on. */
function everyFix(): Map<string, { fix: ReachFix; platforms: Set<NodeJS.Platform> }> {
  const out = new Map<string, { fix: ReachFix; platforms: Set<NodeJS.Platform> }>();
  for (const enabled of [true, false])
    for (const via of AGENT_TOOLS_VIA)
      for (const harness of HARNESSES)
        for (const pluginsSupported of [true, false])
          for (const remoteAgentHost of [undefined, false, true])
            for (const platform of PLATFORMS)
              for (const hooks of [[], ['/h/hooks/zut.json (user)']])
                for (const checks of [[], ...CHECK_STATES]) {
                  const f = facts({ enabled, via, harness, pluginsSupported, platform, vscodeHooks: hooks, copilotCliHooks: hooks, agents: checks.length ? agentsIn(checks) : [], ...(remoteAgentHost !== undefined && { remoteAgentHost }) });
                  for (const row of reachRows(f)) {
                    const fixes = [row.tools.fix, row.skills.fix, row.guards.fix, row.events.fix, row.warning?.fix].filter((x): x is ReachFix => x !== undefined);
                    for (const fix of fixes) {
                      const key = JSON.stringify(fix);
                      const seen = out.get(key) ?? { fix, platforms: new Set() };
                      seen.platforms.add(platform);
                      out.set(key, seen);
                    }
                  }
                }
  return out;
}

const roots: string[] = [];
afterAll(() => {
  for (const d of roots) fs.rmSync(d, { recursive: true, force: true });
});
/** A fresh home and workspace for one fix's run (nothing of the user's touched). */
const inst = (): Installation => tempInstallation('zut-reach-fix-', roots);
/** Copilot CLI's file under the temporary home, whatever this process's $COPILOT_HOME. */
const noEnv = {};

/** "Copy MCP Client Configuration…" with this argument, as copyMcpConfig dispatches it. */
async function runCopy(arg: unknown, platforms: Set<NodeJS.Platform>): Promise<void> {
  expect(isObject(arg), 'one argument object').toBe(true);
  const { client, action } = arg as { client?: unknown; action?: unknown };
  expect(typeof client, 'a client').toBe('string');
  if (action !== undefined) expect(COPILOT_MCP_ACTIONS).toContain(action);
  const i = inst();
  const row = setupRowOf(client as HookAgent);
  if (row) {
    expect((await row.installMcp(i, 'user')).length, `${row.agent}: zut's server written`).toBe(1);
    expect((await row.check(i, 'user')).mcpInstalled).toBe(true);
    return;
  }
  for (const platform of platforms) {
    expect(isMcpClient(client, platform), `${String(client)} is a Copy MCP Client Configuration… client on ${platform}`).toBe(true);
    if (!isMcpClient(client, platform)) continue;
    const snippet = mcpSnippet(client, { launcher: i.launcher!, folder: i.workspace, allowProject: false, platform });
    expect(snippet.text.length).toBeGreaterThan(0);
    if (client === 'copilot-cli') expect(JSON.parse(snippet.text)).toEqual({ mcpServers: { zut: { type: 'local', command: i.launcher, args: ['mcp', '--cwd', i.workspace], tools: ['*'] } } });
  }
  if (client !== 'copilot-cli') return;
  // Its file: written (absent action or `write`) or taken out (`remove`), as copilotCliMcp does.
  await applyCopilotMcp(i, noEnv);
  expect(await copilotMcpNamesZut(i.home, noEnv)).toBe(true);
  if (action === 'remove') {
    expect(await removeCopilotMcp(i.home, noEnv)).toHaveLength(1);
    expect(await copilotMcpNamesZut(i.home, noEnv)).toBe(false);
  }
}

/** "Guard Agent Tools…" with this argument and an action, as guardAgentTools runs it. */
async function runGuard(arg: unknown): Promise<void> {
  expect(isObject(arg), 'one argument object').toBe(true);
  const { agent, kind } = arg as { agent?: unknown; kind?: unknown };
  expect(HOOK_AGENTS).toContain(agent);
  const i = inst();
  const row = setupRowOf(agent as HookAgent);
  if (row) {
    expect((await row.installHooks(i, 'user')).length).toBeGreaterThan(0);
    expect((await row.check(i, 'user')).hooksInstalled).toBe(true);
    return;
  }
  if (kind !== undefined) expect(['mcp', 'command']).toContain(kind);
  const plan = planInstall(i, agent as HookAgent, 'user', (kind as HookKind | undefined) ?? 'command');
  if (kind === 'mcp' && !(await findClaudeMcp(i, 'user'))) await applyClaudeMcp(i, 'user');
  await applyInstall(plan);
  expect(await installedCount(plan)).toBeGreaterThan(0);
  if (kind === 'mcp') expect(await findClaudeMcp(i, 'user')).toBeDefined();
}

/** The setting exists (ours in package.json, or VS Code's harness setting) and changing it can fix the gap there. */
function checkSetting(arg: unknown, platforms: Set<NodeJS.Platform>): void {
  const ours = Object.keys((JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { contributes: { configuration: { properties: object } } }).contributes.configuration.properties);
  const known = [...ours, ...Object.values(HARNESS_SETTING_KEYS).map((k) => k.key)];
  expect(known).toContain(arg);
  // Settings that only matter for the plugin's route are no fix where the plugin cannot run.
  if (arg === 'zut.agentTools.via' || arg === HARNESS_SETTING_KEYS.pluginsEnabled.key) for (const p of platforms) expect(pluginBlockedBy(p), `${String(arg)} offered on ${p}`).toBeUndefined();
}

describe('where zut reaches: every fix it offers runs', () => {
  it('each fix of every state reachRows can produce', { timeout: 120_000 }, async () => {
    const fixes = everyFix();
    const commands = new Set([...fixes.values()].map((x) => x.fix.command));
    // Not vacuous: each kind of fix is offered somewhere, Copilot CLI's configuration among them.
    expect([...commands].sort()).toEqual(['workbench.action.openSettings', 'zut.copyMcpConfig', 'zut.guardAgentTools']);
    expect([...fixes.values()].some((x) => x.fix.command === 'zut.copyMcpConfig' && JSON.stringify(x.fix.args) === JSON.stringify([{ client: 'copilot-cli' }]))).toBe(true);
    for (const { fix, platforms } of fixes.values()) {
      expect(fix.args, fix.label).toHaveLength(1);
      const arg = fix.args![0];
      if (fix.command === 'zut.copyMcpConfig') await runCopy(arg, platforms);
      else if (fix.command === 'zut.guardAgentTools') await runGuard(arg);
      else checkSetting(arg, platforms);
    }
  });
});
