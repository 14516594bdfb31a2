// "Where zut reaches" (src/ui-model/reach.ts): each VS Code harness's and terminal agent's cells in each state
// (reached, not reached, unknown) with the one fix of a gap, the route cases (provider, plugin, off, plugins
// disabled), and the doctor lines; the checks of the older agents (src/agentSetup/olderAgentChecks.ts) on real files.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COPILOT_CLI_MCP_FIX, gapsOf, reachLines, reachRows } from '../../src/ui-model/reach';
import { copilotCliCheck, claudeCodeCheck, ownHookFiles } from '../../src/agentSetup/olderAgentChecks';
import { applyInstall, planInstall, type Installation } from '../../src/agentSetup/hookInstall';
import { AGENT_HOST, CLAUDE, CODEX, COPILOT, LOCAL, agent, check, facts, row } from '../helpers/reachFacts';
import { tempInstallation } from '../helpers/tempInstallation';

describe('where zut reaches: VS Code harnesses, tools and skills by the route', () => {
  it('provider (the default, no Agent Host in use): Local reached; Copilot, Claude and Codex unknown, fixed by zut.agentTools.via = plugin', () => {
    const f = facts();
    expect(f.route).toBe('provider');
    const rows = reachRows(f);
    expect(rows.slice(0, 4).map((r) => r.surface)).toEqual([LOCAL, COPILOT, CLAUDE, CODEX]);
    for (const c of ['tools', 'skills'] as const) {
      expect(row(rows, LOCAL)[c].state).toBe('reached');
      expect(row(rows, LOCAL)[c].fix).toBeUndefined();
      for (const s of AGENT_HOST) {
        const x = row(rows, s)[c];
        expect(x.state, `${s} ${c}`).toBe('unknown');
        expect(x.how).toContain('microsoft/vscode#332782');
        expect(x.fix).toEqual({ label: 'Set zut.agentTools.via to plugin', command: 'workbench.action.openSettings', args: ['zut.agentTools.via'] });
      }
    }
  });

  it('plugin (auto with the Copilot harness the default, or via = plugin): every harness reached, no fix', () => {
    for (const f of [facts({ harness: { defaultToCopilotHarness: true } }), facts({ via: 'plugin' })]) {
      expect(f.route).toBe('plugin');
      const rows = reachRows(f);
      for (const s of [LOCAL, ...AGENT_HOST]) {
        for (const c of ['tools', 'skills'] as const) {
          expect(row(rows, s)[c].state, `${s} ${c}`).toBe('reached');
          expect(row(rows, s)[c].how).toContain('agent plugin');
          expect(row(rows, s)[c].fix).toBeUndefined();
        }
      }
    }
  });

  it('off: not reached anywhere, fixed by enabling zut.agentTools.enabled', () => {
    const f = facts({ enabled: false, via: 'plugin' });
    expect(f.route).toBe('off');
    const rows = reachRows(f);
    for (const s of [LOCAL, ...AGENT_HOST]) {
      for (const c of ['tools', 'skills'] as const) {
        expect(row(rows, s)[c].state).toBe('not-reached');
        expect(row(rows, s)[c].fix).toEqual({ label: 'Enable zut.agentTools.enabled', command: 'workbench.action.openSettings', args: ['zut.agentTools.enabled'] });
      }
    }
  });

  it('via = plugin with chat.plugins.enabled off resolves to the provider, says so, and offers chat.plugins.enabled', () => {
    const f = facts({ via: 'plugin', harness: { pluginsEnabled: false } });
    expect(f.route).toBe('provider');
    const rows = reachRows(f);
    expect(row(rows, LOCAL).tools.state).toBe('reached');
    expect(row(rows, LOCAL).tools.how).toContain('chat.plugins.enabled is off: the provider serves instead');
    for (const s of AGENT_HOST) {
      expect(row(rows, s).tools.state).toBe('unknown');
      expect(row(rows, s).tools.how).toContain('chat.plugins.enabled is off');
      expect(row(rows, s).tools.fix).toEqual({ label: 'Enable chat.plugins.enabled', command: 'workbench.action.openSettings', args: ['chat.plugins.enabled'] });
    }
  });

  it('a VS Code without agent plugins: the Agent Host harnesses unknown with no setting to offer', () => {
    const rows = reachRows(facts({ via: 'plugin', pluginsSupported: false }));
    for (const s of AGENT_HOST) {
      expect(row(rows, s).tools.state).toBe('unknown');
      expect(row(rows, s).tools.fix).toBeUndefined();
    }
  });

  it('notes which harnesses are not enabled and that Local is deprecated', () => {
    const rows = reachRows(facts({ harness: { claudeAgentEnabled: true } }));
    expect(row(rows, LOCAL).note).toContain('February 2027');
    expect(row(rows, CLAUDE).note).toBe('Agent Host');
    expect(row(rows, CODEX).note).toContain('not enabled (chat.agentHost.codexAgent.enabled)');
  });
});

describe('where zut reaches: VS Code harnesses, guards and events through hooks', () => {
  it('Local: reached with VS Code agent hooks installed, else not reached with Guard Agent Tools… for VS Code\'s agent', () => {
    const none = reachRows(facts());
    for (const c of ['guards', 'events'] as const) {
      expect(row(none, LOCAL)[c].state).toBe('not-reached');
      expect(row(none, LOCAL)[c].fix).toEqual({ label: "Guard Agent Tools… (VS Code's agent)", command: 'zut.guardAgentTools', args: [{ agent: 'vscode' }] });
    }
    const some = reachRows(facts({ vscodeHooks: ['/w/.github/hooks/zut.json (workspace)'] }));
    expect(row(some, LOCAL).guards).toEqual({ state: 'reached', how: "VS Code's agent hooks: /w/.github/hooks/zut.json (workspace)" });
    expect(row(some, LOCAL).events.state).toBe('reached');
    // VS Code's agent hooks are not Copilot CLI's: the Copilot harness is still not reached.
    expect(row(some, COPILOT).guards.state).toBe('not-reached');
  });

  it('Copilot: reached with Copilot CLI\'s hooks, else not reached (plugin hooks do not reach it: #330114) with Guard Agent Tools… for Copilot CLI', () => {
    const none = reachRows(facts({ via: 'plugin' }));
    expect(row(none, COPILOT).guards.state).toBe('not-reached');
    expect(row(none, COPILOT).guards.how).toContain('microsoft/vscode#330114');
    expect(row(none, COPILOT).guards.fix).toEqual({ label: 'Guard Agent Tools… (Copilot CLI)', command: 'zut.guardAgentTools', args: [{ agent: 'copilot-cli' }] });
    const some = reachRows(facts({ copilotCliHooks: ['/h/.copilot/hooks/zut.json (user)'] }));
    for (const c of ['guards', 'events'] as const) {
      expect(row(some, COPILOT)[c].state).toBe('reached');
      expect(row(some, COPILOT)[c].fix).toBeUndefined();
    }
  });

  it('Claude and Codex: unknown, naming the files; the fix offered only while the CLI\'s hooks are not installed', () => {
    const none = reachRows(facts());
    expect(row(none, CLAUDE).guards.state).toBe('unknown');
    expect(row(none, CLAUDE).guards.how).toContain('~/.claude/settings.json');
    expect(row(none, CLAUDE).guards.fix?.args).toEqual([{ agent: 'claude' }]);
    expect(row(none, CODEX).events.state).toBe('unknown');
    expect(row(none, CODEX).events.how).toContain('~/.codex/hooks.json');
    expect(row(none, CODEX).events.fix?.args).toEqual([{ agent: 'codex' }]);
    const installed = reachRows(facts({ agents: [agent('claude', 'Claude Code', [check({ hooksInstalled: true, hooksRun: true })]), agent('codex', 'Codex CLI', [check({ hooksInstalled: true, hooksRun: true })])] }));
    for (const s of [CLAUDE, CODEX]) {
      expect(row(installed, s).guards.state).toBe('unknown');
      expect(row(installed, s).guards.how).toContain('hooks of zut\'s are installed');
      expect(row(installed, s).guards.fix).toBeUndefined();
    }
  });
});

describe('where zut reaches: terminal agents', () => {
  it('reached: MCP configuration names zut (tools, skills), hooks installed and run (guards, events)', () => {
    const rows = reachRows(facts({ agents: [agent('gemini', 'Gemini CLI', [check({ mcpInstalled: true, hooksInstalled: true, hooksRun: true }), check({ scope: 'workspace', found: true })])] }));
    const r = row(rows, 'Gemini CLI (terminal)');
    expect(r.present).toBe(true);
    for (const c of ['tools', 'skills', 'guards', 'events'] as const) expect(r[c].state, c).toBe('reached');
    expect(r.tools.how).toContain('(user)');
    expect(gapsOf(r)).toEqual([]);
  });

  it('not reached: nothing installed, each gap with its fix (the row\'s writer, or the agent\'s own)', () => {
    const claude = { ...agent('claude', 'Claude Code', [check()]), mcpFix: { label: 'Guard Agent Tools… (Claude Code, …)', command: 'zut.guardAgentTools', args: [{ agent: 'claude' }] } };
    const rows = reachRows(facts({ agents: [agent('codex', 'Codex CLI', [check()]), claude] }));
    const codex = row(rows, 'Codex CLI (terminal)');
    for (const c of ['tools', 'skills'] as const) {
      expect(codex[c].state).toBe('not-reached');
      expect(codex[c].fix).toEqual({ label: 'Copy MCP Client Configuration… (Codex CLI)', command: 'zut.copyMcpConfig', args: [{ client: 'codex' }] });
    }
    for (const c of ['guards', 'events'] as const) {
      expect(codex[c].state).toBe('not-reached');
      expect(codex[c].fix).toEqual({ label: 'Guard Agent Tools… (Codex CLI)', command: 'zut.guardAgentTools', args: [{ agent: 'codex' }] });
    }
    expect(gapsOf(codex).map((g) => g.capability)).toEqual(['tools', 'skills', 'guards', 'events']);
    expect(row(rows, 'Claude Code (terminal)').tools.fix).toEqual(claude.mcpFix);
  });

  it('not reached: hooks installed that the agent will not run (its problem said, Guard Agent Tools… offered)', () => {
    const rows = reachRows(facts({ agents: [agent('codex', 'Codex CLI', [check({ hooksInstalled: true, hooksRun: false, problems: ['the hook is not trusted: run codex once'] })])] }));
    const r = row(rows, 'Codex CLI (terminal)');
    expect(r.guards.state).toBe('not-reached');
    expect(r.guards.how).toContain('will not run them: the hook is not trusted: run codex once');
    expect(r.guards.fix?.command).toBe('zut.guardAgentTools');
  });

  it('not found on this machine: the row says so, with no gap and no fix; found elsewhere-set-up counts as present', () => {
    const rows = reachRows(facts({ agents: [agent('cline', 'Cline CLI', [check({ found: false })]), agent('qwen', 'Qwen Code', [check({ found: false, mcpInstalled: true })])] }));
    const cline = row(rows, 'Cline CLI (terminal)');
    expect(cline.present).toBe(false);
    expect(cline.note).toBe('not found on this machine');
    expect(cline.tools).toEqual({ state: 'not-reached', how: 'not found on this machine' });
    expect(gapsOf(cline)).toEqual([]);
    const qwen = row(rows, 'Qwen Code (terminal)');
    expect(qwen.present).toBe(true);
    expect(qwen.tools.state).toBe('reached');
  });
});

describe('where zut reaches: doctor lines', () => {
  it('one line per row and capability with its state and fix; an absent agent one line', () => {
    const lines = reachLines(reachRows(facts({ agents: [agent('cline', 'Cline CLI', [check({ found: false })])] })));
    expect(lines).toContain('VS Code: Local harness (deprecated (goes away in February 2027)) · tools: reached — the MCP server provider, served by this window');
    expect(lines.find((l) => l.startsWith('VS Code: Copilot harness (Agent Host) · tools: unknown'))).toMatch(/Fix: Set zut\.agentTools\.via to plugin$/);
    expect(lines.find((l) => l.startsWith('VS Code: Local harness') && l.includes('· guards: NOT REACHED'))).toMatch(/Fix: Guard Agent Tools… \(VS Code's agent\)$/);
    expect(lines.filter((l) => l.startsWith('Cline CLI'))).toEqual(['Cline CLI (terminal) (not found on this machine)']);
    expect(lines).toHaveLength(4 * 4 + 1);
    for (const l of lines) expect(l).not.toMatch(/\$\(|\]\(/); // plain text: no codicons, no markdown links
  });
});

describe('where zut reaches: the older agents\' checks on real files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const setup = (): Installation => tempInstallation('zut-reach-', dirs, 'linux');

  it('Copilot CLI: hooks of ours and ~/.copilot/mcp-config.json naming zut; VS Code\'s agent hooks are told apart', async () => {
    const inst = setup();
    expect(await copilotCliCheck(inst, 'user')).toMatchObject({ agent: 'copilot-cli', hooksInstalled: false, mcpInstalled: false });
    await applyInstall(planInstall(inst, 'copilot-cli', 'workspace'));
    fs.mkdirSync(path.join(inst.home, '.copilot'), { recursive: true });
    fs.writeFileSync(path.join(inst.home, '.copilot', 'mcp-config.json'), JSON.stringify({ mcpServers: { zut: { type: 'local', command: 'x', args: [] } } }));
    expect(await copilotCliCheck(inst, 'workspace')).toMatchObject({ found: true, hooksInstalled: true, hooksRun: true, mcpInstalled: false });
    expect(await copilotCliCheck(inst, 'user')).toMatchObject({ hooksInstalled: false, mcpInstalled: true });
    expect(await ownHookFiles(inst, 'copilot-cli')).toEqual([{ scope: 'workspace', file: path.join(inst.workspace, '.github', 'hooks', 'zut.json') }]);
    expect(await ownHookFiles(inst, 'vscode')).toEqual([]);
    await applyInstall(planInstall(inst, 'vscode', 'user'));
    expect(await ownHookFiles(inst, 'vscode')).toEqual([{ scope: 'user', file: path.join(inst.home, '.copilot', 'hooks', 'zut.json') }]);
  });

  it('Claude Code: its hooks and a zut server where it would find one', async () => {
    const inst = setup();
    expect(await claudeCodeCheck(inst, 'user')).toMatchObject({ agent: 'claude', hooksInstalled: false, mcpInstalled: false });
    await applyInstall(planInstall(inst, 'claude', 'user'));
    fs.writeFileSync(path.join(inst.home, '.claude.json'), JSON.stringify({ mcpServers: { zut: { type: 'stdio', command: 'x', args: [] } } }));
    expect(await claudeCodeCheck(inst, 'user')).toMatchObject({ found: true, hooksInstalled: true, hooksRun: true, mcpInstalled: true });
  });

  it("an Agent Host on another machine than the UI (code-server): the plugin's tools are unknown there, with Copilot CLI's configuration as the Copilot harness's fix; Copilot CLI's own MCP configuration reaches the Copilot harness on any route", () => {
    const remote = reachRows(facts({ via: 'plugin', remoteAgentHost: true }));
    expect(row(remote, LOCAL).tools.state).toBe('reached');
    for (const h of AGENT_HOST) expect(row(remote, h).tools).toMatchObject({ state: 'unknown', how: expect.stringContaining('may not read the plugin') });
    expect(row(remote, COPILOT).tools.fix).toEqual(COPILOT_CLI_MCP_FIX);
    expect(COPILOT_CLI_MCP_FIX).toMatchObject({ command: 'zut.copyMcpConfig', args: [{ client: 'copilot-cli' }] });
    expect(row(reachRows(facts({ via: 'plugin', remoteAgentHost: false })), COPILOT).tools.state).toBe('reached');
    const copilotCli = { agent: 'copilot-cli', label: 'Copilot CLI', checks: [{ scope: 'user' as const, found: true, hooksInstalled: false, mcpInstalled: true, problems: [] }] };
    for (const via of ['provider', 'plugin'] as const) {
      const rows = reachRows(facts({ via, remoteAgentHost: true, agents: [copilotCli] }));
      expect(row(rows, COPILOT).tools).toMatchObject({ state: 'reached', how: expect.stringContaining('mcp-config.json') });
      expect(row(rows, CLAUDE).tools.state).toBe('unknown');
    }
  });
});
