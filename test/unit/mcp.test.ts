/**
 * The MCP bridge end to end: `@modelcontextprotocol/sdk`'s client → the real relay bundle (src/mcp/relay.ts, as
 * dist/mcp-relay.js) → the relay socket → the handler → the host's guarded path → real fixture extensions.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as esbuild from 'esbuild';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../src/host/events';
import { Manager } from '../../src/host/manager';
import { MAX_RELAY_TOKENS } from '../../src/mcp/limits';
import { RelayServer } from '../../src/mcp/relayServer';
import type { ExtensionProgress } from '../../src/mcp/server';
import { builtRelay } from '../helpers/built';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, until, zutHome } from '../helpers/hostFixtures';

const relay = builtRelay();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await stopManagers();
});
afterAll(cleanupTemps);

class ProgressUi extends RecordingUi {
  readonly progress = new Emitter<ExtensionProgress>();
  override notify(ext: string, level: 'info', message: string): void {
    super.notify(ext, level, message);
    this.progress.fire({ ext, message });
  }
}

const guardCfg = { name: 'guard', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { modified_args: { rewritten: true } } } };
const toolsCfg = {
  name: 'kit',
  capabilities: ['tools', 'tool_cancel'],
  tools: [
    { name: 'echo', annotations: { title: 'Echo it', readOnlyHint: true } },
    { name: 'chart', mode: 'image' },
    { name: 'broken', mode: 'error' },
    { name: 'keep', mode: 'details' },
    { name: 'hang', mode: 'never' },
    { name: 'loader', mode: 'activate' },
    { name: 'later', deferred: true },
    { name: 'my tool!' },
    { name: 'ask', interactive: true },
    { name: 'steps', mode: 'progress' },
    { name: 'release', mode: 'release' },
    { name: 'kit_events', mode: 'events' },
  ],
};

async function bridge(configs: (Record<string, unknown> & { name: string })[], exclude: string[] = []) {
  const z = zutHome();
  for (const c of configs) nodeExt(z.exts, c);
  const ui = new ProgressUi();
  cleanups.push(() => ui.progress.dispose());
  const host = new Manager({ folders: [], zutHome: z.home, ui, hostVersion: 't' });
  keepManager(host);
  await host.start();
  const server = await RelayServer.listen({ host, serverVersion: '1.2.3', origin: 'agent', exclude: () => exclude, progress: ui.progress.event });
  cleanups.push(() => server.dispose());
  const connect = async (token = server.issueToken()) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [relay], env: { ZUT_MCP_SOCKET: server.address, ZUT_MCP_TOKEN: token }, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1' });
    const notes: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notes.push('list_changed'));
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, transport, notes };
  };
  const kitEvents = async () => JSON.parse((await host.callTool('kit_events', {})).content[0]!.text!) as { type: string; event?: string; tool_name?: string; session?: { id: string } }[];
  return { host, server, connect, kitEvents };
}

const text = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content.find((c) => c.type === 'text')?.text ?? '');

describe('MCP bridge over the relay', () => {
  it('lists the offered tools (annotations, sanitised names; no deferred, no excluded) and calls them', async () => {
    const b = await bridge([toolsCfg], ['KIT_EVENTS']);
    const { client } = await b.connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'zut', version: '1.2.3' });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'chart', 'broken', 'keep', 'hang', 'loader', 'ask', 'steps']));
    expect(names).not.toContain('later');
    expect(names).not.toContain('kit_events');
    const odd = names.find((n) => n.startsWith('my_tool_'))!;
    expect(odd).toMatch(/^my_tool_[0-9a-f]{8}$/);
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({ title: 'Echo it', annotations: { title: 'Echo it', readOnlyHint: true }, inputSchema: { type: 'object' } });

    expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { a: 1 } })))).toEqual({ name: 'echo', args: { a: 1 } });
    expect(JSON.parse(text(await client.callTool({ name: odd, arguments: {} })))).toEqual({ name: 'my tool!', args: {} });
    const chart = await client.callTool({ name: 'chart', arguments: {} });
    expect(chart.content).toEqual([{ type: 'text', text: 'chart' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]);
    expect(chart.isError).toBe(false);
    const broken = await client.callTool({ name: 'broken', arguments: {} });
    expect(broken).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it failed' }] });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/unknown tool: nope/);
    await expect(client.ping()).resolves.toEqual({});
  });

  it('guards see every call: a block is an isError result naming the guard; modified_args reach the tool', async () => {
    const rewrite = await bridge([guardCfg, toolsCfg]);
    const { client } = await rewrite.connect();
    expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { rewritten: false } })))).toEqual({ name: 'echo', args: { rewritten: true } });

    const block = await bridge([{ name: 'wall', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'no agents today' } } }, toolsCfg]);
    const c2 = (await block.connect()).client;
    const r = await c2.callTool({ name: 'echo', arguments: {} });
    expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'blocked by wall: no agents today' }] });
    expect((await block.kitEvents()).some((e) => e.type === 'tool_call' || e.tool_name === 'echo')).toBe(false);
  });

  it('activate_tools: tools/list_changed arrives before the result, and the deferred tool is listed', async () => {
    const b = await bridge([toolsCfg]);
    const { client, notes } = await b.connect();
    await client.listTools();
    const r = await client.callTool({ name: 'loader', arguments: { names: ['later'] } });
    notes.push('result');
    expect(text(r)).toBe('activated');
    expect(notes).toEqual(['list_changed', 'result']);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('later');
  });

  it('cancel (notifications/cancelled) and a relay disconnect both cancel the call: tool_cancel reaches the extension', async () => {
    const b = await bridge([toolsCfg]);
    const { client } = await b.connect();
    const ac = new AbortController();
    const p = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: ac.signal });
    await until(() => b.host.extensions()[0]!.pending === 1, 10_000, 'the call in flight');
    ac.abort();
    await expect(p).rejects.toThrow();
    await until(() => b.host.extensions()[0]!.pending === 0, 10_000, 'the call abandoned');
    expect((await b.kitEvents()).filter((e) => e.type === 'tool_cancel')).toHaveLength(1);

    const second = await b.connect();
    void second.client.callTool({ name: 'hang', arguments: {} }).catch(() => undefined);
    await until(() => b.host.extensions()[0]!.pending === 1, 10_000, 'the second call in flight');
    await second.transport.close(); // the relay process goes away
    await until(() => b.host.extensions()[0]!.pending === 0, 10_000, 'the call cancelled by the disconnect');
    expect((await b.kitEvents()).filter((e) => e.type === 'tool_cancel')).toHaveLength(2);
    await until(() => b.server.connectionCount === 1, 10_000, 'the relay connection closed');
  });

  it('liveCount: a start (token issued) counts until its relay connects, then the relay until it goes', async () => {
    const b = await bridge([toolsCfg]);
    const counts: number[] = [];
    const sub = b.server.onDidChangeConnections((n) => counts.push(n));
    const token = b.server.issueToken();
    expect([b.server.liveCount, b.server.connectionCount]).toEqual([1, 0]);
    const { client } = await b.connect(token);
    expect([b.server.liveCount, b.server.connectionCount]).toEqual([1, 1]);
    await client.close();
    await until(() => b.server.liveCount === 0, 10_000, 'the relay gone');
    expect(counts).toEqual([1, 1, 0]);
    sub.dispose();
  });

  it('liveCount: a start whose token is evicted (more than MAX_RELAY_TOKENS issued) stops counting at once', async () => {
    const b = await bridge([]);
    const counts: number[] = [];
    const sub = b.server.onDidChangeConnections((n) => counts.push(n));
    for (let i = 0; i < MAX_RELAY_TOKENS + 3; i++) b.server.issueToken();
    expect(b.server.liveCount).toBe(MAX_RELAY_TOKENS);
    expect(counts.slice(-4)).toEqual(Array(4).fill(MAX_RELAY_TOKENS));
    sub.dispose();
  });

  it('a wrong token is refused: the relay exits 1 and no connection is served', async () => {
    const b = await bridge([toolsCfg]);
    b.server.issueToken();
    const child = spawn(process.execPath, [relay], { env: { ...process.env, ZUT_MCP_SOCKET: b.server.address, ZUT_MCP_TOKEN: 'f'.repeat(64) } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(1);
    expect(stderr).toMatch(/refused/);
    expect(b.server.connectionCount).toBe(0);
    if (process.platform !== 'win32') expect(fs.statSync(path.dirname(b.server.address)).mode & 0o777).toBe(0o700);
  });

  it('two conversations at once keep their own session state; the conversation id is the zut session', async () => {
    const b = await bridge([{ ...toolsCfg, subscribe: { events: ['session_start'] } }]);
    const [one, two] = [await b.connect(), await b.connect()];
    const call = (c: Client, conv: string, who: string) =>
      c.callTool({ name: 'keep', arguments: { details: { who } }, _meta: { 'vscode.conversationId': conv } });
    await Promise.all([call(one.client, 'conv-1', 'one'), call(two.client, 'conv-2', 'two'), one.client.callTool({ name: 'keep', arguments: { details: { who: 'nobody' } } })]);
    expect(b.host.getState('conv-1', 'kit')).toEqual({ who: 'one' });
    expect(b.host.getState('conv-2', 'kit')).toEqual({ who: 'two' });
    const starts = (await b.kitEvents()).filter((e) => e.event === 'session_start').map((e) => e.session!.id);
    expect(starts).toEqual(expect.arrayContaining(['conv-1', 'conv-2']));
    expect(starts.find((id) => id.startsWith('mcp-'))).toBeTruthy(); // no conversation id: the connection's own session
  });

  it("progress: the extension's notes during its call become notifications/progress", async () => {
    const b = await bridge([toolsCfg]);
    const { client } = await b.connect();
    const seen: string[] = [];
    const call = client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => void seen.push(String(p.message)) });
    await until(() => seen.length === 1, 10_000, 'the progress notification');
    expect(text(await client.callTool({ name: 'release', arguments: {} }))).toBe('released');
    const r = await call;
    expect(text(r)).toBe('progressed');
    expect(seen).toEqual(['step 1 of 2']);
  });
});

describe('e tools over MCP', () => {
  it("an e tool's tool.update output and its ui.notify become notifications/progress of its call", async () => {
    const eHome = tempDir('zut-mcp-e-');
    fs.mkdirSync(path.join(eHome, 'extensions'));
    fs.symlinkSync(path.resolve(__dirname, '../fixtures/e/enode'), path.join(eHome, 'extensions', 'enode'));
    const ui = new ProgressUi();
    cleanups.push(() => ui.progress.dispose());
    const host = keepManager(new Manager({ folders: [], zutHome: zutHome().home, e: { home: eHome }, ui, hostVersion: 't' }));
    await host.start();
    const server = await RelayServer.listen({ host, serverVersion: '1.2.3', origin: 'agent', exclude: () => [], progress: ui.progress.event });
    cleanups.push(() => server.dispose());
    // Read off the wire (the SDK client drops a progress notification that arrives in the same read as the result:
    // it runs notification handlers a few ticks late). What MCP asks of the server: progress before the response.
    const child = spawn(process.execPath, [relay], { env: { ...process.env, ZUT_MCP_SOCKET: server.address, ZUT_MCP_TOKEN: server.issueToken() } });
    cleanups.push(() => void child.kill());
    const messages: { id?: number; method?: string; params?: { progressToken?: unknown; message?: string }; result?: { content: { text?: string }[] } }[] = [];
    let rest = '';
    child.stdout.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l) messages.push(JSON.parse(l) as (typeof messages)[number]);
    });
    const send = (m: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    await until(() => messages.some((m) => m.id === 1), 10_000, 'initialize answered');
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'e_greet', arguments: { who: 'mcp' }, _meta: { progressToken: 'p2' } } });
    await until(() => messages.some((m) => m.id === 2), 10_000, 'the call answered');
    const upToResult = messages.slice(0, messages.findIndex((m) => m.id === 2) + 1);
    const progress = upToResult.filter((m) => m.method === 'notifications/progress' && m.params?.progressToken === 'p2').map((m) => m.params?.message);
    expect(progress).toEqual(['greeting…', 'greeting mcp']);
    expect(upToResult.at(-1)?.result?.content[0]?.text).toBe('hello mcp');
  });
});

describe('bundles', () => {
  it('the MCP SDK (a dev dependency) is in no bundle; the relay bundles nothing but itself, its reply reader and the limits', async () => {
    const root = path.resolve(__dirname, '../..');
    const inputs = async (entry: string) => {
      const r = await esbuild.build({ entryPoints: [path.join(root, entry)], bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], write: false, metafile: true, logLevel: 'silent' });
      return Object.keys(r.metafile.inputs);
    };
    for (const entry of ['src/extension.ts', 'src/cli.ts']) {
      expect((await inputs(entry)).filter((i) => i.includes('@modelcontextprotocol'))).toEqual([]);
    }
    expect((await inputs('src/mcp/relay.ts')).sort()).toEqual(['src/mcp/relay.ts', 'src/mcp/relayReply.ts', 'src/protocol/limits.ts'].sort());
  });
});
