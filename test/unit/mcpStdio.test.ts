/**
 * `zut-host mcp` end to end: the real CLI bundle as an MCP server over stdio, driven by `@modelcontextprotocol/sdk`'s
 * client and by hand, with real fixture extensions; shutdown on stdin EOF and on SIGTERM leaves no extension alive.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alive, cleanupTemps, nodeExt, tempDir, until, writeExt, zutHome } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv } from '../helpers/runProcess';
import { onJsonLines } from '../helpers/stdioDriver';

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

/** A hand-driven `zut-host mcp`: send lines, await replies by id; notifications are kept in order. */
function raw(p: { home: string; cwd: string; exts: string[] }, o: { args?: string[]; env?: NodeJS.ProcessEnv } = {}) {
  const args = [cli, 'mcp', '--cwd', p.cwd, ...p.exts.flatMap((e) => ['--ext', e]), ...(o.args ?? [])];
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, { env: isolatedEnv(p.home, p.home, o.env) });
  running.add(child);
  const replies = new Map<number, Record<string, unknown>>();
  const notifications: string[] = [];
  onJsonLines(child.stdout, (m) => {
    if (typeof m.id === 'number') replies.set(m.id, m);
    else if (typeof m.method === 'string') notifications.push(m.method);
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  void exited.then(() => running.delete(child));
  const notify = (method: string) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  const request = async (id: number, method: string, params: object = {}) => {
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return until(() => replies.get(id), 20_000, `reply ${id}`);
  };
  const initialize = (id = 1) => request(id, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  const toolNames = async (id: number) => ((await request(id, 'tools/list')).result as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
  const start = async () => {
    await initialize();
    notify('notifications/initialized');
    const r = await request(2, 'tools/call', { name: 'pid', arguments: {} });
    return Number(text(r.result));
  };
  return { child, exited, request, notify, initialize, toolNames, notifications, start };
}

/** Servers a failed test left running: SIGTERM (their extensions stop with them), then SIGKILL. */
const running = new Set<ChildProcessWithoutNullStreams>();
afterEach(async () => {
  await Promise.all(
    [...running].map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 10_000);
      await new Promise((r) => c.once('exit', r));
      clearTimeout(t);
    }),
  );
});

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

describe('zut-host mcp with slow extensions (issue 20)', () => {
  it('initialize and ping are answered at once while an extension never says hello; tools come as extensions get ready (tools/list_changed); SIGTERM gives up the start, nothing is left', async () => {
    const p = project();
    const root = tempDir('zut-mcp-slow-');
    const gfile = path.join(root, 'mute-grandchild.pid');
    const mute = nodeExt(root, { name: 'mute', before: 'sleep', grandchild: gfile }); // never says hello
    const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name: 'slowpoke', version: '1.0.0', capabilities: ['tools'] });
    const reg = JSON.stringify({ type: 'register_tool', name: 'slowpoke_tool', description: 'late', schema: { type: 'object' } });
    // Says hello after 7 s: past the first-load wait (MCP_FIRST_LOAD_WAIT_MS, 5 s).
    const script = `#!/bin/sh\nsleep 7\nprintf '%s\\n' '${hello}' '${reg}' '{"type":"ready"}'\nwhile IFS= read -r l; do case "$l" in *'"shutdown"'*) exit 0;; esac; done\n`;
    const slowpoke = writeExt(root, 'slowpoke', { name: 'slowpoke', exec: './run.sh' }, { 'run.sh': script });
    const r = raw({ ...p, exts: [...p.exts, mute, slowpoke] });
    const t0 = Date.now();
    expect((await r.initialize()).result).toMatchObject({ capabilities: { tools: { listChanged: true } } });
    const initMs = Date.now() - t0;
    expect(initMs).toBeLessThan(3_000);
    expect((await r.request(2, 'ping')).result).toEqual({});
    r.notify('notifications/initialized');
    expect(await r.toolNames(3)).toEqual(['chart', 'echo', 'pid']); // kit is ready; mute and slowpoke are not
    const seen = r.notifications.length;
    await until(() => r.notifications.slice(seen).includes('notifications/tools/list_changed'), 20_000, 'tools/list_changed');
    expect(await r.toolNames(4)).toEqual(['chart', 'echo', 'pid', 'slowpoke_tool']);
    const gpid = Number(fs.readFileSync(gfile, 'utf8'));
    expect(alive(gpid)).toBe(true); // mute is still starting (its deadline is 60 s)
    const t1 = Date.now();
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    const stopMs = Date.now() - t1;
    expect(stopMs).toBeLessThan(5_000);
    await until(() => !alive(gpid), 2_000, 'the never-ready extension\'s child gone'); // killed; reaped a moment later
    console.log(`[mcp] initialize answered in ${initMs} ms with an extension that never says hello; SIGTERM to exit ${stopMs} ms`);
  }, 60_000);
});

describe('zut-host mcp: which extensions it loads', () => {
  /** A zut home with a zot home and an e home beside it, each holding one extension with one tool. */
  function ecosystems() {
    const p = project();
    const zotHome = tempDir('zut-mcp-zot-');
    nodeExt(path.join(zotHome, 'extensions'), { name: 'zotty', tools: [{ name: 'zot_tool' }] });
    // HOME is p.home (isolatedEnv): ~/.e/extensions holds the real e fixture.
    fs.mkdirSync(path.join(p.home, '.e', 'extensions'), { recursive: true });
    fs.symlinkSync(path.resolve(__dirname, '../fixtures/e/enode'), path.join(p.home, '.e', 'extensions', 'enode'));
    return { p, env: { ZOT_HOME: zotHome } };
  }

  it('zot and e extensions too, as README says; --no-zot and --no-e leave them out', async () => {
    const { p, env } = ecosystems();
    const all = raw(p, { env });
    await all.initialize();
    all.notify('notifications/initialized');
    const names = await all.toolNames(2);
    expect(names).toEqual(expect.arrayContaining(['echo', 'zot_tool', 'e_greet']));
    const greet = await all.request(3, 'tools/call', { name: 'e_greet', arguments: { who: 'mcp' } });
    expect((greet.result as { isError?: boolean }).isError).toBeFalsy();
    all.child.stdin.end();
    expect(await all.exited).toBe(0);
    const none = raw(p, { env, args: ['--no-zot', '--no-e'] });
    await none.initialize();
    expect(await none.toolNames(2)).toEqual(['chart', 'echo', 'pid']);
    none.child.stdin.end();
    expect(await none.exited).toBe(0);
  }, 60_000);

  it("the project's own extensions only with --allow-project (the client's config line says so)", async () => {
    const p = project();
    nodeExt(path.join(p.cwd, '.zut', 'extensions'), { name: 'local', tools: [{ name: 'local_tool' }] });
    const held = raw(p);
    await held.initialize();
    expect(await held.toolNames(2)).toEqual(['chart', 'echo', 'pid']);
    held.child.stdin.end();
    expect(await held.exited).toBe(0);
    const allowed = raw(p, { args: ['--allow-project'] });
    await allowed.initialize();
    expect(await allowed.toolNames(2)).toEqual(['chart', 'echo', 'local_tool', 'pid']);
    allowed.child.stdin.end();
    expect(await allowed.exited).toBe(0);
  }, 60_000);
});
