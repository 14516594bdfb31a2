/**
 * Limits and constants of the MCP bridge, each with its source. (Ours unless a spec is named.)
 */

/** MCP protocol revisions we speak, newest first (MCP spec: lifecycle / version negotiation). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The largest JSON-RPC message (one line) accepted from a client or relay; longer lines are refused. Ours. */
export const MAX_MCP_MESSAGE_BYTES = 8 * 1024 * 1024;

/** How long a relay has to present its token after connecting. Ours. */
export const RELAY_HANDSHAKE_MS = 5_000;

/** Relay tokens kept valid at once (one per server start VS Code asked for; the oldest drop first). Ours. */
export const MAX_RELAY_TOKENS = 16;

/** Conversations remembered as already announced (`session_start`); the least recently used drop first. Ours. */
export const MAX_MCP_SESSIONS = 500;

/** JSON-RPC error codes (JSON-RPC 2.0 spec). */
export const RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603 } as const;

/** Env of the relay process (set by the VS Code registration in `resolveMcpServerDefinition`). */
export const RELAY_ENV = { socket: 'ZUT_MCP_SOCKET', token: 'ZUT_MCP_TOKEN' } as const;
