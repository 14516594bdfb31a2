/**
 * The MCP handler's per-call lookups (src/mcp/server.ts, issue 41): a `tools/call` finds its tool in the catalog the
 * connection already built (rebuilt when the extensions change), not in the host's list per call; and the shared
 * session table (McpSessions) announces each conversation once, within its MAX_MCP_SESSIONS bound.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionContext } from '../../src/protocol';
import { Manager } from '../../src/host/manager';
import { MAX_MCP_SESSIONS } from '../../src/mcp/limits';
import { McpConnection, McpSessions } from '../../src/mcp/server';
import { RecordingUi, cleanupTemps, nodeExt, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';
import { mcpDriver } from '../helpers/mcpDriver';

const conns: McpConnection[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.dispose();
  await stopManagers();
  cleanupTemps();
});

async function connection(configs: (Record<string, unknown> & { name: string })[]) {
  const z = zutHome();
  for (const c of configs) nodeExt(z.exts, c);
  const host = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't', autoRestart: false });
  keepManager(host);
  await host.start();
  const { conn, request } = mcpDriver(host);
  conns.push(conn);
  const call = (name: string, args: object = {}) => request('tools/call', { name, arguments: args });
  return { host, conn, call };
}

/** A host stand-in that records session events (McpSessions asks nothing else of it). */
function recordingHost() {
  const opened: string[] = [];
  const host = { emitSessionEvent: (event: string, ctx: SessionContext) => event === 'session_start' && opened.push(ctx.id) };
  return { opened, sessions: new McpSessions(host as unknown as ConstructorParameters<typeof McpSessions>[0]) };
}

describe('MCP handler: per-call lookups', () => {
  it('looks a called tool up in its catalog: the host list is read once per change, not once per call', async () => {
    const { host, call } = await connection([{ name: 'kit', capabilities: ['tools'], tools: [{ name: 'echo' }, { name: 'load', mode: 'activate' }, { name: 'later', deferred: true }] }]);
    const tools = vi.spyOn(host, 'tools');
    for (let i = 0; i < 5; i++) expect(await call('echo', { i })).toMatchObject({ result: { isError: false } });
    expect(tools).toHaveBeenCalledTimes(1);
    // Activating a deferred tool changes the tools: the catalog is rebuilt and the new tool is callable at once.
    expect(await call('later')).toMatchObject({ error: { message: 'unknown tool: later' } });
    await call('load', { names: ['later'] });
    expect(await call('later')).toMatchObject({ result: { isError: false } });
    expect(tools.mock.calls.length).toBeGreaterThan(1);
  });

  it('a stopped extension’s tool is unknown at once; after it starts again its tool answers', async () => {
    const { host, call } = await connection([{ name: 'kit', capabilities: ['tools'], tools: [{ name: 'echo' }] }]);
    expect(await call('echo')).toMatchObject({ result: { isError: false } });
    await host.stopExtension('kit');
    expect(await call('echo')).toMatchObject({ error: { message: 'unknown tool: echo' } });
    await host.startExtension('kit');
    expect(await call('echo', { back: true })).toMatchObject({ result: { isError: false, content: [{ type: 'text', text: '{"name":"echo","args":{"back":true}}' }] } });
  });

  it('announces a conversation once however its calls interleave with others', () => {
    const { opened, sessions } = recordingHost();
    const a = sessions.open('a');
    expect(sessions.open('a')).toBe(a);
    sessions.open('b');
    expect(sessions.open('a')).toBe(a);
    sessions.open('a');
    expect(opened).toEqual(['a', 'b']);
  });

  it(`keeps at most ${MAX_MCP_SESSIONS} conversations, forgetting the least recently used (its return is announced again)`, () => {
    const { opened, sessions } = recordingHost();
    sessions.open('first');
    sessions.open('kept');
    for (let i = 0; i < MAX_MCP_SESSIONS - 2; i++) sessions.open(`s${i}`);
    sessions.open('kept'); // used again: now the most recent
    sessions.open('one-more'); // over the bound: `first`, the least recently used, is forgotten
    opened.length = 0;
    sessions.open('kept');
    expect(opened).toEqual([]);
    sessions.open('first');
    expect(opened).toEqual(['first']);
  });

  it('a conversation used again after another is the most recent again, whichever was opened first', () => {
    const { opened, sessions } = recordingHost();
    sessions.open('a');
    sessions.open('b');
    sessions.open('a'); // now newer than b: b is the least recently used
    for (let i = 0; i < MAX_MCP_SESSIONS - 1; i++) sessions.open(`s${i}`); // one over the bound: b is forgotten
    opened.length = 0;
    sessions.open('a');
    sessions.open('b');
    expect(opened).toEqual(['b']);
  });
});
