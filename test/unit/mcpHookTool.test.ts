/**
 * The hook tool of zut's MCP server (Claude Code's mcp_tool hooks, src/mcp/hookTool.ts) and each call guarded once
 * across processes (src/hooks/mcpServers.ts): the tool is listed and answered for Claude Code only, answers a hook's
 * JSON output through the guards, skips the server's own tools; the real `zut-host mcp` publishes the names it serves,
 * so another process's hook host skips them while that server lives, and guards them again once it is gone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { readHookInput } from '../../src/hooks/input';
import { mcpHookArguments, mcpHookResult, readMcpHookArguments } from '../../src/hooks/mcpHook';
import { servedByLiveServer } from '../../src/hooks/mcpServers';
import { Manager } from '../../src/host/manager';
import { hookTool } from '../../src/mcp/hookTool';
import { McpConnection, McpSessions } from '../../src/mcp/server';
import { builtCli } from '../helpers/built';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, until, zutHome } from '../helpers/hostFixtures';
import { isolatedEnv } from '../helpers/runProcess';
import { onJsonLines } from '../helpers/stdioDriver';

const conns: McpConnection[] = [];
const children = new Set<ChildProcessWithoutNullStreams>();
afterEach(async () => {
  for (const c of conns.splice(0)) c.dispose();
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  await stopManagers();
  cleanupTemps();
});

/** A started host: `stopper` blocks every tool call; `kit` serves `status`. */
async function host(withKit = true): Promise<{ m: Manager; exts: string }> {
  const z = zutHome();
  nodeExt(z.exts, { name: 'stopper', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'not today' } } });
  if (withKit) nodeExt(z.exts, { name: 'kit', tools: [{ name: 'status' }] });
  const m = keepManager(new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' }));
  await m.start();
  return { m, exts: z.exts };
}

/** An MCP connection of `m` with the hook tool, initialized as `client`. */
async function connect(m: Manager, client: string) {
  const sent: Record<string, unknown>[] = [];
  const conn = new McpConnection({ host: m, serverVersion: '9', origin: 'mcp', hookTool: hookTool(m) }, new McpSessions(m), (x) => sent.push(x as Record<string, unknown>));
  conns.push(conn);
  let id = 0;
  const request = async (method: string, params: object = {}) => {
    const n = ++id;
    conn.handle({ jsonrpc: '2.0', id: n, method, params });
    return until(() => sent.find((x) => x.id === n), 10_000, `reply ${n}`);
  };
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: client, version: '1' } });
  return request;
}

/** The arguments an installed PreToolUse entry sends, as Claude Code interpolates them. */
const preToolUse = (toolName: string, toolInput: object) => ({
  ...mcpHookArguments('claude', 'PreToolUse'),
  session_id: 's1',
  cwd: '/',
  hook_event_name: 'PreToolUse',
  tool_name: toolName,
  tool_input: JSON.stringify(toolInput),
  tool_use_id: 'toolu_1',
});

const textOf = (reply: Record<string, unknown>) => (reply.result as { content: { text: string }[] }).content[0]!.text;

describe('the MCP hook tool', () => {
  it('is listed to Claude Code only, hidden from its model (_meta.ui.visibility app); another client cannot call it', async () => {
    const { m } = await host();
    const claude = await connect(m, 'claude-code');
    const listed = ((await claude('tools/list')).result as { tools: { name: string; _meta?: unknown }[] }).tools;
    expect(listed.find((t) => t.name === 'zut_hook')).toMatchObject({ _meta: { ui: { visibility: ['app'] } } });
    const other = await connect(m, 'cursor');
    const names = ((await other('tools/list')).result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(['status']);
    expect(await other('tools/call', { name: 'zut_hook', arguments: preToolUse('Bash', { command: 'ls' }) })).toMatchObject({ error: { message: 'unknown tool: zut_hook' } });
  });

  it('PreToolUse: a guard block is a deny; the server\'s own tool is skipped ({}); malformed arguments are an error result', async () => {
    const { m } = await host();
    const call = await connect(m, 'claude-code');
    const denied = await call('tools/call', { name: 'zut_hook', arguments: preToolUse('Bash', { command: 'ls' }) });
    expect(JSON.parse(textOf(denied))).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by stopper: not today' } });
    const own = await call('tools/call', { name: 'zut_hook', arguments: preToolUse('mcp__zut__status', {}) });
    expect(own).toMatchObject({ result: { content: [{ type: 'text', text: '{}' }], isError: false } });
    const bad = await call('tools/call', { name: 'zut_hook', arguments: { event: 'PreToolUse' } });
    expect(bad).toMatchObject({ result: { isError: true } });
  });

  it('reads interpolated fields back (JSON text as JSON, empty as absent) and turns exit codes into hook JSON', () => {
    const r = readMcpHookArguments({ agent: 'claude', event: 'PostToolUse', tool_name: 'Bash', tool_input: '{"command":"ls"}', tool_response: 'plain text', tool_use_id: '' });
    if (typeof r === 'string') throw new Error(r);
    expect(JSON.parse(r.raw)).toEqual({ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'plain text' });
    expect(readMcpHookArguments({ agent: 'nobody', event: 'PreToolUse' })).toMatch(/unknown hook/);
    const pre = { agent: 'claude', event: 'PreToolUse', camel: false } as const;
    expect(JSON.parse(mcpHookResult(pre, { stdout: '', stderr: 'no\n', exitCode: 2 }).text)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    expect(mcpHookResult({ ...pre, event: 'UserPromptSubmit' }, { stdout: '', stderr: 'stop', exitCode: 2 })).toEqual({ text: '{"decision":"block","reason":"stop"}', isError: false });
    expect(mcpHookResult({ ...pre, event: 'Stop' }, { stdout: '', stderr: 'broken', exitCode: 1 })).toEqual({ text: 'broken', isError: true });
    expect(mcpHookResult(pre, { stdout: '', exitCode: 0 })).toEqual({ text: '{}', isError: false });
  });
});

/** The real `zut-host mcp` serving `kit` (its `status` tool) for `cwd`; resolves once it listed its tools. */
async function mcpServer(kitHome: string, cwd: string) {
  const child = spawn(process.execPath, [builtCli(), 'mcp', '--cwd', cwd], { env: isolatedEnv(tempDir('zut-mcp-home-'), kitHome) });
  children.add(child);
  const replies = new Map<number, Record<string, unknown>>();
  onJsonLines(child.stdout, (x) => typeof x.id === 'number' && replies.set(x.id, x));
  const send = (id: number, method: string, params: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  send(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-code', version: '1' } });
  send(2, 'tools/list', {});
  const list = await until(() => replies.get(2), 20_000, 'tools/list');
  return { child, names: (list.result as { tools: { name: string }[] }).tools.map((t) => t.name) };
}

describe('each call guarded once: a zut MCP server in another process', () => {
  it('a hook host without the tool skips mcp__zut__status while a server of that folder serves it, and guards it once the server is gone', async () => {
    const served = zutHome();
    nodeExt(served.exts, { name: 'kit', tools: [{ name: 'status' }] });
    const cwd = fs.realpathSync(tempDir('zut-mcp-cwd-'));
    const sub = path.join(cwd, 'sub');
    fs.mkdirSync(sub);
    const server = await mcpServer(served.home, cwd);
    expect(server.names).toContain('status');
    expect(servedByLiveServer('status', sub)).toBe(true); // a subfolder of the server's
    expect(servedByLiveServer('status', tempDir('zut-elsewhere-'))).toBe(false);
    expect(servedByLiveServer('other', cwd)).toBe(false);

    const { m } = await host(false); // the hook's host: only the blocking guard, no `status`
    const ask = async () => {
      const input = readHookInput(JSON.stringify({ session_id: 's1', cwd: sub, hook_event_name: 'PreToolUse', tool_name: 'mcp__zut__status', tool_input: {} }), { agent: 'claude', event: 'PreToolUse', camel: false });
      if (typeof input === 'string') throw new Error(input);
      return answerHook(m, { agent: 'claude', event: 'PreToolUse', camel: false }, input, Date.now() + 5_000, new CallMemory());
    };
    expect(await ask()).toEqual({ stdout: '', exitCode: 0 }); // judged on the MCP path only

    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    expect((await ask()).stdout).toContain('blocked by stopper: not today'); // nobody serves it now: guarded
    expect(fs.readdirSync(process.env.ZUT_HOOKS_DIR!).filter((n) => n.startsWith('mcp-'))).toEqual([]); // the stale file went
  });
});
