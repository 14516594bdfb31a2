/**
 * Cline CLI as an agent row: its hook payload (recorded from cline 3.0.65, test/agents/fixtures/cline/) read through
 * its dialect, its answers, its tools in the foreign-tool table, and its set-up row — the hook files we write (what
 * the PreToolUse script answers when our command crashes, prints nothing or prints garbage), a user's own file of the
 * same name refused, uninstall taking out exactly ours, zut's MCP server in cline_mcp_settings.json.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLINE_MARKER, CLINE_ROW, clineHookScript, clineMcpFile } from '../../src/agentSetup/agents/cline';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { dialectOf, hookEventOf } from '../../src/hooks/dialects';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput } from '../../src/hooks/input';
import type { HookCall } from '../../src/hooks/names';
import { foreignCall } from '../../src/host/calls/foreignTools';
import { single } from '../helpers/foreignCall';

const FIXTURES = path.join(__dirname, '..', 'agents', 'fixtures', 'cline');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');
const pre: HookCall = { agent: 'cline', event: 'PreToolUse', camel: false };

describe('Cline CLI: hook input and answers', () => {
  it('reads its PreToolUse payload (tool_call {id, name, input}, taskId, workspaceRoots) as input.ts fields', () => {
    const i = readHookInput(fixture('PreToolUse'), pre);
    if (typeof i === 'string') throw new Error(i);
    expect(i).toMatchObject({ toolName: 'run_commands', toolInput: { commands: ['echo hello > /tmp/zut-agents-sandbox/ws/ok.txt'] }, sessionId: expect.stringMatching(/^conv_/), cwd: '/tmp/zut-agents-sandbox/ws', toolUseId: expect.stringMatching(/^call_/) });
  });

  it('reads its PostToolUse payload: the tool result is tool_result.output', () => {
    const i = readHookInput(fixture('PostToolUse'), { ...pre, event: 'PostToolUse' });
    if (typeof i === 'string') throw new Error(i);
    expect(i.toolName).toBe('run_commands');
    expect(i.toolResponse).toEqual(JSON.parse(fixture('PostToolUse')).tool_result.output);
  });

  it('answers a deny as {cancel, errorMessage}, a rewrite as overrideInput, context as contextModification; a failed PreToolUse cancels', () => {
    const d = dialectOf('cline');
    expect(JSON.parse(d.deny(pre, 'no').stdout)).toEqual({ cancel: true, errorMessage: 'no' });
    const r = JSON.parse(d.rewrite(pre, { updated: { commands: ['ls'] }, toolName: 'run_commands', by: ['g'] }).stdout);
    expect(r).toMatchObject({ cancel: false, overrideInput: { commands: ['ls'] }, contextModification: expect.stringContaining('rewritten by the guard g') });
    expect(JSON.parse(d.context(pre, 'SessionStart', 'hi').stdout)).toEqual({ contextModification: 'hi' });
    const f = hookFailure(pre, 'boom');
    expect(f.exitCode).toBe(0);
    expect(JSON.parse(f.stdout)).toEqual({ cancel: true, errorMessage: 'blocked by zut: zut-host hook: boom' });
  });

  it('names: TaskStart is SessionStart, TaskComplete Stop; its MCP tools are zut__<tool>', () => {
    expect(hookEventOf('TaskStart', 'cline')).toBe('SessionStart');
    expect(hookEventOf('TaskComplete', 'cline')).toBe('Stop');
    expect(hookEventOf('PreToolUse', 'cline')).toBe('PreToolUse');
    expect(dialectOf('cline').mcpToolPrefixes).toEqual(['zut__']);
  });
});

describe('Cline CLI: its tools as zut tools', () => {
  it('run_commands → one bash view per command; a rewrite goes back in place; an argv command has no zut form (unfit)', () => {
    const c = foreignCall('cline', 'run_commands', { commands: ['ls', 'rm -rf /x'] });
    expect(c.views.map((v) => [v.name, v.args])).toEqual([['bash', { command: 'ls' }], ['bash', { command: 'rm -rf /x' }]]);
    expect(c.back([{ command: 'ls' }, { command: 'echo no' }])).toEqual({ input: { commands: ['ls', 'echo no'] } });
    expect(c.back([{ command: 'ls' }, { command: 'x', cwd: '/' }])).toEqual({ error: 'bash.cwd has no counterpart in run_commands' });
    expect(single('cline', 'run_commands', { commands: 'pwd' }).args).toEqual({ command: 'pwd' });
    expect(foreignCall('cline', 'run_commands', { commands: [{ command: 'rm', args: ['-rf', '/'] }] })).toMatchObject({ mapped: false, unfit: true });
  });

  it('editor → edit (old_text), write (no old_text: creates), its own name with effect write (insert_line)', () => {
    const e = single('cline', 'editor', { path: '/a', old_text: 'x', new_text: 'y' });
    expect(e).toMatchObject({ name: 'edit', args: { path: '/a', edits: [{ oldText: 'x', newText: 'y' }] } });
    expect(e.back({ path: '/a', edits: [{ oldText: 'x', newText: 'z' }] })).toEqual({ input: { path: '/a', old_text: 'x', new_text: 'z' } });
    expect(single('cline', 'editor', { path: '/n', new_text: 'hi', old_text: null })).toMatchObject({ name: 'write', args: { path: '/n', content: 'hi' } });
    expect(single('cline', 'editor', { path: '/n', new_text: 'hi', insert_line: 3 })).toMatchObject({ name: 'editor', effect: 'write' });
  });

  it('apply_patch → a view per file; the older names map too; read_files and fetch_web_content have their effect', () => {
    const patch = '*** Begin Patch\n*** Add File: /w/new.txt\n+hello\n*** Delete File: /w/old.txt\n*** End Patch';
    expect(foreignCall('cline', 'apply_patch', { input: patch }).views.map((v) => [v.name, v.args.path])).toEqual([['write', '/w/new.txt'], ['apply_patch', '/w/old.txt']]);
    expect(single('cline', 'execute_command', { command: 'ls', requires_approval: false }).args).toEqual({ command: 'ls' });
    expect(single('cline', 'write_to_file', { path: '/p', content: 'c' }).args).toEqual({ path: '/p', content: 'c' });
    expect(single('cline', 'read_files', { files: [{ path: '/a' }] })).toMatchObject({ name: 'read_files', effect: 'read' });
    expect(single('cline', 'fetch_web_content', { requests: [] })).toMatchObject({ effect: 'network' });
    // Claude Code's names mean nothing in Cline's hook input (no Copilot CLI aliases).
    expect(single('cline', 'Bash', { command: 'ls' })).toMatchObject({ name: 'Bash', mapped: false });
  });
});

describe('Cline CLI: set-up row', () => {
  let root: string;
  let inst: Installation;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-cline-')));
    fs.mkdirSync(path.join(root, 'ws'));
    inst = { node: process.execPath, cli: path.join(root, 'dist', 'cli.js'), home: path.join(root, 'home'), workspace: path.join(root, 'ws'), platform: 'linux' };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const hooks = (scope: 'user' | 'workspace') => path.join(scope === 'user' ? inst.home : inst.workspace, '.cline', 'hooks');

  it('writes one executable sh script per event (0755), reinstalling changes nothing, uninstall removes exactly ours', async () => {
    const steps = await CLINE_ROW.installHooks(inst, 'user');
    expect(steps[0]!.changes).toHaveLength(4);
    for (const e of ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'TaskStart']) {
      const f = path.join(hooks('user'), e);
      expect(fs.statSync(f).mode & 0o777).toBe(0o755);
      expect(fs.readFileSync(f, 'utf8').split('\n')[1]).toBe(CLINE_MARKER);
    }
    expect(await CLINE_ROW.installHooks(inst, 'user')).toEqual([]);
    fs.writeFileSync(path.join(hooks('user'), 'PreToolUse.sh'), '#!/bin/sh\necho mine\n');
    expect((await CLINE_ROW.check(inst, 'user')).hooksInstalled).toBe(true);
    await CLINE_ROW.uninstallHooks(inst, 'user');
    expect(fs.readdirSync(hooks('user'))).toEqual(['PreToolUse.sh']);
  });

  it("never overwrites a user's own hook of the same name: refused by name, nothing written", async () => {
    fs.mkdirSync(hooks('workspace'), { recursive: true });
    fs.writeFileSync(path.join(hooks('workspace'), 'PostToolUse'), '#!/bin/sh\necho mine\n');
    await expect(CLINE_ROW.installHooks(inst, 'workspace')).rejects.toThrow(/PostToolUse: a hook file of yours is there, which zut does not overwrite/);
    expect(fs.readdirSync(hooks('workspace'))).toEqual(['PostToolUse']);
    await CLINE_ROW.uninstallHooks(inst, 'workspace');
    expect(fs.readFileSync(path.join(hooks('workspace'), 'PostToolUse'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('refuses on Windows (Cline runs .ps1 hooks there)', async () => {
    await expect(CLINE_ROW.installHooks({ ...inst, platform: 'win32' }, 'user')).rejects.toThrow(/PowerShell \(\.ps1\)/);
  });

  it("MCP: mcpServers.zut in cline_mcp_settings.json beside the user's servers; uninstall takes out only ours; user scope only", async () => {
    const file = clineMcpFile(inst);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n');
    await CLINE_ROW.installMcp(inst, 'user');
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(j.mcpServers.zut).toMatchObject({ command: process.execPath, args: [inst.cli, 'mcp'] });
    expect(j.mcpServers.other).toEqual({ command: 'x' });
    expect((await CLINE_ROW.check(inst, 'user')).mcpInstalled).toBe(true);
    await CLINE_ROW.uninstallMcp(inst, 'user');
    expect(fs.readFileSync(file, 'utf8')).toBe('{\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n');
    await expect(CLINE_ROW.installMcp(inst, 'workspace')).rejects.toThrow(/only from ~\/\.cline\/data\/settings\/cline_mcp_settings\.json/);
  });
});

describe("Cline CLI: the PreToolUse script maps every failure of ours to Cline's cancel", () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-cline-sh-')));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Runs the script with a launcher whose body is `body` (it gets `hook --agent cline PreToolUse` and the payload). */
  function run(body: string) {
    const launcher = path.join(root, 'launcher');
    fs.writeFileSync(launcher, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    const script = path.join(root, 'PreToolUse');
    fs.writeFileSync(script, clineHookScript({ node: process.execPath, cli: '/x/cli.js', launcher, home: root, workspace: root, platform: 'linux' }, 'PreToolUse'), { mode: 0o755 });
    const r = spawnSync('sh', [script], { input: '{"hookName":"tool_call"}', encoding: 'utf8', timeout: 10_000 });
    return { status: r.status, out: r.stdout };
  }
  const cancelled = (out: string) => JSON.parse(out) as { cancel: boolean; errorMessage: string };

  it('our answer passes through, with the payload on its stdin and our arguments', () => {
    const r = run(`read -r line; case "$line" in *tool_call*) seen=payload;; esac; printf '{"cancel":true,"errorMessage":"%s %s %s"}\\n' "$1" "$4" "$seen"`);
    expect(r.status).toBe(0);
    expect(cancelled(r.out)).toEqual({ cancel: true, errorMessage: 'hook PreToolUse payload' });
  });

  it('no opinion (exit 0, nothing printed) stays nothing', () => {
    expect(run('cat >/dev/null; exit 0')).toEqual({ status: 0, out: '' });
  });

  it('a crash (exit 1, a kill) cancels', () => {
    expect(cancelled(run('exit 1').out)).toMatchObject({ cancel: true, errorMessage: expect.stringContaining("zut's hook for Cline failed or did not answer") });
    expect(cancelled(run('kill -9 $$').out).cancel).toBe(true);
  });

  it('garbage on stdout cancels', () => {
    expect(cancelled(run('echo oops').out)).toMatchObject({ cancel: true, errorMessage: expect.stringContaining('not JSON') });
  });
});
