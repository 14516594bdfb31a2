/**
 * `zut-host hook install --agent claude` with zut's MCP server (Claude Code's mcp_tool hooks): the real CLI bundle
 * writes `mcp_tool` entries when the server is configured for Claude Code (or `--with-mcp` configures it, approved in
 * settings.local.json), keeps SessionStart a command, swaps either kind for the other in place (`--command-hooks`
 * goes back), leaves the user's entries alone, and uninstall takes out both kinds.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

afterAll(cleanupTemps);

let tmp: string;
let cli: string;
let home: string;
let ws: string;

beforeEach(async () => {
  tmp = tempDir('zut-hook-mcp-');
  cli = path.join(tmp, 'cli.js');
  hookBundlesIn(tmp);
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(ws, { recursive: true });
}, 60_000);

const zutHost = async (...args: string[]) => {
  const r = await runProcess(process.execPath, [cli, 'hook', ...args, '--agent', 'claude', '--cwd', ws], { cwd: ws, env: { ...process.env, HOME: home } });
  if (r.code !== 0) throw new Error(`zut-host hook ${args.join(' ')}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};
const readJson = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8'));
const settingsFile = () => path.join(ws, '.claude', 'settings.local.json');
const kinds = async () => {
  const hooks = (await readJson(settingsFile())).hooks as Record<string, { hooks: { type: string }[] }[]>;
  return Object.fromEntries(Object.entries(hooks).map(([event, list]) => [event, list.flatMap((e) => e.hooks.map((h) => h.type)).join(',')]));
};

describe('hook install --agent claude: mcp_tool hooks', () => {
  it('--with-mcp writes .mcp.json (approved in settings.local.json) and mcp_tool entries; SessionStart stays a command', async () => {
    const out = await zutHost('install', '--scope', 'workspace', '--with-mcp');
    expect(out).toContain('Claude Code blocks every tool call');
    const mcp = await readJson(path.join(ws, '.mcp.json'));
    expect(mcp.mcpServers.zut).toEqual({ type: 'stdio', command: process.execPath, args: [path.join(tmp, 'cli.js'), 'mcp', '--cwd', ws] });
    const settings = await readJson(settingsFile());
    expect(settings.enabledMcpjsonServers).toEqual(['zut']);
    expect(await kinds()).toMatchObject({ SessionStart: 'command', PreToolUse: 'mcp_tool', PostToolUse: 'mcp_tool', UserPromptSubmit: 'mcp_tool', Stop: 'mcp_tool' });
    const pre = settings.hooks.PreToolUse[0];
    expect(pre).toEqual({
      matcher: '*',
      hooks: [
        {
          type: 'mcp_tool',
          server: 'zut',
          tool: 'zut_hook',
          input: { agent: 'claude', event: 'PreToolUse', session_id: '${session_id}', cwd: '${cwd}', hook_event_name: '${hook_event_name}', tool_name: '${tool_name}', tool_input: '${tool_input}', tool_use_id: '${tool_use_id}' },
          timeout: 30,
          onFailure: 'block',
        },
      ],
    });
    expect(settings.hooks.PostToolUse[0].hooks[0].onFailure).toBeUndefined();
  });

  it('without a flag: commands when no zut server is configured, mcp_tool once one is; --command-hooks swaps back in place; uninstall takes both', async () => {
    await fs.mkdir(path.dirname(settingsFile()), { recursive: true });
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] };
    await fs.writeFile(settingsFile(), JSON.stringify({ hooks: { PreToolUse: [mine] } }, null, 2));
    await zutHost('install', '--scope', 'workspace');
    expect((await kinds()).PreToolUse).toBe('command,command');
    // The server configured by hand in user scope (~/.claude.json, as `claude mcp add --scope user` writes it).
    await fs.writeFile(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { zut: { type: 'stdio', command: 'zut-host', args: ['mcp'] } } }));
    expect(await zutHost('install', '--scope', 'workspace')).toContain('the hooks call it (mcp_tool)');
    expect((await kinds()).PreToolUse).toBe('command,mcp_tool'); // the user's first, ours replaced in place
    // SessionStart, still a command, starts no warm host: nothing else would call it (its extensions would run twice).
    const sessionStart = () => readJson(settingsFile()).then((s) => (s.hooks.SessionStart as { hooks: { command: string }[] }[]).map((e) => e.hooks[0]!.command));
    expect(await sessionStart()).toEqual([expect.stringMatching(/ hook --agent claude --no-warm SessionStart$/)]);
    await zutHost('install', '--scope', 'workspace', '--command-hooks');
    expect((await kinds()).PreToolUse).toBe('command,command');
    expect(await sessionStart()).toEqual([expect.stringMatching(/ hook --agent claude SessionStart$/)]); // replaced, not added
    await zutHost('install', '--scope', 'workspace');
    expect(await zutHost('uninstall', '--scope', 'workspace')).toMatch(/Removed 8 entries/);
    expect((await readJson(settingsFile())).hooks).toEqual({ PreToolUse: [mine] });
  });

  it('a user-scope hook counts only a user-scope server; --with-mcp for user scope writes ~/.claude.json, keeping its other members', async () => {
    await fs.writeFile(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { zut: { command: 'x' } } }));
    await zutHost('install', '--scope', 'user');
    const userSettings = path.join(home, '.claude', 'settings.json');
    expect((await readJson(userSettings)).hooks.PreToolUse[0].hooks[0].type).toBe('command');
    await fs.writeFile(path.join(home, '.claude.json'), JSON.stringify({ numStartups: 3, mcpServers: { other: { command: 'y' } } }));
    await zutHost('install', '--scope', 'user', '--with-mcp');
    const claudeJson = await readJson(path.join(home, '.claude.json'));
    expect(claudeJson).toMatchObject({ numStartups: 3, mcpServers: { other: { command: 'y' }, zut: { type: 'stdio', args: [path.join(tmp, 'cli.js'), 'mcp'] } } });
    expect((await readJson(userSettings)).hooks.PreToolUse[0].hooks[0].type).toBe('mcp_tool');
  });

  it('refuses the flags for other agents and together', async () => {
    const r = await runProcess(process.execPath, [cli, 'hook', 'install', '--agent', 'vscode', '--scope', 'workspace', '--with-mcp'], { cwd: ws, env: { ...process.env, HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-mcp and --command-hooks are for hook install --agent claude');
    await expect(zutHost('install', '--scope', 'workspace', '--with-mcp', '--command-hooks')).rejects.toThrow(/exclude each other/);
  });
});

describe('zut-host doctor: mcp_tool hooks without zut MCP server', () => {
  const doctor = () =>
    runProcess(process.execPath, [cli, 'doctor', '--cwd', ws, '--no-zot', '--no-e'], { cwd: ws, env: { ...process.env, HOME: home, ZUT_HOME: path.join(home, '.zut') } });

  it('says nothing while the server is configured; once it is removed, names the file, the blocked calls and the fix (exit 1)', async () => {
    await zutHost('install', '--scope', 'workspace', '--with-mcp');
    const fine = await doctor();
    expect(fine.stdout).not.toContain('cannot work');
    expect(fine.code).toBe(0);

    await fs.writeFile(path.join(ws, '.mcp.json'), '{"mcpServers": {}}\n'); // the user took the server out, not the hooks
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('agent hooks that cannot work:');
    expect(r.stdout).toContain(settingsFile());
    expect(r.stdout).toContain('Claude Code blocks every tool call');
    expect(r.stdout).toContain('zut-host hook install --agent claude --scope workspace --with-mcp');
    expect(r.stdout).toContain('--command-hooks');

    await zutHost('install', '--scope', 'workspace', '--command-hooks'); // the way back: commands, nothing to report
    expect((await doctor()).code).toBe(0);
  });
});
