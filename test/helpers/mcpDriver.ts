/**
 * A test's MCP client of one in-process McpConnection (src/mcp/server.ts) over a Manager: every message it sent, and
 * `request`, which sends a JSON-RPC request and waits (5 s) for its reply message.
 */
import type { Manager } from '../../src/host/manager';
import { McpConnection, McpSessions } from '../../src/mcp/server';
import { until } from './hostFixtures';

export interface McpDriver {
  conn: McpConnection;
  sent: Record<string, unknown>[];
  request(method: string, params?: object): Promise<Record<string, unknown>>;
}

/** A connection to `host` (`origin` mcp, server version "9"); dispose it with `conn.dispose()`. */
export function mcpDriver(host: Manager): McpDriver {
  const sent: Record<string, unknown>[] = [];
  const conn = new McpConnection({ host, serverVersion: '9', origin: 'mcp' }, new McpSessions(host), (m) => sent.push(m as Record<string, unknown>));
  let id = 0;
  const request = (method: string, params: object = {}) => {
    const n = ++id;
    conn.handle({ jsonrpc: '2.0', id: n, method, params });
    return until(() => sent.find((m) => m.id === n), 5000, `${method} (#${n})`);
  };
  return { conn, sent, request };
}
