// Cursor as a hook agent, documented only (Cursor does not run here): the payloads of Cursor's hooks documentation
// (cursor.com/docs/hooks: common fields conversation_id, generation_id, hook_event_name, workspace_roots; preToolUse
// tool_name/tool_input/tool_use_id/cwd; beforeShellExecution command/cwd; beforeMCPExecution tool_name and tool_input
// as a JSON string) read into zut's hook input, the dialect's answers, the foreign-tool rows and the set-up row.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectOf, hookEventOf } from '../../src/hooks/dialects';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput, type HookInput } from '../../src/hooks/input';
import type { HookCall, HookEvent } from '../../src/hooks/names';
import { foreignCall } from '../../src/host/calls/foreignTools';
import { CURSOR_ROW, cursorHooksFile, cursorMcpFile } from '../../src/agentSetup/agents/cursor';
import { hookCommand, type Installation } from '../../src/agentSetup/hookInstall';

const COMMON = { conversation_id: 'conv-123', generation_id: 'gen-456', workspace_roots: ['/path/to/project'], model: 'claude-sonnet-4', cursor_version: '2.0.77' };
const call = (event: HookEvent): HookCall => ({ agent: 'cursor', event, camel: true });
const read = (event: HookEvent, payload: object): HookInput => {
  const r = readHookInput(JSON.stringify(payload), call(event));
  if (typeof r === 'string') throw new Error(r);
  return r;
};

describe('Cursor: documented payloads', () => {
  it('preToolUse: the tool, its input and id; the conversation is the session; cwd', () => {
    const i = read('PreToolUse', { ...COMMON, hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'npm install', working_directory: '/path/to/project' }, tool_use_id: 'abc123', cwd: '/path/to/project' });
    expect(i).toMatchObject({ sessionId: 'conv-123', cwd: '/path/to/project', toolName: 'Shell', toolInput: { command: 'npm install' }, toolUseId: 'abc123' });
  });

  it('beforeShellExecution reads as PreToolUse of Shell; beforeMCPExecution as MCP:<tool> with its JSON-string input', () => {
    expect(hookEventOf('beforeShellExecution', 'cursor')).toBe('PreToolUse');
    expect(hookEventOf('beforeSubmitPrompt', 'cursor')).toBe('UserPromptSubmit');
    expect(hookEventOf('afterShellExecution', 'cursor')).toBe('PostToolUse');
    expect(read('PreToolUse', { ...COMMON, hook_event_name: 'beforeShellExecution', command: 'rm -rf x', cwd: '/p' })).toMatchObject({ toolName: 'Shell', toolInput: { command: 'rm -rf x', working_directory: '/p' }, cwd: '/p' });
    expect(read('PreToolUse', { ...COMMON, hook_event_name: 'beforeMCPExecution', tool_name: 'database_query', tool_input: '{"query": "SELECT 1"}', command: 'npx mcp-server' })).toMatchObject({ toolName: 'MCP:database_query', toolInput: { query: 'SELECT 1' }, cwd: '/path/to/project' });
  });

  it('postToolUse: tool_output is the response; beforeSubmitPrompt: the prompt', () => {
    expect(read('PostToolUse', { ...COMMON, hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: { command: 'ls' }, tool_output: 'a\nb', tool_use_id: 't' })).toMatchObject({ toolResponse: 'a\nb', toolUseId: 't' });
    expect(read('UserPromptSubmit', { ...COMMON, hook_event_name: 'beforeSubmitPrompt', prompt: 'Fix it', attachments: [] })).toMatchObject({ prompt: 'Fix it', sessionId: 'conv-123' });
  });
});

describe('Cursor: answers', () => {
  const d = dialectOf('cursor');
  it('deny: permission deny with the reason for the model and the person; a failed hook denies the same way', () => {
    expect(JSON.parse(d.deny(call('PreToolUse'), 'blocked by g: no').stdout)).toEqual({ permission: 'deny', agent_message: 'blocked by g: no', user_message: 'blocked by g: no' });
    const f = hookFailure(call('PreToolUse'), 'boom');
    expect(JSON.parse(f.stdout)).toMatchObject({ permission: 'deny', agent_message: 'blocked by zut: zut-host hook: boom' });
  });

  it("rewrite: updated_input without a permission (Cursor's own approval stays); context only at sessionStart; a blocked prompt", () => {
    expect(JSON.parse(d.rewrite(call('PreToolUse'), { updated: { command: 'ls' }, toolName: 'Shell', by: ['g'] }).stdout)).toEqual({ updated_input: { command: 'ls' } });
    expect(JSON.parse(d.context(call('SessionStart'), 'SessionStart', 'hi').stdout)).toEqual({ additional_context: 'hi' });
    expect(d.context(call('UserPromptSubmit'), 'UserPromptSubmit', 'hi').stdout).toBe('');
    expect(JSON.parse(d.blockPrompt(call('UserPromptSubmit'), 'no').stdout)).toEqual({ continue: false, user_message: 'no' });
  });

  it('no MCP prefix is ours (MCP:<tool> names no server): every MCP call is judged on the hook path', () => {
    expect(d.mcpToolPrefixes).toEqual([]);
  });
});

describe("Cursor: its tools as zut's", () => {
  it('Shell is bash (a rewrite maps back); the others by effect under their own names, never aliased', () => {
    const shell = foreignCall('cursor', 'Shell', { command: 'rm -rf x', working_directory: '/p' });
    expect(shell.views).toEqual([{ name: 'bash', args: { command: 'rm -rf x' }, effect: 'exec' }]);
    expect(shell.back([{ command: 'ls' }])).toEqual({ input: { command: 'ls', working_directory: '/p' } });
    expect(foreignCall('cursor', 'Write', { file_path: '/a', contents: 'x' }).views).toEqual([{ name: 'Write', args: { file_path: '/a', contents: 'x' }, effect: 'write' }]);
    expect(foreignCall('cursor', 'Delete', { path: '/a' }).views[0]!.effect).toBe('write');
    expect(foreignCall('cursor', 'Read', { path: '/a' }).views[0]).toMatchObject({ name: 'Read', effect: 'read' });
    expect(foreignCall('cursor', 'Shell', { cmd: 'x' }).unfit).toBe(true);
    expect(foreignCall('cursor', 'WebFetch', { url: 'u' }).views).toEqual([{ name: 'WebFetch', args: { url: 'u' } }]);
  });
});

describe('Cursor: set-up row', () => {
  let base: string;
  let inst: Installation;
  beforeEach(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'zut-cursor-setup-'));
    const dist = path.join(base, 'dist');
    await fs.mkdir(dist);
    for (const f of ['cli.js', 'hook.js']) await fs.writeFile(path.join(dist, f), '');
    inst = { node: process.execPath, cli: path.join(dist, 'cli.js'), home: path.join(base, 'home'), workspace: path.join(base, 'ws'), platform: 'linux' };
    await fs.mkdir(inst.workspace, { recursive: true });
  });
  afterEach(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it('merges version 1 and five events (preToolUse failClosed) beside the user\'s, and uninstall gives the file back', async () => {
    const file = cursorHooksFile(inst, 'workspace');
    expect(file).toBe(path.join(inst.workspace, '.cursor', 'hooks.json'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    const mine = '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [\n      {"command": "./mine.sh", "matcher": "Shell"}\n    ]\n  }\n}\n';
    await fs.writeFile(file, mine);
    const steps = await CURSOR_ROW.installHooks(inst, 'workspace');
    expect(steps[0]!.changes).toHaveLength(5);
    const json = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(Object.keys(json.hooks)).toEqual(['preToolUse', 'sessionStart', 'beforeSubmitPrompt', 'postToolUse', 'stop']);
    expect(json.hooks.preToolUse).toEqual([
      { command: './mine.sh', matcher: 'Shell' },
      { command: hookCommand(inst, 'cursor', 'preToolUse'), timeout: 30, failClosed: true },
    ]);
    expect(json.hooks.preToolUse[1].command).toBe(`'${process.execPath}' '${path.join(base, 'dist', 'hook.js')}' hook --agent cursor preToolUse`);
    expect(json.hooks.stop).toEqual([{ command: hookCommand(inst, 'cursor', 'stop'), timeout: 30 }]);
    expect(await CURSOR_ROW.installHooks(inst, 'workspace')).toEqual([]);
    expect(await CURSOR_ROW.check(inst, 'workspace')).toMatchObject({ hooksInstalled: true, hooksRun: true, problems: [] });
    expect((await CURSOR_ROW.uninstallHooks(inst, 'workspace'))[0]!.changes).toHaveLength(5);
    expect(await fs.readFile(file, 'utf8')).toBe(mine);
  });

  it('a preToolUse of ours without failClosed is a problem (a failing hook would let the call run)', async () => {
    await CURSOR_ROW.installHooks(inst, 'user');
    const file = cursorHooksFile(inst, 'user');
    expect(file).toBe(path.join(inst.home, '.cursor', 'hooks.json'));
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"failClosed": true', '"failClosed": false'));
    expect((await CURSOR_ROW.check(inst, 'user')).problems[0]).toMatch(/not failClosed/);
    await CURSOR_ROW.installHooks(inst, 'user'); // put right in place
    expect((await CURSOR_ROW.check(inst, 'user')).problems).toEqual([]);
  });

  it('files an install made are deleted by uninstall when nothing else is in them', async () => {
    await CURSOR_ROW.installHooks(inst, 'user');
    await CURSOR_ROW.installMcp(inst, 'user');
    await CURSOR_ROW.uninstallHooks(inst, 'user');
    await CURSOR_ROW.uninstallMcp(inst, 'user');
    expect(await fs.readdir(path.join(inst.home, '.cursor'))).toEqual([]);
  });

  it('mcp.json: mcpServers.zut written beside the others and removed exactly', async () => {
    const file = cursorMcpFile(inst, 'user');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const mine = '{\n  "mcpServers": {\n    "db": {"command": "db-mcp"}\n  }\n}\n';
    await fs.writeFile(file, mine);
    await CURSOR_ROW.installMcp(inst, 'user');
    expect(JSON.parse(await fs.readFile(file, 'utf8')).mcpServers.zut).toEqual({ command: process.execPath, args: [path.join(base, 'dist', 'cli.js'), 'mcp'] });
    expect((await CURSOR_ROW.check(inst, 'user')).mcpInstalled).toBe(true);
    await CURSOR_ROW.uninstallMcp(inst, 'user');
    expect(await fs.readFile(file, 'utf8')).toBe(mine);
  });
});
