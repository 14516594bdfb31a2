/**
 * `zut-host hook install|uninstall`: the real CLI bundle writes each agent's hook file (merging, never touching
 * other entries), the command it wrote runs through a shell as the agent would and answers with the guard's deny,
 * and uninstall takes out exactly our entries (the file goes when nothing else was in it).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, builtHook } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

let tmp: string;
let cli: string;
let home: string;
let workspace: string;
let zutHome: string;

beforeAll(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "zut-hook install '")));
  cli = path.join(tmp, 'cli.js');
  await fs.copyFile(builtCli(), cli);
  await fs.copyFile(builtHook(), path.join(tmp, 'hook.js'));
  home = path.join(tmp, 'home');
  workspace = path.join(tmp, 'workspace');
  zutHome = path.join(tmp, 'zut-home');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const guard = path.join(zutHome, 'extensions', 'hook-guard');
  await fs.mkdir(guard, { recursive: true });
  await fs.writeFile(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
}, 60_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const env = () => ({ ...process.env, HOME: home, ZUT_HOME: zutHome, ZOT_HOME: path.join(tmp, 'no-zot'), GUARD_LOG: path.join(tmp, 'guard.log'), ZUT_HOOK_WARM: '0' });
const zutHost = (...args: string[]) => runProcess(process.execPath, [cli, ...args], { cwd: workspace, env: env() });

/** Runs a hook command line through the shell, JSON on stdin. */
function shell(command: string, stdin: string): Promise<{ code: number | null; stdout: string }> {
  return runProcess(command, [], { shell: true, cwd: home, env: env(), stdin });
}

const OTHER = { type: 'command', command: 'echo someone-else', timeout: 5 };

describe('zut-host hook install / uninstall', () => {
  it('vscode, workspace scope: merges into .github/hooks/zut.json, the written command denies, uninstall leaves the rest', async () => {
    const file = path.join(workspace, '.github', 'hooks', 'zut.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ hooks: { PreToolUse: [OTHER] }, note: 'kept' }));

    const r = await zutHost('hook', 'install', '--agent', 'vscode', '--scope', 'workspace');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Merging into ${file}:`);
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { hooks: Record<string, { command: string; timeout: number }[]>; note: string };
    expect(written.note).toBe('kept');
    expect(written.hooks.PreToolUse).toHaveLength(2);
    expect(written.hooks.PreToolUse[0]).toEqual(OTHER);
    const ours = written.hooks.PreToolUse[1];
    expect(ours).toMatchObject({ type: 'command', timeout: 30 });
    // The light entry beside the CLI is what the agent runs per tool call.
    expect(ours.command).toBe(`'${process.execPath}' '${path.join(tmp, 'hook.js').replaceAll("'", "'\\''")}' hook --agent vscode PreToolUse`);
    expect(r.stdout).toContain(JSON.stringify(ours)); // the exact entry was shown
    expect(Object.keys(written.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit']);

    // Installing twice does not duplicate.
    await zutHost('hook', 'install', '--agent', 'vscode', '--scope', 'workspace');
    expect((JSON.parse(await fs.readFile(file, 'utf8')) as typeof written).hooks.PreToolUse).toHaveLength(2);

    // The command works on this machine (quoted absolute paths, even with a quote and spaces in them).
    const input = { cwd: workspace, session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /' } };
    const run = await shell(ours.command, JSON.stringify(input));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' } });

    const u = await zutHost('hook', 'uninstall', '--agent', 'vscode', '--scope', 'workspace');
    expect(u.stdout).toContain('Removed 6 entries.');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ hooks: { PreToolUse: [OTHER] }, note: 'kept' });
  }, 90_000);

  it('copilot-cli, user scope: ~/.copilot/hooks/zut.json with version 1 and camelCase events; uninstall deletes the file it made', async () => {
    const file = path.join(home, '.copilot', 'hooks', 'zut.json');
    await zutHost('hook', 'install', '--agent', 'copilot-cli', '--scope', 'user');
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { version: number; hooks: Record<string, { bash: string; timeoutSec: number }[]> };
    expect(written.version).toBe(1);
    expect(Object.keys(written.hooks).sort()).toEqual(['postToolUse', 'preToolUse', 'sessionStart', 'userPromptSubmitted']);
    const cmd = written.hooks.preToolUse[0].bash;
    expect(cmd).toMatch(/hook --agent copilot-cli preToolUse$/);
    const run = await shell(cmd, JSON.stringify({ timestamp: 1, cwd: workspace, toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf /' }) }));
    expect(JSON.parse(run.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' });
    await zutHost('hook', 'uninstall', '--agent', 'copilot-cli', '--scope', 'user');
    await expect(fs.access(file)).rejects.toThrow();
  }, 90_000);

  it('claude, workspace scope: merges into .claude/settings.local.json without touching other settings or hooks', async () => {
    const file = path.join(workspace, '.claude', 'settings.local.json');
    const before = { permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [OTHER] }] } };
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(before));
    await zutHost('hook', 'install', '--agent', 'claude', '--scope', 'workspace');
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { permissions: unknown; hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    expect(written.permissions).toEqual(before.permissions);
    expect(written.hooks.PreToolUse[0]).toEqual(before.hooks.PreToolUse[0]);
    expect(written.hooks.PreToolUse[1]).toMatchObject({ matcher: '*', hooks: [{ type: 'command', timeout: 30 }] });
    expect(written.hooks.Stop[0]).not.toHaveProperty('matcher');
    await zutHost('hook', 'uninstall', '--agent', 'claude', '--scope', 'workspace');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(before);
  }, 90_000);

  it("an entry of this installation's CLI form (written before hook.js) is ours: replaced in place, removed by uninstall", async () => {
    const file = path.join(workspace, '.github', 'hooks', 'zut.json');
    const q = (p: string) => `'${p.replaceAll("'", "'\\''")}'`;
    const old = { type: 'command', command: `${q(process.execPath)} ${q(cli)} hook --agent vscode PreToolUse`, timeout: 30 };
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ hooks: { PreToolUse: [OTHER, old] } }));
    await zutHost('hook', 'install', '--agent', 'vscode', '--scope', 'workspace');
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { hooks: Record<string, { command: string }[]> };
    expect(written.hooks.PreToolUse).toHaveLength(2);
    expect(written.hooks.PreToolUse[1].command).toContain('hook.js');
    await fs.writeFile(file, JSON.stringify({ hooks: { PreToolUse: [OTHER, old] } }));
    expect((await zutHost('hook', 'uninstall', '--agent', 'vscode', '--scope', 'workspace')).stdout).toContain('Removed 1 entry.');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ hooks: { PreToolUse: [OTHER] } });
    await fs.rm(file);
  }, 60_000);

  it('refuses to rewrite a file that is not JSON (left as it is)', async () => {
    const file = path.join(workspace, '.github', 'hooks', 'zut.json');
    await fs.writeFile(file, '{ broken');
    const r = await zutHost('hook', 'install', '--agent', 'vscode', '--scope', 'workspace');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not JSON');
    expect(await fs.readFile(file, 'utf8')).toBe('{ broken');
  }, 60_000);
});
