/**
 * The stable launcher (src/hooks/launcher.ts) and what runs it: the written POSIX launcher is executed for real with a
 * fake cli.js / hook.js that report their argv, ELECTRON_RUN_AS_NODE, stdin and exit with a chosen code (argv, env,
 * stdin and the exit code pass through; `hook` goes to hook.js only while it exists, `hook install` never), it is
 * rewritten only when its text or mode changes, atomically; the MCP client snippets (src/hooks/mcpConfig.ts) name
 * the launcher and their arguments reach the CLI exactly; hook entries written with a launcher (src/hooks/install.ts)
 * run it through a shell, and removal finds them again. The real CLI answers through the launcher too, and its
 * `hook install` run through the launcher writes the launcher (the variable it sets is not passed on to children).
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInstall, applyUninstall, hookCommand, hookEntry, installedCount, planInstall } from '../../src/hooks/install';
import { ensureLauncher, launcherPath, posixLauncher, shQuote, takeLauncherEnv, windowsLauncher, writeIfChanged, type LauncherTarget } from '../../src/hooks/launcher';
import { mcpSnippet } from '../../src/hooks/mcpConfig';
import { builtCli } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

const FAKE = (who: string) => `
const chunks = [];
process.stdin.on('data', (d) => chunks.push(d));
process.stdin.on('end', () => {
  const argv = process.argv.slice(2);
  process.stdout.write(JSON.stringify({ who: ${JSON.stringify(who)}, argv, electron: process.env.ELECTRON_RUN_AS_NODE ?? null, self: process.env.ZUT_HOST_LAUNCHER ?? null, stdin: Buffer.concat(chunks).toString() }));
  const i = argv.indexOf('--exit');
  process.exitCode = i >= 0 ? Number(argv[i + 1]) : 0;
});
`;

let tmp: string;
let bin: string;
let target: LauncherTarget;
let launcher: string;

beforeAll(async () => {
  // A space and a quote in every path: the launcher must quote them.
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "zut launcher '")));
  bin = path.join(tmp, 'global storage', 'bin');
  const dist = path.join(tmp, "ext v1 'x'", 'dist');
  await fs.mkdir(dist, { recursive: true });
  target = { node: process.execPath, cli: path.join(dist, 'cli.js'), hook: path.join(dist, 'hook.js'), version: '1.2.3' };
  await fs.writeFile(target.cli, FAKE('cli'));
  await fs.writeFile(target.hook, FAKE('hook'));
  launcher = (await ensureLauncher(bin, target, 'linux')).launcher;
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

interface Seen {
  who: string;
  argv: string[];
  electron: string | null;
  /** ZUT_HOST_LAUNCHER as the CLI saw it. */
  self: string | null;
  stdin: string;
}

/** Runs `command` with `args` (no shell) or a command line through `sh` (args undefined); stdin given. */
async function run(command: string, args: string[] | undefined, stdin = '', env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; seen: Seen; stderr: string }> {
  const r = await runProcess(command, args ?? [], args ? { env, stdin } : { shell: true, cwd: os.homedir(), env, stdin });
  try {
    return { code: r.code, seen: JSON.parse(r.stdout) as Seen, stderr: r.stderr };
  } catch {
    throw new Error(`no JSON from ${command}: ${r.stdout} ${r.stderr}`);
  }
}

describe.skipIf(process.platform === 'win32')('the POSIX launcher', () => {
  it('is written 0755 at <dir>/zut-host and runs the CLI with argv, stdin, ELECTRON_RUN_AS_NODE=1 and the exit code passed through', async () => {
    expect(launcher).toBe(path.join(bin, 'zut-host'));
    expect((await fs.stat(launcher)).mode & 0o777).toBe(0o755);
    const args = ['tool', 'a b', "it's", '$HOME', '"q"', '*', '', '--exit', '3'];
    const r = await run(launcher, args, 'in put', { ...process.env, ELECTRON_RUN_AS_NODE: undefined });
    expect(r.seen).toEqual({ who: 'cli', argv: args, electron: '1', self: launcher, stdin: 'in put' });
    expect(r.code).toBe(3);
  });

  it('routes `hook EVENT` to hook.js while it exists, `hook install|uninstall` to the CLI, and `hook` to the CLI once hook.js is gone', async () => {
    const event = ['hook', '--agent', 'vscode', 'PreToolUse'];
    expect((await run(launcher, event, '{"x":1}')).seen).toEqual({ who: 'hook', argv: event, electron: '1', self: launcher, stdin: '{"x":1}' });
    expect((await run(launcher, [...event, '--exit', '2'])).code).toBe(2);
    for (const verb of ['install', 'uninstall']) expect((await run(launcher, ['hook', verb, '--agent', 'vscode'])).seen.who).toBe('cli');
    expect((await run(launcher, ['doctor'])).seen.who).toBe('cli');
    // The CLI gone (an update not yet activated, or the extension removed): a clear error, exit 1.
    await fs.rename(target.cli, `${target.cli}.away`);
    try {
      const gone = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(launcher, event, { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(gone).toEqual({ code: 1, stderr: `zut-host: ${target.cli} is gone (zut-vscode was updated or removed): start VS Code once to rewrite this launcher\n` });
    } finally {
      await fs.rename(`${target.cli}.away`, target.cli);
    }
    await fs.rename(target.hook, `${target.hook}.away`);
    try {
      expect((await run(launcher, event)).seen).toMatchObject({ who: 'cli', argv: event });
    } finally {
      await fs.rename(`${target.hook}.away`, target.hook);
    }
  });

  it('is rewritten only when its text or mode changes, through a rename (no temporary file left)', async () => {
    const before = await fs.stat(launcher);
    expect((await ensureLauncher(bin, target, 'linux')).written).toBe(false);
    expect((await fs.stat(launcher)).ino).toBe(before.ino);
    // An update: the new version's paths.
    const next = { ...target, version: '1.2.4' };
    expect((await ensureLauncher(bin, next, 'linux')).written).toBe(true);
    expect(await fs.readFile(launcher, 'utf8')).toBe(posixLauncher(next, launcher));
    expect((await fs.stat(launcher)).ino).not.toBe(before.ino);
    // A launcher that lost its execute bits is written again.
    await fs.chmod(launcher, 0o644);
    expect(await writeIfChanged(launcher, posixLauncher(next, launcher))).toBe(true);
    expect((await fs.stat(launcher)).mode & 0o777).toBe(0o755);
    expect(await fs.readdir(bin)).toEqual(['zut-host']);
    await ensureLauncher(bin, target, 'linux');
  });

  it('runs the real CLI', async () => {
    const real = path.join(tmp, 'real');
    const { launcher: l } = await ensureLauncher(real, { ...target, cli: builtCli(), hook: path.join(tmp, 'no-hook.js') }, 'linux');
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(l, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\d+\.\d+\.\d+/);

    // `hook install` run through the launcher writes entries that run the launcher (they survive an update), and
    // `hook uninstall` through it finds them again.
    const ws = path.join(tmp, 'real-ws');
    await fs.mkdir(ws, { recursive: true });
    const env = { ...process.env, HOME: tmp };
    const install = await runProcess(l, ['hook', 'install', '--agent', 'claude', '--scope', 'workspace', '--cwd', ws], { env });
    expect(install.code).toBe(0);
    const file = path.join(ws, '.claude', 'settings.local.json');
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(written.hooks.PreToolUse[0].hooks[0].command).toBe(`${shQuote(l)} hook --agent claude PreToolUse`);
    const uninstall = await runProcess(l, ['hook', 'uninstall', '--agent', 'claude', '--scope', 'workspace', '--cwd', ws], { env });
    expect(uninstall.stdout).toContain('Removed 6 entries.');
    // Without the launcher, the CLI verb writes its own Node and hook entry, as before.
    const direct = await runProcess(process.execPath, [builtCli(), 'hook', 'install', '--agent', 'claude', '--scope', 'workspace', '--cwd', ws], { env });
    expect(direct.code).toBe(0);
    expect((JSON.parse(await fs.readFile(file, 'utf8')) as typeof written).hooks.PreToolUse[0].hooks[0].command).toBe(`${shQuote(process.execPath)} ${shQuote(hookEntry({ node: process.execPath, cli: builtCli(), home: tmp, workspace: ws, platform: process.platform }))} hook --agent claude PreToolUse`);
  }, 60_000);

  it('the CLI takes ZUT_HOST_LAUNCHER out of its environment (no child inherits it) and keeps only an absolute, existing path', () => {
    process.env.ZUT_HOST_LAUNCHER = launcher;
    expect(takeLauncherEnv()).toBe(launcher);
    expect(process.env.ZUT_HOST_LAUNCHER).toBeUndefined();
    expect(takeLauncherEnv()).toBe(launcher);
  });
});

describe('launcher texts', () => {
  it('the Windows launcher sets ELECTRON_RUN_AS_NODE, routes hook like the POSIX one, doubles % and refuses a quote', () => {
    const t = { node: 'C:\\Program Files\\Code\\Code.exe', cli: 'C:\\Users\\a%b\\ext\\dist\\cli.js', hook: 'C:\\Users\\a%b\\ext\\dist\\hook.js', version: '1.0.0' };
    const text = windowsLauncher(t);
    expect(text.split('\r\n')).toEqual([
      '@echo off',
      'rem zut-host launcher, written by zut-vscode 1.0.0 when it starts (rewritten after each update).',
      'setlocal',
      'set "ELECTRON_RUN_AS_NODE=1"',
      'set "ZUT_HOST_LAUNCHER=%~f0"',
      'if exist "C:\\Users\\a%%b\\ext\\dist\\cli.js" goto run',
      'echo zut-host: "C:\\Users\\a%%b\\ext\\dist\\cli.js" is gone, zut-vscode was updated or removed: start VS Code once to rewrite this launcher 1>&2',
      'exit /b 1',
      ':run',
      'if not "%~1"=="hook" goto cli',
      'if "%~2"=="install" goto cli',
      'if "%~2"=="uninstall" goto cli',
      'if not exist "C:\\Users\\a%%b\\ext\\dist\\hook.js" goto cli',
      '"C:\\Program Files\\Code\\Code.exe" "C:\\Users\\a%%b\\ext\\dist\\hook.js" %*',
      'exit /b %ERRORLEVEL%',
      ':cli',
      '"C:\\Program Files\\Code\\Code.exe" "C:\\Users\\a%%b\\ext\\dist\\cli.js" %*',
      'exit /b %ERRORLEVEL%',
      '',
    ]);
    expect(() => windowsLauncher({ ...t, cli: 'C:\\a"b\\cli.js' })).toThrow(/double quote/);
    expect(launcherPath('C:\\Users\\a\\bin', 'win32')).toBe('C:\\Users\\a\\bin\\zut-host.cmd');
  });

  it('the POSIX launcher refuses a path with a line break', () => {
    expect(() => posixLauncher({ ...target, cli: '/a\nb/cli.js' }, '/x/zut-host')).toThrow(/line break/);
  });
});

describe('MCP client snippets', () => {
  const folder = "/home/me/my project's";
  const o = { launcher: '/home/me/.config/Code/User/globalStorage/zut.zut-vscode/bin/zut-host', folder, allowProject: true, platform: 'linux' as const };

  it('VS Code: {"servers": {zut: {type: "stdio", command: <launcher>, args}}}; Claude Desktop and Cursor: {"mcpServers": …}; the server is always `zut`', () => {
    expect(JSON.parse(mcpSnippet('vscode', o).text)).toEqual({ servers: { zut: { type: 'stdio', command: o.launcher, args: ['mcp', '--cwd', folder, '--allow-project'] } } });
    for (const c of ['claude-desktop', 'cursor'] as const) {
      expect(JSON.parse(mcpSnippet(c, o).text)).toEqual({ mcpServers: { zut: { command: o.launcher, args: ['mcp', '--cwd', folder, '--allow-project'] } } });
    }
    expect(JSON.parse(mcpSnippet('cursor', { ...o, allowProject: false, folder: '/' }).text).mcpServers.zut.args).toEqual(['mcp', '--cwd', '/']);
    expect(mcpSnippet('claude-desktop', o).where).toMatch(/claude_desktop_config\.json/);
  });

  it.skipIf(process.platform === 'win32')('the generic command line, run by a shell, gives the CLI exactly those arguments', async () => {
    const odd = path.join(tmp, "work $dir 'q'");
    const line = mcpSnippet('generic', { ...o, launcher, folder: odd }).text;
    expect((await run(line, undefined)).seen).toEqual({ who: 'cli', argv: ['mcp', '--cwd', odd, '--allow-project'], electron: '1', self: launcher, stdin: '' });
  });
});

describe('hook entries that run the launcher', () => {
  it('hookCommand names the launcher (quoted, POSIX and cmd forms); the CLI form is unchanged without one', () => {
    const inst = { node: '/n/node', cli: '/c/cli.js', home: '/h', workspace: '/w', platform: 'linux' as const };
    expect(hookCommand(inst, 'vscode', 'PreToolUse')).toBe("'/n/node' '/c/cli.js' hook --agent vscode PreToolUse");
    expect(hookCommand({ ...inst, launcher: "/g s/it's/zut-host" }, 'vscode', 'PreToolUse')).toBe(`'/g s/it'\\''s/zut-host' hook --agent vscode PreToolUse`);
    expect(hookCommand({ ...inst, launcher: 'C:\\g s\\zut-host.cmd', platform: 'win32' }, 'claude', 'Stop')).toBe('"C:\\g s\\zut-host.cmd" hook --agent claude Stop');
  });

  it.skipIf(process.platform === 'win32')('are written, counted, run through a shell from the home folder (reaching hook.js) and removed exactly', async () => {
    const workspace = path.join(tmp, 'ws');
    const file = path.join(workspace, '.github', 'hooks', 'zut.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const other = { type: 'command', command: 'echo other', timeout: 5 };
    await fs.writeFile(file, JSON.stringify({ hooks: { PreToolUse: [other] } }));
    const plan = planInstall({ node: process.execPath, cli: target.cli, launcher, home: tmp, workspace, platform: 'linux' }, 'vscode', 'workspace');
    expect(await installedCount(plan)).toBe(0);
    await applyInstall(plan);
    expect(await installedCount(plan)).toBe(6);
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { hooks: Record<string, { command: string }[]> };
    const command = written.hooks.PreToolUse[1].command;
    const r = await run(command, undefined, '{"hook_event_name":"PreToolUse"}');
    expect(r.seen).toEqual({ who: 'hook', argv: ['hook', '--agent', 'vscode', 'PreToolUse'], electron: '1', self: launcher, stdin: '{"hook_event_name":"PreToolUse"}' });
    expect(await applyUninstall(plan)).toBe(6);
    expect(await installedCount(plan)).toBe(0);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ hooks: { PreToolUse: [other] } });
  });
});
