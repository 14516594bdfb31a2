/**
 * Gemini CLI's set-up row (src/agentSetup/agents/gemini.ts, geminiSettings.ts, geminiTrust.ts): zut's hooks and MCP
 * server merged into ~/.gemini/settings.json with every other byte kept, installed again in place, taken out exactly;
 * the BeforeTool command that turns a hook killed before answering into exit 2 (Gemini CLI's deny); and `check`
 * saying when Gemini CLI will not run the hooks (an untrusted folder, hooksConfig), with the line to add.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setupRowOf } from '../../src/agentSetup/agents';
import { failClosed, GEMINI_HOOK_TIMEOUT_MS } from '../../src/agentSetup/agents/geminiSettings';
import { geminiTrust } from '../../src/agentSetup/agents/geminiTrust';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { cleanupTemps, tempDir } from '../helpers/hostFixtures';

afterEach(() => cleanupTemps());

const row = setupRowOf('gemini')!;

function world(): { inst: Installation; settings: string; trusted: string } {
  const root = fs.realpathSync(tempDir('zut-gemini-'));
  const home = path.join(root, 'home');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  fs.mkdirSync(ws);
  const dist = path.join(root, 'dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'cli.js'), '');
  fs.writeFileSync(path.join(dist, 'hook.js'), '');
  const inst: Installation = { node: '/usr/bin/node', cli: path.join(dist, 'cli.js'), home, workspace: ws, platform: 'linux' };
  return { inst, settings: path.join(home, '.gemini', 'settings.json'), trusted: path.join(home, '.gemini', 'trustedFolders.json') };
}

/** The user's own settings, formatted their way (tabs, key order), with a hook of their own. */
const USER = '{\n\t"security": {"auth": {"selectedType": "gemini-api-key"}},\n\t"hooks": {\n\t\t"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "mine.sh"}]}]\n\t}\n}\n';

describe("Gemini CLI's set-up row", () => {
  it('is registered', () => {
    expect(row.label).toBe('Gemini CLI');
    expect(row.scopes).toEqual(['user', 'workspace']);
  });

  it('install merges hooks (timeout in ms, BeforeTool fail-closed) and mcpServers.zut; again changes nothing; uninstall gives the user\'s bytes back', async () => {
    const { inst, settings } = world();
    fs.writeFileSync(settings, USER);
    const steps = [...(await row.installHooks(inst, 'user')), ...(await row.installMcp(inst, 'user'))];
    expect(steps.map((s) => s.file)).toEqual([settings, settings]);
    const json = JSON.parse(fs.readFileSync(settings, 'utf8'));
    expect(Object.keys(json.hooks)).toEqual(['BeforeTool', 'SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent']);
    expect(json.hooks.BeforeTool[0]).toEqual({ matcher: 'write_file', hooks: [{ type: 'command', command: 'mine.sh' }] });
    const ours = json.hooks.BeforeTool[1];
    expect(ours.matcher).toBe('*');
    expect(ours.hooks[0]).toMatchObject({ type: 'command', name: 'zut', timeout: GEMINI_HOOK_TIMEOUT_MS });
    expect(ours.hooks[0].command).toBe(`'/usr/bin/node' '${path.dirname(inst.cli)}/hook.js' hook --agent gemini BeforeTool || { s=$?; echo "zut-host hook ended without answering: the tool call is denied (fail closed), exit $s" >&2; exit 2; }`);
    expect(json.hooks.SessionStart[0].hooks[0].command).toBe(`'/usr/bin/node' '${path.dirname(inst.cli)}/hook.js' hook --agent gemini SessionStart`);
    expect(json.mcpServers).toEqual({ zut: { command: '/usr/bin/node', args: [inst.cli, 'mcp'] } });
    expect(fs.readFileSync(settings, 'utf8').startsWith('{\n\t"security": {"auth": {"selectedType": "gemini-api-key"}},\n')).toBe(true);
    const once = fs.readFileSync(settings, 'utf8');
    expect(await row.installHooks(inst, 'user')).toEqual([]);
    expect(await row.installMcp(inst, 'user')).toEqual([]);
    expect(fs.readFileSync(settings, 'utf8')).toBe(once);
    await row.uninstallHooks(inst, 'user');
    await row.uninstallMcp(inst, 'user');
    expect(fs.readFileSync(settings, 'utf8')).toBe(USER);
  });

  it('an entry of this installation in another form (the CLI instead of the light entry) is replaced in place', async () => {
    const { inst, settings } = world();
    await row.installHooks({ ...inst, cli: path.join(path.dirname(inst.cli), 'hook.js') }, 'user');
    fs.rmSync(path.join(path.dirname(inst.cli), 'hook.js'));
    await row.installHooks(inst, 'user');
    const json = JSON.parse(fs.readFileSync(settings, 'utf8'));
    expect(json.hooks.BeforeTool).toHaveLength(1);
    expect(json.hooks.BeforeTool[0].hooks[0].command).toContain('/cli.js\' hook --agent gemini BeforeTool');
  });

  it('leaves a settings file it cannot read as strict JSON, and another `zut` MCP server, as they are', async () => {
    const { inst, settings } = world();
    fs.writeFileSync(settings, '{ // comments\n}\n');
    await expect(row.installHooks(inst, 'user')).rejects.toThrow(/is not strict JSON .*left as it is/);
    fs.writeFileSync(settings, '{"mcpServers": {"zut": {"command": "other"}}}');
    expect(await row.uninstallMcp(inst, 'user')).toEqual([{ file: settings, changes: ["mcpServers.zut is not this installation's: left as it is"] }]);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{"mcpServers": {"zut": {"command": "other"}}}');
  });

  it('workspace scope writes <folder>/.gemini/settings.json with `mcp --cwd <folder>`', async () => {
    const { inst } = world();
    await row.installHooks(inst, 'workspace');
    await row.installMcp(inst, 'workspace');
    const json = JSON.parse(fs.readFileSync(path.join(inst.workspace, '.gemini', 'settings.json'), 'utf8'));
    expect(json.mcpServers.zut.args).toEqual([inst.cli, 'mcp', '--cwd', inst.workspace]);
    expect(json.hooks.BeforeTool).toHaveLength(1);
  });
});

describe('check: whether Gemini CLI will run the hooks', () => {
  it('an untrusted folder is a problem naming the folder and the exact trustedFolders.json line; trusted, none', async () => {
    const { inst, trusted } = world();
    await row.installHooks(inst, 'user');
    const untrusted = await row.check(inst, 'user');
    expect(untrusted).toMatchObject({ agent: 'gemini', hooksInstalled: true, mcpInstalled: false, hooksRun: false });
    expect(untrusted.problems).toHaveLength(1);
    expect(untrusted.problems[0]).toContain(`${JSON.stringify(inst.workspace)}: "TRUST_FOLDER" to ${trusted}`);
    expect(fs.existsSync(trusted)).toBe(false); // the installer never trusts a folder itself
    fs.writeFileSync(trusted, JSON.stringify({ [inst.workspace]: 'TRUST_FOLDER' }));
    expect(await row.check(inst, 'user')).toMatchObject({ hooksInstalled: true, hooksRun: true, problems: [] });
  });

  it('hooksConfig.enabled false, or "zut" in hooksConfig.disabled: not run', async () => {
    const { inst, settings, trusted } = world();
    fs.writeFileSync(trusted, JSON.stringify({ [inst.workspace]: 'TRUST_FOLDER' }));
    fs.writeFileSync(settings, '{"hooksConfig": {"disabled": ["zut"]}}');
    await row.installHooks(inst, 'user');
    const c = await row.check(inst, 'user');
    expect(c.hooksRun).toBe(false);
    expect(c.problems[0]).toMatch(/hooksConfig.disabled names "zut"/);
  });

  it('trust rules as Gemini CLI reads them: the longest rule wins, TRUST_PARENT covers the parent, folder trust off trusts all', async () => {
    const { inst, trusted, settings } = world();
    const sub = path.join(inst.workspace, 'sub');
    fs.mkdirSync(sub);
    fs.writeFileSync(trusted, JSON.stringify({ [inst.workspace]: 'TRUST_FOLDER', [sub]: 'DO_NOT_TRUST' }));
    expect((await geminiTrust(inst.home, inst.workspace, {})).trusted).toBe(true);
    expect((await geminiTrust(inst.home, sub, {})).trusted).toBe(false);
    fs.writeFileSync(trusted, JSON.stringify({ [sub]: 'TRUST_PARENT' }));
    expect((await geminiTrust(inst.home, inst.workspace, {})).trusted).toBe(true);
    fs.writeFileSync(trusted, '{}');
    expect((await geminiTrust(inst.home, inst.workspace, { GEMINI_CLI_TRUST_WORKSPACE: 'true' })).trusted).toBe(true);
    fs.writeFileSync(settings, '{"security": {"folderTrust": {"enabled": false}}}');
    expect((await geminiTrust(inst.home, inst.workspace, {})).trusted).toBe(true);
  });
});

describe("BeforeTool's fail-closed command", () => {
  const sh = (command: string) => spawnSync('bash', ['-c', command], { encoding: 'utf8' });

  it('a hook killed before writing anything, or exiting 1 silently, becomes exit 2 with the reason on stderr; exit 0 stays 0 with its stdout', () => {
    const killed = sh(failClosed('sh -c \'kill -9 $$\'', 'sh'));
    expect(killed.status).toBe(2);
    expect(killed.stderr.endsWith('zut-host hook ended without answering: the tool call is denied (fail closed), exit 137\n')).toBe(true);
    expect(sh(failClosed("sh -c 'exit 1'", 'sh')).status).toBe(2);
    const fine = sh(failClosed('echo \'{"decision":"deny","reason":"r"}\'', 'sh'));
    expect(fine.status).toBe(0);
    expect(fine.stdout).toBe('{"decision":"deny","reason":"r"}\n');
  });
});
