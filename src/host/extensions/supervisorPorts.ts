/**
 * What a supervisor (supervisor.ts) needs of its host, as ports the loader (loader.ts) fills in: the UI, its log,
 * the facts for `hello_ack`, timeouts, tracing, the restart policy, caps, change and failure reports, and the
 * answers to the requests its extension makes (calls/extRequests.ts). No `vscode`.
 */
import type { ExtensionLogLine, TraceLevel } from '../types';
import type { CapLimits } from './caps';
import type { ConnectionTimeouts } from '../connection/connection';
import type { HostUi } from '../hostUi';
import type { ExtRequestId, HostInfo, Responder } from '../protocols';
import type { RestartPolicy } from './supervisorState';

/** `S`: the supervisor itself (supervisor.ts), which hands itself to `hostInfo` and `admit`. */
export interface SupervisorDeps<S> {
  ui: HostUi;
  logPath: string;
  /** The facts its `hello_ack` carries. */
  hostInfo(sup: S): HostInfo;
  /** Before each spawn: what must exist for it (its `data_dir` outside the repository). Never rejects. */
  prepareSpawn(sup: S): Promise<void>;
  timeouts: Partial<ConnectionTimeouts>;
  autoRestart(): boolean;
  trace(): TraceLevel;
  restartPolicy: RestartPolicy;
  /** Per-extension caps (default: limits.ts). */
  caps?: CapLimits;
  /** Registrations, subscriptions, diagnostics or a consent decision changed (its state: `onDidChangeState`). */
  changed(): void;
  fail(kind: 'load' | 'crash' | 'gave-up', message: string): void;
  log(line: ExtensionLogLine): void;
  /** Requests the extension makes of the host (zot's `call_tool`, e's questions): calls/extRequests.ts. */
  requests: HostRequests;
  /** The gate before every spawn, restarts included (gates.ts `admit`): false = held back (consent, refused…). */
  admit(sup: S): Promise<boolean>;
}

/** Answers the requests extensions make of the host (calls/extRequests.ts implements it). */
export interface HostRequests {
  /** One request from `ext`; the answer goes to `to`. */
  handle(ext: string, to: Responder, id: ExtRequestId, method: string, params: unknown): void;
  cancel(ext: string, id: ExtRequestId): void;
  /** `ext`'s connection closed: its requests in flight end. */
  closed(ext: string): void;
}
