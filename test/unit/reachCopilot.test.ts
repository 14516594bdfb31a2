// "Where zut reaches" on Windows (the plugin needs sh: the provider serves, the Agent Host harnesses say why) and with
// two `zut` servers on the Copilot harness (Copilot CLI's mcp-config.json beside the plugin's: the row's warning, in
// each state of the tools cell), and Copilot CLI's MCP configuration written and removed on real files
// (src/agentSetup/copilotMcp.ts: other servers, other bytes, the mode and a link kept; $COPILOT_HOME honoured).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyCopilotMcp, copilotMcpFile, copilotMcpNamesZut, removeCopilotMcp } from '../../src/agentSetup/copilotMcp';
import { copilotCliCheck } from '../../src/agentSetup/olderAgentChecks';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { COPILOT_CLI_MCP_FIX, COPILOT_CLI_MCP_REMOVE_FIX, reachLines, reachRows } from '../../src/ui-model/reach';
import { AGENT_HOST, CLAUDE, CODEX, COPILOT, LOCAL, agent, check, facts, row } from '../helpers/reachFacts';
import { tempInstallation } from '../helpers/tempInstallation';

describe('where zut reaches on Windows: the provider serves, and the Agent Host harnesses say why', () => {
  it("via plugin, or auto with an Agent Host harness in use: the provider; Local reached, the Agent Host harnesses unknown naming sh, with no plugin setting offered", () => {
    for (const f of [facts({ via: 'plugin', platform: 'win32' }), facts({ harness: { defaultToCopilotHarness: true }, platform: 'win32' })]) {
      expect(f.route).toBe('provider');
      const rows = reachRows(f);
      expect(row(rows, LOCAL).tools).toMatchObject({ state: 'reached', how: expect.stringContaining('starts its server with sh, which Windows does not have: the provider serves instead') });
      for (const s of AGENT_HOST) {
        for (const c of ['tools', 'skills'] as const) {
          const x = row(rows, s)[c];
          expect(x.state, `${s} ${c}`).toBe('unknown');
          expect(x.how).toContain('microsoft/vscode#332782');
          expect(x.how).toContain("zut's agent plugin starts its server with sh, which Windows does not have, so it is not offered");
          expect(x.fix?.args, `${s} ${c}: no setting that would pick the plugin`).not.toEqual(['zut.agentTools.via']);
        }
      }
      // The Copilot harness reads Copilot CLI's own file: that is its fix; Claude's and Codex's have none to offer.
      expect(row(rows, COPILOT).tools.fix).toEqual(COPILOT_CLI_MCP_FIX);
      expect(row(rows, CLAUDE).tools.fix).toBeUndefined();
      expect(row(rows, CODEX).skills.fix).toBeUndefined();
    }
  });

  it('what reaches still does: guards through Copilot CLI\'s hooks, tools through its mcp-config.json', () => {
    const copilotCli = agent('copilot-cli', 'Copilot CLI', [check({ mcpInstalled: true })]);
    const rows = reachRows(facts({ via: 'plugin', platform: 'win32', copilotCliHooks: ['C:\\u\\.copilot\\hooks\\zut.json (user)'], agents: [copilotCli] }));
    expect(row(rows, COPILOT).tools).toMatchObject({ state: 'reached', how: expect.stringContaining('mcp-config.json') });
    expect(row(rows, COPILOT).guards.state).toBe('reached');
    expect(row(rows, COPILOT).warning).toBeUndefined(); // no plugin on Windows: no second zut
    expect(row(rows, CLAUDE).tools.state).toBe('unknown');
  });

  it('via provider, or auto with only the Local harness: the provider was chosen, not fallen back to; the plugin is still said to be unavailable', () => {
    for (const f of [facts({ via: 'provider', platform: 'win32', harness: { defaultToCopilotHarness: true } }), facts({ platform: 'win32' })]) {
      const rows = reachRows(f);
      for (const l of reachLines(rows)) expect(l).not.toContain('the provider serves instead');
      expect(row(rows, LOCAL).tools.how).toBe('the MCP server provider, served by this window');
      expect(row(rows, CLAUDE).tools.how).toMatch(/; zut's agent plugin starts its server with sh, which Windows does not have, so it is not offered$/);
    }
  });
});

describe('where zut reaches: two zut servers on the Copilot harness', () => {
  const copilotCli = (mcpInstalled: boolean) => agent('copilot-cli', 'Copilot CLI', [check({ mcpInstalled })]);

  it("reached by both (a desktop window, the plugin's route): the row warns, and the fix removes Copilot CLI's", () => {
    const rows = reachRows(facts({ via: 'plugin', remoteAgentHost: false, agents: [copilotCli(true)] }));
    const r = row(rows, COPILOT);
    expect(r.tools).toMatchObject({ state: 'reached', how: expect.stringContaining('two servers named zut') });
    expect(r.warning?.text).toMatch(/^gets two MCP servers named zut: .*one shadows the other.*remove one/);
    expect(r.warning?.fix).toEqual(COPILOT_CLI_MCP_REMOVE_FIX);
    expect(COPILOT_CLI_MCP_REMOVE_FIX.args).toEqual([{ client: 'copilot-cli', action: 'remove' }]);
    for (const s of [LOCAL, CLAUDE, CODEX]) expect(row(rows, s).warning, s).toBeUndefined();
    const lines = reachLines(rows);
    expect(lines.filter((l) => l.includes('WARNING'))).toEqual([`VS Code: Copilot harness (Agent Host) · WARNING: ${r.warning!.text}. Fix: ${COPILOT_CLI_MCP_REMOVE_FIX.label}`]);
  });

  it('a web window (the plugin may not be read): the warning says may', () => {
    const r = row(reachRows(facts({ via: 'plugin', remoteAgentHost: true, agents: [copilotCli(true)] })), COPILOT);
    expect(r.tools.state).toBe('reached');
    expect(r.warning?.text).toMatch(/^may get two MCP servers named zut/);
  });

  it("one server only: no warning — the provider's route with Copilot CLI's, the plugin alone, nothing, or agent tools off", () => {
    const cases = [
      { f: facts({ via: 'provider', agents: [copilotCli(true)] }), state: 'reached' },
      { f: facts({ via: 'plugin', agents: [copilotCli(false)] }), state: 'reached' },
      { f: facts({ via: 'plugin', remoteAgentHost: true, agents: [copilotCli(false)] }), state: 'unknown' },
      { f: facts({ via: 'provider', agents: [copilotCli(false)] }), state: 'unknown' },
      { f: facts({ enabled: false, via: 'plugin', agents: [copilotCli(true)] }), state: 'not-reached' },
    ] as const;
    for (const { f, state } of cases) {
      const r = row(reachRows(f), COPILOT);
      expect(r.tools.state, JSON.stringify({ route: f.route, remote: f.remoteAgentHost })).toBe(state);
      expect(r.warning).toBeUndefined();
    }
  });
});

describe("Copilot CLI's MCP configuration on real files", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const setup = (): Installation => tempInstallation('zut-copilot-mcp-', dirs);
  const noEnv = {};

  it('writes zut beside the user\'s servers (their bytes kept), replaces only zut, and takes out exactly it', async () => {
    const inst = setup();
    const file = copilotMcpFile(inst.home, noEnv);
    expect(file).toBe(path.join(inst.home, '.copilot', 'mcp-config.json'));
    fs.mkdirSync(path.dirname(file));
    const user = '{\n    "mcpServers": {\n        "github": { "type": "http", "url": "https://example.test/mcp" }\n    },\n    "theirs": 1\n}\n';
    fs.writeFileSync(file, user, { mode: 0o640 });
    const steps = await applyCopilotMcp(inst, noEnv);
    expect(steps).toHaveLength(1);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(json.mcpServers.github).toEqual({ type: 'http', url: 'https://example.test/mcp' });
    expect(json.theirs).toBe(1);
    expect(json.mcpServers.zut).toEqual({ type: 'local', command: inst.launcher, args: ['mcp'], tools: ['*'] });
    expect(fs.readFileSync(file, 'utf8')).toContain('"github": { "type": "http", "url": "https://example.test/mcp" }');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(await copilotMcpNamesZut(inst.home, noEnv)).toBe(true);
    expect(await applyCopilotMcp(inst, noEnv)).toEqual([]); // already there: nothing written
    expect(await removeCopilotMcp(inst.home, noEnv)).toEqual([{ file, changes: ['mcpServers.zut removed'] }]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { github: { type: 'http', url: 'https://example.test/mcp' } }, theirs: 1 });
    expect(await removeCopilotMcp(inst.home, noEnv)).toEqual([]);
  });

  it('a file made by the write alone is removed with our server; a link is written through; $COPILOT_HOME is honoured', async () => {
    const inst = setup();
    await applyCopilotMcp(inst, noEnv);
    const file = copilotMcpFile(inst.home, noEnv);
    expect(fs.existsSync(file)).toBe(true);
    await removeCopilotMcp(inst.home, noEnv);
    expect(fs.existsSync(file)).toBe(false);
    const elsewhere = path.join(inst.workspace, 'copilot-elsewhere');
    const env = { COPILOT_HOME: elsewhere };
    expect(copilotMcpFile(inst.home, env)).toBe(path.join(elsewhere, 'mcp-config.json'));
    expect(copilotMcpFile(inst.home, { COPILOT_HOME: 'relative/dir' })).toBe(file); // not absolute: the default
    fs.mkdirSync(elsewhere);
    const target = path.join(inst.workspace, 'dotfiles-mcp.json');
    fs.writeFileSync(target, '{"mcpServers": {}}\n');
    fs.symlinkSync(target, path.join(elsewhere, 'mcp-config.json'));
    await applyCopilotMcp(inst, env);
    expect(fs.lstatSync(path.join(elsewhere, 'mcp-config.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(target, 'utf8')).mcpServers.zut.type).toBe('local');
    expect(await copilotMcpNamesZut(inst.home, env)).toBe(true);
    expect(await copilotMcpNamesZut(inst.home, noEnv)).toBe(false);
  });

  it('a file that is not a JSON object, or whose mcpServers is not one, is refused and left as it is', async () => {
    const inst = setup();
    const file = copilotMcpFile(inst.home, noEnv);
    fs.mkdirSync(path.dirname(file));
    for (const text of ['not json', '[1]', '{"mcpServers": []}']) {
      fs.writeFileSync(file, text);
      await expect(applyCopilotMcp(inst, noEnv)).rejects.toThrow(/left as it is/);
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect(await copilotMcpNamesZut(inst.home, noEnv)).toBe(false);
    }
  });

  it("the check Where zut Reaches reads follows $COPILOT_HOME", async () => {
    const inst = setup();
    const elsewhere = path.join(inst.workspace, 'ch');
    const saved = process.env.COPILOT_HOME;
    process.env.COPILOT_HOME = elsewhere;
    try {
      await applyCopilotMcp(inst);
      expect(fs.existsSync(path.join(elsewhere, 'mcp-config.json'))).toBe(true);
      expect((await copilotCliCheck(inst, 'user')).mcpInstalled).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.COPILOT_HOME;
      else process.env.COPILOT_HOME = saved;
    }
    expect((await copilotCliCheck(inst, 'user')).mcpInstalled).toBe(false);
  });
});
