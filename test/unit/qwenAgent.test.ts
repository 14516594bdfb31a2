/**
 * Qwen Code as an agent row: its Claude-shaped hook answers (a rewrite denied: its PreToolUse takes no changed input),
 * its tools in the foreign-tool table, and its set-up row — hooks in settings.json beside the user's, the PreToolUse
 * command line turning a crash of ours into exit 2 (its deny), MCP in the same file, the checks for folder trust and
 * disableAllHooks.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QWEN_ROW, qwenCommand, qwenSettingsFile, qwenTrusts } from '../../src/agentSetup/agents/qwen';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { dialectOf } from '../../src/hooks/dialects';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput } from '../../src/hooks/input';
import type { HookCall } from '../../src/hooks/names';
import { single } from '../helpers/foreignCall';

const pre: HookCall = { agent: 'qwen', event: 'PreToolUse', camel: false };

describe('Qwen Code: hook input and answers', () => {
  it('reads its PreToolUse and PostToolUse payloads (recorded from Qwen Code 0.24.4: test/agents/fixtures/qwen/)', () => {
    const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'agents', 'fixtures', 'qwen', `${name}.json`), 'utf8');
    expect(readHookInput(fixture('PreToolUse'), pre)).toMatchObject({ toolName: 'run_shell_command', toolInput: { command: 'echo zut-was-here' }, toolUseId: expect.any(String), sessionId: expect.any(String), cwd: '/tmp/zut-agents-sandbox/ws' });
    const post = readHookInput(fixture('PostToolUse'), { ...pre, event: 'PostToolUse' });
    if (typeof post === 'string') throw new Error(post);
    expect(post.toolResponse).toEqual(JSON.parse(fixture('PostToolUse')).tool_response);
  });

  it('deny: permissionDecision deny; a rewrite is denied naming it; a failed PreToolUse denies; a blocked prompt is decision block', () => {
    const d = dialectOf('qwen');
    expect(JSON.parse(d.deny(pre, 'no').stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    const r = JSON.parse(d.rewrite(pre, { updated: { command: 'echo' }, toolName: 'run_shell_command', by: ['g'] }).stdout);
    expect(r.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.hookSpecificOutput.permissionDecisionReason).toMatch(/the guard g would change this run_shell_command call's input.*\{"command":"echo"\}/);
    expect(JSON.parse(hookFailure(pre, 'boom').stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(d.blockPrompt({ ...pre, event: 'UserPromptSubmit' }, 'no').stdout)).toEqual({ decision: 'block', reason: 'no' });
    expect(JSON.parse(d.context(pre, 'SessionStart', 'hi').stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'hi' } });
    expect(d.mcpToolPrefixes).toEqual(['mcp__zut__']);
  });
});

describe('Qwen Code: its tools as zut tools', () => {
  it('run_shell_command → bash (timeout ms → s; directory kept), write_file → write, edit → edit, read_file → read (0-based offset)', () => {
    const sh = single('qwen', 'run_shell_command', { command: 'ls', timeout: 5000, directory: '/d', description: 'x' });
    expect(sh.args).toEqual({ command: 'ls', timeout: 5 });
    expect(sh.back({ command: 'pwd', timeout: 5 })).toEqual({ input: { command: 'pwd', timeout: 5000, directory: '/d', description: 'x' } });
    expect(single('qwen', 'write_file', { file_path: '/a', content: 'c' }).args).toEqual({ path: '/a', content: 'c' });
    const e = single('qwen', 'edit', { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true });
    expect(e.args).toEqual({ path: '/a', edits: [{ oldText: 'x', newText: 'y' }] });
    expect(e.back({ path: '/a', edits: [{ oldText: 'x', newText: 'z' }] })).toMatchObject({ error: expect.stringMatching(/replace_all/) });
    const r = single('qwen', 'read_file', { file_path: '/a', offset: 0, limit: 10 });
    expect(r.args).toEqual({ path: '/a', offset: 1, limit: 10 });
    expect(r.back({ path: '/a', offset: 5, limit: 10 })).toEqual({ input: { file_path: '/a', offset: 4, limit: 10 } });
    expect(single('qwen', 'web_fetch', { url: 'https://x', prompt: 'p' }).args).toEqual({ url: 'https://x' });
    expect(single('qwen', 'glob', { pattern: '*' })).toMatchObject({ effect: 'read' });
  });
});

describe('Qwen Code: set-up row', () => {
  let root: string;
  let inst: Installation;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-qwen-')));
    fs.mkdirSync(path.join(root, 'ws'));
    inst = { node: process.execPath, cli: path.join(root, 'dist', 'cli.js'), home: path.join(root, 'home'), workspace: path.join(root, 'ws'), platform: 'linux' };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("hooks go in beside the user's (Claude Code's shape, matcher * on tool events, 30 s); uninstall leaves the file as it was", async () => {
    const file = qwenSettingsFile(inst, 'workspace');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const before = '{\n  "model": { "name": "x" },\n  "hooks": { "PreToolUse": [ { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "mine" } ] } ] }\n}\n';
    fs.writeFileSync(file, before);
    await QWEN_ROW.installHooks(inst, 'workspace');
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(j.hooks.PreToolUse).toHaveLength(2);
    expect(j.hooks.PreToolUse[1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: qwenCommand(inst, 'PreToolUse'), timeout: 60 }] });
    expect(Object.keys(j.hooks)).toEqual(['PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']);
    const c = await QWEN_ROW.check(inst, 'workspace');
    expect(c).toMatchObject({ hooksInstalled: true, hooksRun: true, problems: [] });
    await QWEN_ROW.uninstallHooks(inst, 'workspace');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it("the PreToolUse command turns our crash, a kill or garbage into exit 2 (Qwen Code's deny), reason on stderr; ours passes through", () => {
    const launcher = path.join(root, 'launcher');
    fs.writeFileSync(launcher, '#!/bin/sh\nread -r line\neval "$BODY"\n', { mode: 0o755 });
    const cmd = qwenCommand({ ...inst, launcher }, 'PreToolUse');
    const run = (body: string) => spawnSync('sh', ['-c', cmd], { input: '{"tool_name":"x"}\n', env: { ...process.env, BODY: body }, encoding: 'utf8', timeout: 10_000 });
    const crash = run('exit 1');
    expect([crash.status, crash.stderr]).toEqual([2, 'blocked by zut: zut-host hook failed or did not answer within 30 s (exit 1)\n']);
    expect(run('kill -9 $$').status).toBe(2);
    expect(run('echo oops')).toMatchObject({ status: 2, stderr: 'blocked by zut: zut-host hook answered something that is not JSON\n' });
    expect(run('')).toMatchObject({ status: 0, stdout: '' });
    expect(run('printf \'{"seen":"%s %s"}\' "$4" "$line"')).toMatchObject({ status: 0, stdout: '{"seen":"PreToolUse {"tool_name":"x"}"}\n' });
    expect(qwenCommand({ ...inst, launcher }, 'PostToolUse')).not.toMatch(/exit 2/);
  });

  it('check: folder trust on and the folder not trusted, or disableAllHooks: the hooks will not run', async () => {
    await QWEN_ROW.installHooks(inst, 'workspace');
    fs.mkdirSync(path.join(inst.home, '.qwen'), { recursive: true });
    fs.writeFileSync(qwenSettingsFile(inst, 'user'), JSON.stringify({ security: { folderTrust: { enabled: true } } }));
    const c = await QWEN_ROW.check(inst, 'workspace');
    expect(c.hooksRun).toBe(false);
    expect(c.problems.join('\n')).toMatch(/folder trust is on and .* is not trusted/);
    fs.writeFileSync(path.join(inst.home, '.qwen', 'trustedFolders.json'), JSON.stringify({ [inst.workspace]: 'TRUST_FOLDER' }));
    expect((await QWEN_ROW.check(inst, 'workspace')).problems).toEqual([]);
    fs.writeFileSync(qwenSettingsFile(inst, 'user'), JSON.stringify({ disableAllHooks: true }));
    expect((await QWEN_ROW.check(inst, 'workspace')).problems.join('\n')).toMatch(/disableAllHooks/);
  });

  it('trust rules: the nearest rule wins; TRUST_PARENT trusts the parent', () => {
    expect(qwenTrusts({ '/a': 'TRUST_FOLDER', '/a/b': 'DO_NOT_TRUST' }, '/a/b/c')).toBe(false);
    expect(qwenTrusts({ '/a/b/x': 'TRUST_PARENT' }, '/a/b/c')).toBe(true);
    expect(qwenTrusts({ '/ab': 'TRUST_FOLDER' }, '/a')).toBe(false);
  });

  it('MCP: mcpServers.zut in settings.json (--cwd for a workspace), removed exactly', async () => {
    await QWEN_ROW.installMcp(inst, 'workspace');
    const file = qwenSettingsFile(inst, 'workspace');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.zut).toEqual({ command: process.execPath, args: [inst.cli, 'mcp', '--cwd', inst.workspace] });
    await QWEN_ROW.uninstallMcp(inst, 'workspace');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: {} });
  });
});
