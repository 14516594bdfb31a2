/**
 * `zut-host mcp` end to end: the real CLI bundle as an MCP server over stdio, driven by `@modelcontextprotocol/sdk`'s
 * client and by hand, with real fixture extensions; shutdown on stdin EOF and on SIGTERM leaves no extension alive.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, cleanupTemps, nodeExt, tempDir, until, zutHome } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv } from '../helpers/runProcess';

const cli = builtCli();
afterAll(cleanupTemps);

function project() {
  const z = zutHome();
  const root = tempDir('zut-mcp-exts-');
  const kit = nodeExt(root, {
    name: 'kit',
    tools: [{ name: 'echo', annotations: { readOnlyHint: true } }, { name: 'chart', mode: 'image' }, { name: 'pid', mode: 'pid' }, { name: 'ask', interactive: true }, { name: 'later', deferred: true }],
  });
  const guard = nodeExt(root, { name: 'guard', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { modified_args: { guarded: true } } } });
  return { home: z.home, cwd: tempDir('zut-mcp-cwd-'), exts: [guard, kit] };
}

const text = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content.find((c) => c.type === 'text')?.text ?? '');

/** A hand-driven `zut-host mcp`: send lines, await replies by id. */
function raw(p: ReturnType<typeof project>) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [cli, 'mcp', '--cwd', p.cwd, ...p.exts.flatMap((e) => ['--ext', e])], { env: isolatedEnv(p.home, p.home) });
  const replies = new Map<number, Record<string, unknown>>();
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, i)) as Record<string, unknown>;
      buf = buf.slice(i + 1);
      if (typeof m.id === 'number') replies.set(m.id, m);
    }
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const request = async (id: number, method: string, params: object = {}) => {
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return until(() => replies.get(id), 20_000, `reply ${id}`);
  };
  const start = async () => {
    await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const r = await request(2, 'tools/call', { name: 'pid', arguments: {} });
    return Number(text(r.result));
  };
  return { child, exited, request, start };
}

describe('zut-host mcp', () => {
  it('serves the tools over stdio with the same guards (SDK client): list, text, image; no interactive tools headless', async () => {
    const p = project();
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--cwd', p.cwd, ...p.exts.flatMap((e) => ['--ext', e])], env: isolatedEnv(p.home, p.home) as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['chart', 'echo', 'pid']); // not `ask` (interactive), not `later` (deferred)
      expect(tools.find((t) => t.name === 'echo')!.annotations).toEqual({ readOnlyHint: true });
      expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { a: 1 } })))).toEqual({ name: 'echo', args: { guarded: true } }); // the guard's modified_args
      const chart = await client.callTool({ name: 'chart', arguments: {} });
      expect(chart.content).toContainEqual({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
    } finally {
      await client.close();
    }
  });

  it('stdin EOF: stops every extension and exits 0', async () => {
    const r = raw(project());
    const pid = await r.start();
    expect(alive(pid)).toBe(true);
    r.child.stdin.end();
    expect(await r.exited).toBe(0);
    expect(alive(pid)).toBe(false);
  });

  it('SIGTERM: stops every extension and exits 0; bad input gets JSON-RPC errors, not a crash', async () => {
    const r = raw(project());
    const pid = await r.start();
    r.child.stdin.write('{not json\n');
    expect((await r.request(3, 'no/such/method')).error).toMatchObject({ code: -32601 });
    expect((await r.request(4, 'tools/call', { name: 'nope' })).error).toMatchObject({ code: -32602 });
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(alive(pid)).toBe(false);
  });
});
