/** A JSON-RPC error the MCP server answers with (its code and message), and the cancelled request that gets none. */
import { RPC } from './limits';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A cancelled request gets no response (MCP spec: cancellation). */
export class Cancelled extends RpcError {
  constructor() {
    super(RPC.internal, 'cancelled');
  }
}
