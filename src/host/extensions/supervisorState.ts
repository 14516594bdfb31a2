/**
 * An extension's state as its supervisor owns it (supervisor.ts): its lifecycle (is a process there, coming, gone
 * or failed, with the failure's message) and its availability (whether anything holds it back from running), the
 * steps between states, the change event's shape, the one derived 12-value `ExtensionState` the UI and
 * ExtensionInfo show, and the restart policy as data (how many crashes in what window; the supervisor applies it to
 * move a crashed one on: restarting, or error). No `vscode`.
 */
import type { DiscoveredExtension, ExtensionState } from '../types';
import type { Gate } from './consent';
import { RESTART_MAX_CRASHES, RESTART_WINDOW_MS } from '../../protocol/limits';

/** Whether a process is there, coming, gone or failed. */
export type Lifecycle = 'stopped' | 'starting' | 'restarting' | 'running' | 'crashed' | 'error';

/**
 * What holds it back, if anything: its discovery (`disabled` in its manifest, `shadowed` by a same-named
 * extension, `theme-only`, `blocked` in an untrusted workspace) or a gate (consent.ts: waiting for `consent`,
 * `denied`, disabled in this workspace, `refused`: too large to fingerprint for consent).
 */
export type Availability = 'available' | 'disabled' | 'shadowed' | 'theme-only' | 'blocked' | 'consent' | 'denied' | 'workspace-disabled' | 'refused';

/**
 * A lifecycle with no failure to tell: it may still carry the last one's message (restarting after a crash, held
 * back after a failure, refused).
 */
export type Quiet = Exclude<Lifecycle, 'crashed' | 'error'>;

/**
 * Its state at one moment, one union per lifecycle (after VS Code's `McpConnectionState`): a failed one carries its
 * message, and an `error` from an unusable manifest (discovery's or a re-read's) says so: nothing starts until the
 * manifest is read again. The one source of its availability and its error.
 */
export type SupervisorState =
  | { readonly lifecycle: Quiet; readonly availability: Availability; readonly message?: string }
  | { readonly lifecycle: 'crashed'; readonly availability: Availability; readonly message: string }
  | { readonly lifecycle: 'error'; readonly availability: Availability; readonly message: string; readonly unusable?: true };

/** Availabilities discovery decides: no gate lifts them (`disabled` is the manifest's: a re-read may change it). */
export const HELD_BY_DISCOVERY: ReadonlySet<Availability> = new Set<Availability>(['disabled', 'shadowed', 'theme-only']);

/** An `error` from a manifest that cannot be used: nothing starts until it is read again. */
export function isUnusable(s: SupervisorState): boolean {
  return s.lifecycle === 'error' && s.unusable === true;
}

/**
 * `s` moved to a lifecycle without a failure, or to an availability (a failed one keeps its failure). `message`
 * replaces the message kept (omitted: kept).
 */
export function moved(s: SupervisorState, to: Quiet | Availability, message?: { message: string | undefined }): SupervisorState {
  const kept = message ? message.message : s.message;
  const quiet = (lifecycle: Quiet, availability: Availability): SupervisorState => ({ lifecycle, availability, ...(kept !== undefined && { message: kept }) });
  if (isLifecycle(to)) return quiet(to, s.availability);
  return s.lifecycle === 'crashed' || s.lifecycle === 'error' ? { ...s, availability: to } : quiet(s.lifecycle, to);
}

/** `s` failed: `crashed`, or `error` (`unusable`: its manifest cannot be used), with its message. */
export function failed(s: SupervisorState, to: 'crashed' | 'error', message: string, unusable?: true): SupervisorState {
  return to === 'error' ? { lifecycle: to, availability: s.availability, message, ...(unusable && { unusable }) } : { lifecycle: to, availability: s.availability, message };
}

/** The gate an availability shows, if it is one. */
export function gateOf(a: Availability): Gate | undefined {
  return a === 'consent' || a === 'denied' || a === 'workspace-disabled' || a === 'refused' ? a : undefined;
}

/** The state a discovered extension starts in (`error`: its manifest is unusable; the supervisor shows `blocked` over it). */
export function initialState(disc: Pick<DiscoveredExtension, 'status' | 'error'>): SupervisorState {
  if (disc.status === 'error') return { lifecycle: 'error', availability: 'available', message: disc.error ?? '', unusable: true };
  return { lifecycle: 'stopped', availability: disc.status === 'enabled' ? 'available' : disc.status };
}

/** One transition (the supervisor's `onDidChangeState`, after the LSP client's `{ oldState, newState }`). */
export interface StateChange {
  ext: string;
  old: SupervisorState;
  new: SupervisorState;
  /** Why, in a few words (for logs and tests). */
  reason: string;
}

const LIFECYCLES: ReadonlySet<string> = new Set<Lifecycle>(['stopped', 'starting', 'restarting', 'running', 'crashed', 'error']);

/** Whether a transition target is a lifecycle (else an availability; the two sets share no value). */
function isLifecycle(to: Lifecycle | Availability): to is Lifecycle {
  return LIFECYCLES.has(to);
}

/** The availability a gate gives an extension discovery lets run. */
export function gateAvailability(gate: Gate | undefined): Availability {
  return gate === undefined ? 'available' : gate;
}

/**
 * The one state shown: a process there or coming (or just crashed) first, then a failure, then what holds it back,
 * else `stopped`. `workspace-disabled` shows as `disabled` (ExtensionInfo.disabledInWorkspace tells them apart),
 * `refused` as `error` (its error says why).
 */
export function displayState(s: Pick<SupervisorState, 'lifecycle' | 'availability'>): ExtensionState {
  if (s.lifecycle !== 'stopped') return s.lifecycle;
  if (s.availability === 'available') return 'stopped';
  if (s.availability === 'refused') return 'error';
  return s.availability === 'workspace-disabled' ? 'disabled' : s.availability;
}

/** The restart policy as data. */
export interface RestartPolicy {
  /** Give up at this many crashes within `windowMs`. */
  maxCrashes: number;
  windowMs: number;
}
export const DEFAULT_RESTART_POLICY: RestartPolicy = { maxCrashes: RESTART_MAX_CRASHES, windowMs: RESTART_WINDOW_MS };
