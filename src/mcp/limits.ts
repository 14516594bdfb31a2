/**
 * Constants of the MCP bridge, each with its source. Its numeric limits live with every other limit of the host in
 * protocol/limits.ts and are re-exported here.
 */
export {
  MAX_MCP_MESSAGE_BYTES,
  MAX_MCP_SESSIONS,
  MAX_RELAY_TOKENS,
  MCP_OUTBOX_MAX_BYTES,
  MCP_PROGRESS_MAX_CHARS,
  RELAY_HANDSHAKE_MAX_BYTES,
  RELAY_HANDSHAKE_MS,
  RELAY_START_MS,
} from '../protocol/limits';

/** MCP protocol revisions we speak, newest first (MCP spec: lifecycle / version negotiation). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** JSON-RPC error codes (JSON-RPC 2.0 spec; `resourceNotFound`: MCP spec, resources / error handling). */
export const RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, resourceNotFound: -32002 } as const;

/** Env of the relay process (set by the VS Code registration in `resolveMcpServerDefinition`). */
export const RELAY_ENV = { socket: 'ZUT_MCP_SOCKET', token: 'ZUT_MCP_TOKEN' } as const;
