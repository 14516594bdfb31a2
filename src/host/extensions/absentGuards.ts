/**
 * The guards that could not be asked right now: the rule the guard door (calls/toolGuard.ts) enforces so that a
 * guard the host knows is never "no opinion". An extension that intercepted `tool_call` (now or before: guardMemory.ts)
 * and is not a live interceptor at this moment — starting, restarting, stopped for a restart, crashed, given up,
 * not yet subscribed — is absent; so is, for an agent's PreToolUse (`strict`), any extension still starting and any
 * whose registration did not end with `ready` within REGISTRATION_PATIENCE_MS of its start (it may be a guard loading
 * its rules). A call waits for an absent guard until its deadline, or at once is denied naming it when it cannot come
 * back (`final`: given up, failed to start, crashed with no restart). Only the user's explicit act ends that: Stop,
 * disable (manifest, workspace), remove, a consent denied, or an untrusted workspace — those extensions are never
 * waited for. This also learns what it sees (a `ready` without intercepting, a patience spent: not a guard).
 * VS Code-free.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REGISTRATION_PATIENCE_MS } from '../../protocol/limits';
import { GuardMemory } from './guardMemory';
import type { ExtensionSupervisor } from './supervisor';

/** A guard that could not be asked now, and why, in words that follow its name. */
export interface AbsentGuard {
  ext: string;
  why: string;
  /** It cannot come back by itself (given up, failed, crashed with no restart): no use waiting. */
  final: boolean;
}

/** What the rule reads of the host besides the extensions. */
export interface AbsentContext {
  memory: GuardMemory;
  /** A crashed extension is started again (the Manager's `autoRestart`). */
  autoRestart: boolean;
  /** A start or reload is under way and has not found its extensions yet. */
  loadingUnseen: boolean;
}

const keyOf = (s: ExtensionSupervisor): string => GuardMemory.keyOf(s.name, s.disc.dir);

/** Learns from the extensions' states now (the Manager calls it on every change, and the door before each look). */
export function learnGuards(sups: readonly ExtensionSupervisor[], memory: GuardMemory, now = Date.now()): void {
  for (const s of sups) {
    if (!s.live) continue;
    if (s.intercepts.has('tool_call')) memory.learn(keyOf(s), { kind: 'guard' });
    else if (s.conn?.readyMode === 'ready' || now - (s.runningSince ?? now) >= REGISTRATION_PATIENCE_MS) memory.learn(keyOf(s), { kind: 'not', stamp: stampOf(s) });
  }
}

/** The guards that could not be asked now (`strict`: an agent's PreToolUse; else only guards the host knows). */
export function absentGuards(sups: readonly ExtensionSupervisor[], strict: boolean, c: AbsentContext, now = Date.now()): AbsentGuard[] {
  learnGuards(sups, c.memory, now);
  const out: AbsentGuard[] = [];
  for (const s of sups) {
    if (s.heldByUser || (s.live && s.intercepts.has('tool_call'))) continue; // the user stopped it; or it is asked
    const k = c.memory.get(keyOf(s));
    const known = k?.kind === 'guard';
    // A guard whose new content waits for the user's consent cannot run until they answer: it cannot judge now.
    if (s.availability === 'consent' && known) out.push({ ext: s.name, why: 'waits for your consent to its new content', final: true });
    // The user's explicit acts (and what discovery or trust holds back): never waited for.
    if (s.availability !== 'available') continue;
    const add = (why: string, final = false) => out.push({ ext: s.name, why, final });
    switch (s.lifecycle) {
      case 'starting':
        if (strict || known) add('is still starting');
        break;
      case 'restarting':
        if (strict || known) add('is restarting');
        break;
      case 'running': {
        if (!s.live) {
          if (known) add('has exited');
          break;
        }
        if (s.conn?.readyMode === 'ready') break; // its registrations are complete: it does not guard
        if (now - (s.runningSince ?? now) >= REGISTRATION_PATIENCE_MS) break; // taken for one that does not guard
        if (known) add('has not subscribed to tool_call yet');
        else if (strict && !(k?.kind === 'not' && k.stamp === stampOf(s))) add('has not finished registering (no ready yet)');
        break;
      }
      case 'crashed':
        if (known) add(c.autoRestart ? 'crashed and is restarting' : 'crashed', !c.autoRestart);
        break;
      case 'error':
        if (known) add(s.error?.includes('not restarting') ? 'gave up restarting after crashing repeatedly' : 'failed to start', true);
        break;
      case 'stopped':
        if (known) add('is stopped (not by the user)');
        break;
    }
  }
  // A load that has not found its extensions yet: any of them may be a guard.
  if (strict && out.length === 0 && c.loadingUnseen) out.push({ ext: 'zut', why: 'is still loading its extensions', final: false });
  return out;
}

/** The denial's reason for `absent` (`late`: the deadline came; else some cannot come back). */
export function absentReason(absent: readonly AbsentGuard[], late: boolean): string {
  const what = absent.map((a) => `${a.ext} ${a.why}`).join('; ');
  if (late) return `${what}: ${absent.length > 1 ? 'their' : 'its'} guards could not be asked in time`;
  return `${what}: ${absent.length > 1 ? 'their guards' : 'its guard'} cannot judge this call (restart ${absent.length > 1 ? 'them' : 'it'}, or stop, disable or remove ${absent.length > 1 ? 'them' : 'it'} to run without)`;
}

/** The content's stamp: its manifest's and executable's size and time, taken once per spawn. */
const stamps = new WeakMap<ExtensionSupervisor, { at: number | undefined; stamp: string }>();
function stampOf(s: ExtensionSupervisor): string {
  const had = stamps.get(s);
  if (had && had.at === s.spawnedAt) return had.stamp;
  const one = (f: string | undefined) => {
    if (!f) return '-';
    try {
      const st = fs.statSync(f);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return '?';
    }
  };
  const exec = s.manifest?.exec;
  const stamp = `${one(s.disc.manifestPath)}/${one(exec && (exec.startsWith('.') || exec.includes(path.sep)) ? path.resolve(s.disc.dir, exec) : undefined)}`;
  stamps.set(s, { at: s.spawnedAt, stamp });
  return stamp;
}
