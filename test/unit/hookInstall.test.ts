/**
 * `zut-host hook install|uninstall`: the real CLI bundle writes each agent's hook file (merging, never touching
 * other entries), the command it wrote runs through a shell as the agent would and answers with the guard's deny,
 * and uninstall takes out exactly our entries (the file goes when nothing else was in it).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { applyInstall, planInstall } from '../../src/agentSetup/hookInstall';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

let tmp: string;
let cli: string;
let home: string;
let workspace: string;
let zutHome: string;

beforeAll(async () => {
  tmp = tempDir("zut-hook install '");
  cli = path.join(tmp, 'cli.js');
  hookBundlesIn(tmp);
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
  cleanupTemps();
});

const env = () => ({ ...process.env, HOME: home, ZUT_HOME: zutHome, ZOT_HOME: path.join(tmp, 'no-zot'), GUARD_LOG: path.join(tmp, 'guard.log'), ZUT_HOOK_WARM: '0', COPILOT_HOME: undefined });
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
    expect(Object.keys(written.hooks).sort()).toEqual(['notification', 'permissionRequest', 'postToolUse', 'preToolUse', 'sessionStart', 'userPromptSubmitted']);
    const cmd = written.hooks.preToolUse[0].bash;
    expect(cmd).toMatch(/hook --agent copilot-cli preToolUse$/);
    const run = await shell(cmd, JSON.stringify({ timestamp: 1, cwd: workspace, toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf /' }) }));
    expect(JSON.parse(run.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' });
    await zutHost('hook', 'uninstall', '--agent', 'copilot-cli', '--scope', 'user');
    await expect(fs.access(file)).rejects.toThrow();
  }, 90_000);

  it("copilot-cli, user scope with $COPILOT_HOME: the hooks go where Copilot CLI reads its configuration", async () => {
    const copilotHome = path.join(tmp, 'copilot-elsewhere');
    const file = path.join(copilotHome, 'hooks', 'zut.json');
    const run = (verb: string) => runProcess(process.execPath, [cli, 'hook', verb, '--agent', 'copilot-cli', '--scope', 'user'], { cwd: workspace, env: { ...env(), COPILOT_HOME: copilotHome } });
    expect((await run('install')).code).toBe(0);
    expect((JSON.parse(await fs.readFile(file, 'utf8')) as { version: number }).version).toBe(1);
    await expect(fs.access(path.join(home, '.copilot', 'hooks', 'zut.json'))).rejects.toThrow();
    expect((await run('uninstall')).code).toBe(0);
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

/** `zut-host hook install|uninstall` with its own HOME and workspace (under `base`). */
async function installIn(base: string, verb: 'install' | 'uninstall', agent: string, scope: string) {
  return runProcess(process.execPath, [cli, 'hook', verb, '--agent', agent, '--scope', scope], {
    cwd: path.join(base, 'ws'),
    env: { ...env(), HOME: path.join(base, 'home') },
  });
}

async function freshBase(name: string): Promise<string> {
  const base = path.join(tmp, name);
  await fs.mkdir(path.join(base, 'home'), { recursive: true });
  await fs.mkdir(path.join(base, 'ws'), { recursive: true });
  return base;
}

/** `~/.claude/settings.json` under `base` holding SETTINGS with `mode`; returns its path. */
async function claudeSettings(base: string, mode = 0o644): Promise<string> {
  const file = path.join(base, 'home', '.claude', 'settings.json');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, SETTINGS);
  await fs.chmod(file, mode);
  return file;
}

const SETTINGS = '{\n    "apiKeyHelper": "secret",\n    "hooks": {\n        "PreToolUse": [ {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]} ]\n    },\n    "model": "x"\n}\n';

describe("what the installer does with the user's file (careful writer)", () => {
  it("keeps the user's bytes: install then uninstall gives the file back byte for byte", async () => {
    const base = await freshBase('bytes');
    const file = await claudeSettings(base);
    expect((await installIn(base, 'install', 'claude', 'user')).code).toBe(0);
    const text = await fs.readFile(file, 'utf8');
    expect(text.startsWith('{\n    "apiKeyHelper": "secret",\n    "hooks": {\n        "PreToolUse": [ {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}, {"matcher":"*"')).toBe(true);
    expect(text.endsWith('\n    },\n    "model": "x"\n}\n')).toBe(true);
    const hooks = (JSON.parse(text) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> }).hooks;
    expect(hooks.Stop).toHaveLength(1);
    // PreToolUse fails closed even when the command cannot run ("onFailure": "block"); the permission events come too.
    expect(hooks.PreToolUse[1]).toMatchObject({ matcher: '*', hooks: [{ type: 'command', timeout: 30, onFailure: 'block' }] });
    expect(hooks.PostToolUse[0].hooks[0]).not.toHaveProperty('onFailure');
    expect(hooks.PermissionRequest[0]).toMatchObject({ matcher: '*' });
    expect(hooks.PermissionDenied[0]).toMatchObject({ matcher: '*' });
    expect((await installIn(base, 'install', 'claude', 'user')).code).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toBe(text); // nothing to change: not rewritten
    expect((await installIn(base, 'uninstall', 'claude', 'user')).stdout).toContain('Removed 8 entries.');
    expect(await fs.readFile(file, 'utf8')).toBe(SETTINGS);
  }, 60_000);

  it('a 0600 file stays 0600 (and keeps its owner) through install and uninstall', async () => {
    const base = await freshBase('mode');
    const file = await claudeSettings(base, 0o600);
    // As root (CI, this machine) the file is given to another owner first, which the writer must keep.
    const owner = process.getuid?.() === 0 ? { uid: 4242, gid: 4343 } : { uid: (await fs.stat(file)).uid, gid: (await fs.stat(file)).gid };
    await fs.chown(file, owner.uid, owner.gid);
    const r = await installIn(base, 'install', 'claude', 'user');
    expect(r.stderr).toBe('');
    let st = await fs.stat(file);
    expect({ mode: st.mode & 0o7777, uid: st.uid, gid: st.gid }).toEqual({ mode: 0o600, ...owner });
    await installIn(base, 'uninstall', 'claude', 'user');
    st = await fs.stat(file);
    expect({ mode: st.mode & 0o7777, uid: st.uid, gid: st.gid }).toEqual({ mode: 0o600, ...owner });
    expect(await fs.readFile(file, 'utf8')).toBe(SETTINGS);
    expect(await fs.readdir(path.dirname(file))).toEqual(['settings.json']); // no temporary file left
  }, 60_000);

  it('a symlinked (dotfiles) settings file is written through: the link stays, its target gets the entries and loses them again', async () => {
    const base = await freshBase('link');
    const dotfiles = path.join(base, 'dotfiles', 'claude-settings.json');
    await fs.mkdir(path.dirname(dotfiles), { recursive: true });
    await fs.writeFile(dotfiles, SETTINGS);
    const file = path.join(base, 'home', '.claude', 'settings.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.symlink(dotfiles, file);
    expect((await installIn(base, 'install', 'claude', 'user')).code).toBe(0);
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(file)).toBe(dotfiles);
    expect((JSON.parse(await fs.readFile(dotfiles, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks.PreToolUse).toHaveLength(2);
    await installIn(base, 'uninstall', 'claude', 'user');
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(dotfiles, 'utf8')).toBe(SETTINGS);

    // A linked hooks file of ours alone is emptied through the link, never deleted (the link would dangle).
    const hooks = path.join(base, 'home', '.copilot', 'hooks', 'zut.json');
    const real = path.join(base, 'dotfiles', 'zut.json');
    await fs.mkdir(path.dirname(hooks), { recursive: true });
    await fs.writeFile(real, '{}\n');
    await fs.symlink(real, hooks);
    await installIn(base, 'install', 'vscode', 'user');
    expect((await installIn(base, 'uninstall', 'vscode', 'user')).stdout).toContain('Removed 6 entries.');
    expect((await fs.lstat(hooks)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await fs.readFile(real, 'utf8'))).toEqual({ hooks: {} });
  }, 60_000);

  it('a read-only file is refused by name and left byte for byte, install and uninstall', async () => {
    const base = await freshBase('readonly');
    const file = await claudeSettings(base, 0o444);
    const r = await installIn(base, 'install', 'claude', 'user');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} is read-only: left as it is`);
    expect(await fs.readFile(file, 'utf8')).toBe(SETTINGS);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o444);
    // Made writable, installed, then read-only again: uninstall refuses too.
    await fs.chmod(file, 0o644);
    await installIn(base, 'install', 'claude', 'user');
    const installed = await fs.readFile(file, 'utf8');
    await fs.chmod(file, 0o444);
    const u = await installIn(base, 'uninstall', 'claude', 'user');
    expect(u.code).toBe(1);
    expect(u.stderr).toContain(`${file} is read-only: left as it is`);
    expect(await fs.readFile(file, 'utf8')).toBe(installed);
    expect(await fs.readdir(path.dirname(file))).toEqual(['settings.json']);
  }, 60_000);

  it("a repository's planted links: temporary names, a hooks file or a folder leading out of the workspace are refused, the victim untouched", async () => {
    const base = await freshBase('planted');
    const victim = await claudeSettings(base, 0o600);
    const ws = path.join(base, 'ws');

    // A link at the name the old writer picked (`<target>.zut-<pid>.tmp`; the installer runs in this process here).
    const hooks = path.join(ws, '.github', 'hooks');
    await fs.mkdir(hooks, { recursive: true });
    await fs.symlink(victim, path.join(hooks, `zut.json.zut-${process.pid}.tmp`));
    const inst = { node: process.execPath, cli, home: path.join(base, 'home'), workspace: ws, platform: process.platform };
    await applyInstall(planInstall(inst, 'vscode', 'workspace'));
    expect(await fs.readFile(victim, 'utf8')).toBe(SETTINGS);
    expect((await fs.lstat(path.join(hooks, 'zut.json'))).isFile()).toBe(true);
    expect((await fs.readdir(hooks)).sort()).toEqual(['zut.json', `zut.json.zut-${process.pid}.tmp`]);
    await fs.rm(hooks, { recursive: true });

    // A repository hooks file linking to the user's settings: refused, nothing copied into the repository.
    await fs.mkdir(hooks, { recursive: true });
    await fs.symlink(victim, path.join(hooks, 'zut.json'));
    const out = await installIn(base, 'install', 'vscode', 'workspace');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${path.join(hooks, 'zut.json')} leads outside the workspace ${ws} (to ${victim}) through a link: left as it is`);
    expect(await fs.readFile(victim, 'utf8')).toBe(SETTINGS);
    expect((await fs.lstat(path.join(hooks, 'zut.json'))).isSymbolicLink()).toBe(true);
    expect((await installIn(base, 'uninstall', 'vscode', 'workspace')).code).toBe(1);

    // .claude as a link to the user's ~/.claude: settings.local.json would land there.
    await fs.symlink(path.dirname(victim), path.join(ws, '.claude'));
    const c = await installIn(base, 'install', 'claude', 'workspace');
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('leads outside the workspace');
    expect(await fs.readdir(path.dirname(victim))).toEqual(['settings.json']);
    expect(await fs.readFile(victim, 'utf8')).toBe(SETTINGS);
  }, 60_000);

  it('a link inside the workspace is written through (the link kept)', async () => {
    const base = await freshBase('inside');
    const ws = path.join(base, 'ws');
    const shared = path.join(ws, 'config', 'hooks.json');
    await fs.mkdir(path.dirname(shared), { recursive: true });
    await fs.writeFile(shared, '{"hooks": {}}');
    await fs.mkdir(path.join(ws, '.github', 'hooks'), { recursive: true });
    await fs.symlink('../../config/hooks.json', path.join(ws, '.github', 'hooks', 'zut.json'));
    expect((await installIn(base, 'install', 'vscode', 'workspace')).code).toBe(0);
    expect((await fs.lstat(path.join(ws, '.github', 'hooks', 'zut.json'))).isSymbolicLink()).toBe(true);
    expect(Object.keys((JSON.parse(await fs.readFile(shared, 'utf8')) as { hooks: object }).hooks)).toHaveLength(6);
  }, 60_000);
});

