/**
 * Codex CLI's set-up row (src/agentSetup/agents/codex.ts): the TOML text editor for the tables zut owns in
 * config.toml (tomlText.ts), the trust hash as Codex 0.169.0's `hooks/list` reported it (codexTrust.ts), and install /
 * uninstall / check in a temporary home: hooks.json merged, trust recorded, the user's bytes kept, the trust of the
 * user's hooks moved with them, a stale or missing trust reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_ROW, failClosed } from '../../src/agentSetup/agents/codex';
import { trustHash, trustKey } from '../../src/agentSetup/agents/codexTrust';
import { definedElsewhere, findTable, readString, removeTable, renameTable, setTable, tomlTables } from '../../src/agentSetup/agents/tomlText';
import { setupRowOf } from '../../src/agentSetup/agents';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { cleanupTemps, tempDir } from '../helpers/temp';

afterEach(() => cleanupTemps());

const USER = `# my settings
model = "gpt-5.5" # inline comment
notes = """
[not.a.table]
"""
args = [
  "[also]",
]

[projects."/home/me/x"]
trust_level = "trusted"

# the next one is mine
[mcp_servers.other]
command = "x"
`;

describe('tomlText', () => {
  it('finds standard tables only (not inside multi-line strings or arrays), with quoted keys', () => {
    expect(tomlTables(USER).map((t) => t.path)).toEqual([['projects', '/home/me/x'], ['mcp_servers', 'other']]);
    expect(readString(USER, ['projects', '/home/me/x'], 'trust_level')).toBe('trusted');
  });

  it('appends a table at the end and removes it again, byte for byte', () => {
    const key = ['hooks', 'state', '/h/.codex/hooks.json:pre_tool_use:0:0'];
    const added = setTable(USER, key, { trusted_hash: 'sha256:ab' });
    expect(added).toBe(`${USER}\n[hooks.state."/h/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:ab"\n`);
    expect(readString(added, key, 'trusted_hash')).toBe('sha256:ab');
    expect(removeTable(added, key)).toBe(USER);
  });

  it('replaces our keys in place in an existing table, keeping the user\'s other keys and comments', () => {
    const text = '[mcp_servers.zut]\ncommand = "old" # was\nstartup_timeout_sec = 20\n\n[x]\na = 1\n';
    const out = setTable(text, ['mcp_servers', 'zut'], { command: '/n', args: ['a', 'b'] });
    expect(out).toBe('[mcp_servers.zut]\ncommand = "/n"\nstartup_timeout_sec = 20\nargs = ["a", "b"]\n\n[x]\na = 1\n');
    expect(removeTable(out, ['mcp_servers', 'zut'])).toBe('[x]\na = 1\n');
  });

  it('removing a table in the middle keeps the comment that introduces the next one', () => {
    const out = removeTable(USER, ['projects', '/home/me/x']);
    expect(out).toContain('args = [\n  "[also]",\n]\n\n# the next one is mine\n[mcp_servers.other]');
    expect(findTable(out, ['projects', '/home/me/x'])).toBeUndefined();
  });

  it('renames a table header, keeping its body', () => {
    const a = setTable('', ['hooks', 'state', 'f:stop:1:0'], { trusted_hash: 'h' });
    expect(renameTable(a, ['hooks', 'state', 'f:stop:1:0'], ['hooks', 'state', 'f:stop:0:0'])).toBe('[hooks.state."f:stop:0:0"]\ntrusted_hash = "h"\n');
  });

  it('sees our table defined another way (dotted keys, inline tables): the installer refuses rather than duplicate it', () => {
    expect(definedElsewhere('mcp_servers.zut.command = "x"\n', ['mcp_servers', 'zut'])).toBe(true);
    expect(definedElsewhere('[mcp_servers]\nzut = { command = "x" }\n', ['mcp_servers', 'zut'])).toBe(true);
    expect(definedElsewhere('mcp_servers = { zut = { command = "x" } }\n', ['mcp_servers', 'zut'])).toBe(true);
    expect(definedElsewhere(USER, ['mcp_servers', 'zut'])).toBe(false);
    expect(definedElsewhere('[mcp_servers.zut]\ncommand = "x"\n', ['mcp_servers', 'zut'])).toBe(false);
  });
});

describe('Codex hook trust', () => {
  it("is the hash Codex 0.169.0's hooks/list reported (matcher and timeout given; and both absent: 600 s, no matcher)", () => {
    const cmd = (e: string) => `node /work/wt-codex/test/agents/lib/logHook.mjs /tmp/cx/run-MoqHRH/hook.log ${e}`;
    expect(trustHash('PreToolUse', { matcher: '*', hooks: [{ type: 'command', command: cmd('PreToolUse'), timeout: 30 }] }, 0)).toBe('sha256:ffca4c511dcd776eed54c03f7a50db8bd3a7b2a7ed9c5738dd1784db1000121c');
    expect(trustHash('Stop', { hooks: [{ type: 'command', command: cmd('Stop') }] }, 0)).toBe('sha256:eaa1b2ace1b860f6d2577f1ad350b9c50fc83117fcd419123ca66b343ae46106');
    expect(trustKey('/h/.codex/hooks.json', 'UserPromptSubmit', 2, 0)).toBe('/h/.codex/hooks.json:user_prompt_submit:2:0');
  });
});

describe('Codex set-up row', () => {
  const inst = (): Installation => {
    const home = tempDir();
    return { node: '/usr/bin/node', cli: '/opt/zut/dist/cli.js', home, workspace: path.join(home, 'ws'), platform: 'linux' };
  };
  const read = (i: Installation, f: string) => fs.readFileSync(path.join(i.home, '.codex', f), 'utf8');

  it('is the row of --agent codex, user scope only', () => {
    expect(setupRowOf('codex')).toBe(CODEX_ROW);
    expect(CODEX_ROW.scopes).toEqual(['user']);
  });

  it('install: hooks.json after the user\'s groups, each trusted; MCP server; the user\'s TOML kept; check says they run', async () => {
    const i = inst();
    fs.mkdirSync(path.join(i.home, '.codex'));
    fs.writeFileSync(path.join(i.home, '.codex', 'config.toml'), USER);
    fs.writeFileSync(path.join(i.home, '.codex', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine' }] }] } }));
    await CODEX_ROW.installHooks(i, 'user');
    await CODEX_ROW.installMcp(i, 'user');
    const hooks = JSON.parse(read(i, 'hooks.json')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(hooks.hooks.PreToolUse.map((g) => g.hooks[0].command)).toEqual(['mine', failClosed("'/usr/bin/node' '/opt/zut/dist/cli.js' hook --agent codex PreToolUse")]);
    const cfg = read(i, 'config.toml');
    expect(cfg.startsWith(USER)).toBe(true);
    const file = path.join(i.home, '.codex', 'hooks.json');
    expect(readString(cfg, ['hooks', 'state', `${file}:pre_tool_use:1:0`], 'trusted_hash')).toBe(trustHash('PreToolUse', hooks.hooks.PreToolUse[1], 0));
    expect(findTable(cfg, ['hooks', 'state', `${file}:pre_tool_use:0:0`])).toBeUndefined(); // the user's own: not ours to trust
    expect(readString(cfg, ['mcp_servers', 'zut'], 'command')).toBe('/usr/bin/node');
    const c = await CODEX_ROW.check(i, 'user');
    expect(c).toMatchObject({ hooksInstalled: true, mcpInstalled: true, hooksRun: true, problems: [] });
    // Installing again changes nothing.
    await CODEX_ROW.installHooks(i, 'user');
    expect(read(i, 'config.toml')).toBe(cfg);
  });

  it('check: a missing or stale trusted_hash is a problem (Codex would skip the hook silently)', async () => {
    const i = inst();
    await CODEX_ROW.installHooks(i, 'user');
    const file = path.join(i.home, '.codex', 'hooks.json');
    let cfg = read(i, 'config.toml');
    cfg = removeTable(cfg, ['hooks', 'state', `${file}:stop:0:0`]);
    cfg = setTable(cfg, ['hooks', 'state', `${file}:pre_tool_use:0:0`], { trusted_hash: 'sha256:00' });
    fs.writeFileSync(path.join(i.home, '.codex', 'config.toml'), cfg);
    const c = await CODEX_ROW.check(i, 'user');
    expect(c.hooksRun).toBe(false);
    expect(c.problems).toEqual([
      expect.stringMatching(/:pre_tool_use:0:0 is trusted for other content \(stale trusted_hash\): Codex skips it silently/),
      expect.stringMatching(/:stop:0:0 is not trusted: Codex skips it silently/),
    ]);
  });

  it('uninstall takes out exactly ours, and moves the trust of a user\'s group that came after ours', async () => {
    const i = inst();
    await CODEX_ROW.installHooks(i, 'user');
    await CODEX_ROW.installMcp(i, 'user');
    const file = path.join(i.home, '.codex', 'hooks.json');
    // The user adds a Stop hook after ours and trusts it.
    const hooks = JSON.parse(read(i, 'hooks.json')) as { hooks: Record<string, unknown[]> };
    const theirs = { hooks: [{ type: 'command', command: 'their-stop', timeout: 5 }] };
    hooks.hooks.Stop.push(theirs);
    fs.writeFileSync(file, JSON.stringify(hooks, null, 2));
    const hash = trustHash('Stop', theirs, 0)!;
    fs.appendFileSync(path.join(i.home, '.codex', 'config.toml'), `\n[hooks.state."${file}:stop:1:0"]\ntrusted_hash = "${hash}"\n`);
    await CODEX_ROW.uninstallHooks(i, 'user');
    await CODEX_ROW.uninstallMcp(i, 'user');
    expect(JSON.parse(read(i, 'hooks.json'))).toEqual({ hooks: { Stop: [theirs] } });
    expect(read(i, 'config.toml')).toBe(`[hooks.state."${file}:stop:0:0"]\ntrusted_hash = "${hash}"\n`);
  });

  it('refuses to write a table of ours the user set as dotted keys (the file left as it is)', async () => {
    const i = inst();
    fs.mkdirSync(path.join(i.home, '.codex'));
    fs.writeFileSync(path.join(i.home, '.codex', 'config.toml'), 'mcp_servers.zut.command = "x"\n');
    await expect(CODEX_ROW.installMcp(i, 'user')).rejects.toThrow(/mcp_servers\.zut is set outside its own table: left as it is/);
    expect(read(i, 'config.toml')).toBe('mcp_servers.zut.command = "x"\n');
  });
});
