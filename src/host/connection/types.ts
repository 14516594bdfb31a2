/**
 * The options and outcomes of a Connection (connection.ts); its inbound routing is inbound.ts, its start clock
 * startClock.ts, its requests in flight pending.ts.
 */
import type { ChildSpec } from '../process/child';
import { AUTO_READY_MS, DEFAULT_START_TIMEOUT_MS, KILL_GRACE_MS, READY_GRACE_MS, SHUTDOWN_GRACE_MS, WRITE_TIMEOUT_MS } from '../../protocol/limits';
import type { ExtNotice, ExtRequestId, HostInfo, ProtocolFamily } from '../protocols/types';

export interface ConnectionTimeouts {
  helloMs: number;
  autoReadyMs: number;
  readyGraceMs: number;
  writeMs: number;
  shutdownGraceMs: number;
  killGraceMs: number;
}

/** The defaults, from limits.ts. */
export const DEFAULT_TIMEOUTS: ConnectionTimeouts = {
  helloMs: DEFAULT_START_TIMEOUT_MS,
  autoReadyMs: AUTO_READY_MS,
  readyGraceMs: READY_GRACE_MS,
  writeMs: WRITE_TIMEOUT_MS,
  shutdownGraceMs: SHUTDOWN_GRACE_MS,
  killGraceMs: KILL_GRACE_MS,
};

export interface ConnectionOptions extends ChildSpec {
  /** How the connection begins (default: the zut family, which also speaks zot). */
  family?: ProtocolFamily;
  /** Host facts for the handshake, built when needed (the host's current model and session). */
  hostInfo(): HostInfo;
  /** One-way messages (registrations, UI), during registration and after. */
  onNotice(notice: ExtNotice): void;
  /** The extension asks the host something; answer with `respond(id, …)`. Without a handler: an error answer. */
  onRequest?(id: ExtRequestId, method: string, params: unknown): void;
  /** The extension withdrew its request `id`. */
  onCancel?(id: ExtRequestId): void;
  onDiagnostic(message: string): void;
  onStderr(line: string): void;
  /** Raw lines in and out, when tracing. */
  onTrace?(dir: 'in' | 'out', line: string): void;
  /** Whether `onTrace` wants lines now (checked per line so tracing costs nothing when off). */
  tracing?(): boolean;
  timeouts?: Partial<ConnectionTimeouts>;
  queue?: { maxFrames?: number; maxBytes?: number };
  maxFrameBytes?: number;
}

/** How the connection ended. `expected`: after `stop()` (not a crash). */
export interface ConnectionExit {
  expected: boolean;
  message: string;
}
