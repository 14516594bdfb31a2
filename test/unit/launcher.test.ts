/**
 * The stable launcher (src/agentSetup/launcher.ts) and what runs it: the written POSIX launcher is executed for real with a
 * fake cli.js / hook.js that report their argv, ELECTRON_RUN_AS_NODE, stdin and exit with a chosen code (argv, env,
 * stdin and the exit code pass through; `hook` goes to hook.js only while it exists, `hook install` never), it is
 * rewritten only when its text or mode changes, atomically, and replaced, never written through a link placed at its
 * path (its target is left as it was); the MCP client snippets (src/agentSetup/mcpConfig.ts) name
 * the launcher and their arguments reach the CLI exactly; hook entries written with a launcher (src/agentSetup/hookInstall.ts)
 * run it through a shell, and removal finds them again. The real CLI answers through the launcher too, and its
 * `hook install` run through the launcher writes the launcher (the variable it sets is not passed on to children).
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { applyInstall, applyUninstall, hookCommand, hookEntry, installedCount, planInstall } from '../../src/agentSetup/hookInstall';
import { ensureLauncher, launcherPath, posixLauncher, psQuote, shQuote, takeLauncherEnv, windowsLauncher, writeIfChanged, type LauncherTarget } from '../../src/agentSetup/launcher';
import { allowProjectNote, mcpClients, mcpConfigFile, mcpSnippet } from '../../src/agentSetup/mcpConfig';
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
  tmp = tempDir("zut launcher '");
  bin = path.join(tmp, 'global storage', 'bin');
  const dist = path.join(tmp, "ext v1 'x'", 'dist');
  await fs.mkdir(dist, { recursive: true });
  target = { node: process.execPath, cli: path.join(dist, 'cli.js'), hook: path.join(dist, 'hook.js'), version: '1.2.3' };
  await fs.writeFile(target.cli, FAKE('cli'));
  await fs.writeFile(target.hook, FAKE('hook'));
  launcher = (await ensureLauncher(bin, target, 'linux')).launcher;
});

afterAll(async () => {
  cleanupTemps();
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

  it('a link placed at its path is replaced, never written through: its target is left as it was', async () => {
    const dir = path.join(tmp, 'linked bin');
    await fs.mkdir(dir, { recursive: true });
    const at = launcherPath(dir, 'linux');
    const victim = path.join(tmp, 'victim.sh');
    await fs.writeFile(victim, 'echo mine\n', { mode: 0o644 });
    await fs.symlink(victim, at);
    expect((await ensureLauncher(dir, target, 'linux')).written).toBe(true);
    expect(await fs.readFile(victim, 'utf8')).toBe('echo mine\n');
    expect((await fs.stat(victim)).mode & 0o777).toBe(0o644);
    const st = await fs.lstat(at);
    expect(st.isFile()).toBe(true);
    expect(st.mode & 0o777).toBe(0o755);
    expect(await fs.readFile(at, 'utf8')).toBe(posixLauncher(target, at));
    expect((await ensureLauncher(dir, target, 'linux')).written).toBe(false);
    // A link to a file that holds the launcher's very text is replaced too (what is at the path must be ours), and
    // so is a dangling one (nothing is created where it points).
    await fs.rm(at);
    await fs.writeFile(victim, posixLauncher(target, at), { mode: 0o755 });
    await fs.symlink(victim, at);
    expect((await ensureLauncher(dir, target, 'linux')).written).toBe(true);
    expect((await fs.lstat(at)).isSymbolicLink()).toBe(false);
    await fs.rm(at);
    const nowhere = path.join(tmp, 'nowhere.sh');
    await fs.symlink(nowhere, at);
    expect((await ensureLauncher(dir, target, 'linux')).written).toBe(true);
    expect((await fs.lstat(at)).isFile()).toBe(true);
    await expect(fs.access(nowhere)).rejects.toThrow();
    expect(await fs.readdir(dir)).toEqual(['zut-host']);
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
    expect(uninstall.stdout).toContain('Removed 8 entries.');
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
  const o = { launcher: '/home/me/.config/Code/User/globalStorage/zut.zut-vscode/bin/zut-host', folder, allowProject: false, platform: 'linux' as const };
  const pins = [{ id: '.zut/extensions/kit', fingerprint: 'a'.repeat(64) }, { id: '.e/extensions/x y.ts', fingerprint: 'b'.repeat(64) }];

  it('Claude Desktop and Cursor: {"mcpServers": …}; VS Code: {"servers": …}, offered last; the server is always `zut`; global extensions only unless asked', () => {
    expect(mcpClients('linux')).toEqual(['claude-desktop', 'cursor', 'copilot-cli', 'generic', 'vscode']);
    expect(mcpClients('win32')).toEqual(['claude-desktop', 'cursor', 'copilot-cli', 'generic', 'cmd', 'vscode']);
    expect(mcpSnippet('vscode', o).detail).toMatch(/agent mode already: this duplicates them/);
    for (const c of ['claude-desktop', 'cursor'] as const) {
      expect(JSON.parse(mcpSnippet(c, o).text)).toEqual({ mcpServers: { zut: { command: o.launcher, args: ['mcp', '--cwd', folder] } } });
    }
    expect(JSON.parse(mcpSnippet('vscode', o).text)).toEqual({ servers: { zut: { type: 'stdio', command: o.launcher, args: ['mcp', '--cwd', folder] } } });
    // Copilot CLI (and VS Code's Copilot harness): a local server offering all its tools, as the real harness ran it.
    expect(JSON.parse(mcpSnippet('copilot-cli', o).text)).toEqual({ mcpServers: { zut: { type: 'local', command: o.launcher, args: ['mcp', '--cwd', folder], tools: ['*'] } } });
    expect(mcpConfigFile('copilot-cli', { home: '/h', platform: 'linux' })).toBe('/h/.copilot/mcp-config.json');
    expect(mcpConfigFile('copilot-cli', { home: '/h', platform: 'linux', copilotHome: '/elsewhere/copilot' })).toBe('/elsewhere/copilot/mcp-config.json');
    // The project's extensions: --allow-project and one --pin per extension (their content when copied).
    expect(JSON.parse(mcpSnippet('cursor', { ...o, allowProject: true, pins }).text).mcpServers.zut.args).toEqual([
      'mcp', '--cwd', folder, '--allow-project', '--pin', `.zut/extensions/kit=${'a'.repeat(64)}`, '--pin', `.e/extensions/x y.ts=${'b'.repeat(64)}`,
    ]);
    expect(allowProjectNote({ ...o, allowProject: true, pins })).toMatch(/^That client starts 2 project extensions of this folder without asking, as they are now; one that changes or appears later is not started until you copy again\.$/);
    expect(allowProjectNote(o)).toMatch(/^Only your global extensions start/);
    expect(mcpSnippet('claude-desktop', o).where).toMatch(/claude_desktop_config\.json/);
    expect(mcpConfigFile('cursor', { home: '/h', platform: 'linux' })).toBe('/h/.cursor/mcp.json');
    expect(mcpConfigFile('claude-desktop', { home: '/h', platform: 'darwin' })).toBe('/h/Library/Application Support/Claude/claude_desktop_config.json');
    expect(mcpConfigFile('claude-desktop', { home: 'C:\\Users\\me', platform: 'win32', appData: 'C:\\Users\\me\\AppData\\Roaming' })).toBe('C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(mcpConfigFile('claude-desktop', { home: '/h', platform: 'linux' })).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('the generic command line, run by a shell, gives the CLI exactly those arguments', async () => {
    const odd = path.join(tmp, "work $dir 'q'");
    const line = mcpSnippet('generic', { ...o, launcher, folder: odd, allowProject: true }).text;
    expect((await run(line, undefined)).seen).toEqual({ who: 'cli', argv: ['mcp', '--cwd', odd, '--allow-project'], electron: '1', self: launcher, stdin: '' });
  });

  const winLauncher = 'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\globalStorage\\zut.zut-vscode\\bin\\zut-host.cmd';
  const win = { launcher: winLauncher, allowProject: false, platform: 'win32' as const };

  it('Windows, PowerShell: every word that is not plain in single quotes (quotes doubled, typographic ones too), so nothing expands', () => {
    const folder = "C:\\w\\$(calc) %PATH% `n ${x} it's \u2019q";
    const line = mcpSnippet('generic', { ...win, folder }).text;
    expect(mcpSnippet('generic', { ...win, folder }).label).toBe('Command line for PowerShell');
    expect(line).toBe(`& '${winLauncher}' mcp --cwd 'C:\\w\\$(calc) %PATH% \`n \${x} it''s \u2019\u2019q'`);
    expect(psWords(line)).toEqual([winLauncher, 'mcp', '--cwd', folder]);
    expect(psWords(mcpSnippet('generic', { ...win, launcher: "C:\\a b\\it's\\zut-host.cmd", folder: 'C:\\plain' }).text)).toEqual(["C:\\a b\\it's\\zut-host.cmd", 'mcp', '--cwd', 'C:\\plain']);
    expect(() => psQuote('a\nb')).toThrow(/line break/);
  });

  it('Windows, cmd.exe: double quotes where & | < > ^ are literal; a folder holding % ! or " is refused by name', () => {
    const line = mcpSnippet('cmd', { ...win, folder: 'C:\\a & b | c ^ <d> (e) $f' }).text;
    expect(line).toBe(`${winLauncher} mcp --cwd "C:\\a & b | c ^ <d> (e) $f"`);
    expect(cmdWords(line)).toEqual([winLauncher, 'mcp', '--cwd', 'C:\\a & b | c ^ <d> (e) $f']);
    for (const bad of ['%PATH%', 'a!b!', 'a"b', 'a\r\nb']) {
      expect(() => mcpSnippet('cmd', { ...win, folder: `C:\\${bad}` }), bad).toThrow(/which cmd\.exe expands or cannot quote/);
    }
  });
});

/**
 * The words PowerShell makes of a command line of ours: `&`, then words split on spaces, single-quoted spans (any of
 * PowerShell's single quotes, doubled inside) taken literally. Anything that would expand outside quotes fails.
 */
function psWords(line: string): string[] {
  expect(line.startsWith('& ')).toBe(true);
  const Q = "'\u2018\u2019\u201a\u201b";
  const words: string[] = [];
  let i = 2;
  while (i < line.length) {
    let w = '';
    if (Q.includes(line[i]!)) {
      const isQuote = (c: string | undefined) => c !== undefined && Q.includes(c);
      for (i++; ; i++) {
        expect(i < line.length, 'an unterminated quote').toBe(true);
        if (isQuote(line[i]) && isQuote(line[i + 1])) w += line[++i];
        else if (isQuote(line[i])) break;
        else w += line[i];
      }
      i++;
    } else {
      for (; i < line.length && line[i] !== ' '; i++) w += line[i];
      expect(w, 'a bare word PowerShell would expand').not.toMatch(/[$`@(){};,'"\u2018-\u201b]/);
    }
    words.push(w);
    i++;
  }
  return words;
}

/** The words cmd.exe makes of a command line of ours: split on spaces outside double quotes; nothing to expand. */
function cmdWords(line: string): string[] {
  expect(line, 'cmd.exe expands % and !').not.toMatch(/[%!]/);
  return [...line.matchAll(/"([^"]*)"|([^ "]+)/g)].map((m) => {
    if (m[2] !== undefined) expect(m[2], 'a bare word cmd.exe would treat specially').not.toMatch(/[&|<>^()]/);
    return m[1] ?? m[2]!;
  });
}

describe('hook entries that run the launcher', () => {
  it('hookCommand names the launcher (quoted, POSIX and cmd forms); the CLI form is unchanged without one', () => {
    const inst = { node: '/n/node', cli: '/c/cli.js', home: '/h', workspace: '/w', platform: 'linux' as const };
    expect(hookCommand(inst, 'vscode', 'PreToolUse')).toBe("'/n/node' '/c/cli.js' hook --agent vscode PreToolUse");
    expect(hookCommand({ ...inst, launcher: "/g s/it's/zut-host" }, 'vscode', 'PreToolUse')).toBe(`'/g s/it'\\''s/zut-host' hook --agent vscode PreToolUse`);
    expect(hookCommand({ ...inst, launcher: 'C:\\g s\\zut-host.cmd', platform: 'win32' }, 'claude', 'Stop')).toBe('"C:\\g s\\zut-host.cmd" hook --agent claude Stop');
  });

  it('on Windows, the cmd.exe and PowerShell forms expand nothing; an older double-quoted entry is still ours', () => {
    const inst = { node: 'C:\\n\\node.exe', cli: 'C:\\c\\cli.js', launcher: 'C:\\Users\\$(x) `y\\zut-host.cmd', home: 'C:\\h', workspace: 'C:\\w', platform: 'win32' as const };
    const copilot = planInstall(inst, 'copilot-cli', 'user');
    expect(copilot.entries.preToolUse).toEqual({ type: 'command', powershell: "& 'C:\\Users\\$(x) `y\\zut-host.cmd' hook --agent copilot-cli preToolUse", timeoutSec: 30 });
    expect(psWords(copilot.entries.preToolUse!.powershell as string)).toEqual([inst.launcher, 'hook', '--agent', 'copilot-cli', 'preToolUse']);
    expect(copilot.also.preToolUse).toContain('& "C:\\Users\\$(x) `y\\zut-host.cmd" hook --agent copilot-cli preToolUse');
    const vscodeEntry = planInstall(inst, 'vscode', 'user').entries.PreToolUse!;
    expect(cmdWords(vscodeEntry.windows as string)).toEqual([inst.launcher, 'hook', '--agent', 'vscode', 'PreToolUse']);
    expect(() => planInstall({ ...inst, launcher: 'C:\\Users\\100%\\zut-host.cmd' }, 'claude', 'user')).toThrow(/which cmd\.exe expands or cannot quote/);
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
