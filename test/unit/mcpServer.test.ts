/** The MCP handler (src/mcp/server.ts) message by message: lifecycle, errors, and what it never answers. */
import { afterEach, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/limits';
import { McpConnection, McpSessions } from '../../src/mcp/server';
import { RecordingUi, cleanupTemps, nodeExt, until, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

const conns: McpConnection[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.dispose();
  await stopManagers();
  cleanupTemps();
});

async function connection(configs: (Record<string, unknown> & { name: string })[] = []) {
  const z = zutHome();
  for (const c of configs) nodeExt(z.exts, c);
  const host = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(host);
  await host.start();
  const sent: Record<string, unknown>[] = [];
  const conn = new McpConnection({ host, serverVersion: '9', origin: 'mcp' }, new McpSessions(host), (m) => sent.push(m as Record<string, unknown>));
  conns.push(conn);
  const reply = (id: number) => until(() => sent.find((m) => m.id === id), 5000, `reply ${id}`);
  return { host, conn, sent, reply };
}

describe('MCP handler', () => {
  it('negotiates the protocol version: the client’s when we speak it, else our newest', async () => {
    const { conn, reply } = await connection();
    conn.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26' } });
    expect(await reply(1)).toMatchObject({ result: { protocolVersion: '2025-03-26', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'zut', version: '9' } } });
    conn.handle({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '1999-01-01' } });
    expect(await reply(2)).toMatchObject({ result: { protocolVersion: MCP_PROTOCOL_VERSIONS[0] } });
  });

  it('answers malformed messages with JSON-RPC errors and ignores responses and unknown notifications', async () => {
    const { conn, sent, reply } = await connection();
    conn.handle({ id: 3, method: 'ping' });
    conn.handle({ jsonrpc: '2.0', id: { bad: 1 }, method: 'ping' });
    conn.handle({ jsonrpc: '2.0', id: 4, method: 'completion/complete' });
    conn.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x', arguments: [1] } });
    conn.handle({ jsonrpc: '2.0', id: 99, result: {} });
    conn.handle({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    conn.handle({ jsonrpc: '2.0', id: 6, method: 'ping' });
    await reply(6);
    await reply(5);
    expect(sent).toHaveLength(5); // replies may come in any order (requests are handled concurrently)
    expect(sent).toEqual(expect.arrayContaining([
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'not a JSON-RPC 2.0 message' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'id must be a string or number' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'method not found: completion/complete' } },
      { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'unknown tool: x' } },
      { jsonrpc: '2.0', id: 6, result: {} },
    ]));
  });

  it('tools/list_changed only after initialized, once per change; a cancelled call gets no response; dispose silences it', async () => {
    const { host, conn, sent, reply } = await connection([{ name: 'kit', capabilities: ['tools', 'tool_cancel'], tools: [{ name: 'hang', mode: 'never' }, { name: 'load', mode: 'activate' }, { name: 'later', deferred: true }] }]);
    conn.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'load', arguments: { names: ['later'] } } });
    await reply(1);
    expect(sent.some((m) => m.method === 'notifications/tools/list_changed')).toBe(false); // not initialized yet
    conn.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    conn.checkListChanged();
    expect(sent.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(0); // nothing changed since

    conn.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await until(() => host.extensions()[0]!.pending === 1, 5000, 'the call in flight');
    conn.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'user' } });
    await until(() => host.extensions()[0]!.pending === 0, 5000, 'the call cancelled');
    conn.handle({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await reply(3);
    expect(sent.find((m) => m.id === 2)).toBeUndefined();

    conn.dispose();
    conn.handle({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await new Promise((r) => setImmediate(r));
    expect(sent.find((m) => m.id === 4)).toBeUndefined();
  });

  it("a host error's kind prefixes the tool error, told by its `kind` (in VS Code the handler is its own bundle: instanceof cannot)", async () => {
    const { host } = await connection([{ name: 'kit', tools: [{ name: 'echo' }] }]);
    const sent: Record<string, unknown>[] = [];
    // The extension bundle's RequestError is another class than this module's: an Error with a `kind`.
    const other = Object.assign(Object.create(host) as Manager, { invokeTool: () => Promise.reject(Object.assign(new Error('tool echo timed out after 1s'), { kind: 'timeout' })) });
    const conn = new McpConnection({ host: other, serverVersion: '9', origin: 'mcp' }, new McpSessions(other), (m) => sent.push(m as Record<string, unknown>));
    conns.push(conn);
    conn.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    expect(await until(() => sent.find((m) => m.id === 1), 5000, 'reply')).toMatchObject({ result: { isError: true, content: [{ type: 'text', text: 'timeout: tool echo timed out after 1s' }] } });
  });
});
