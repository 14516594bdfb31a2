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
  /** `why` after several names ("a and b are still starting"). */
  whyOfMany: string;
  /** It cannot come back by itself (given up, failed, crashed with no restart): no use waiting. */
  final: boolean;
  /** It stands for several extensions (a load that has not found them yet): "their guards". */
  several?: boolean;
}

/** Why a guard could not be asked: the words after one name, and after several. */
const WHY = {
  consent: ['waits for your consent to its new content', 'wait for your consent to their new content'],
  starting: ['is still starting', 'are still starting'],
  restarting: ['is restarting', 'are restarting'],
  exited: ['has exited', 'have exited'],
  unsubscribed: ['has not subscribed to tool_call yet', 'have not subscribed to tool_call yet'],
  unregistered: ['has not finished registering (no ready yet)', 'have not finished registering (no ready yet)'],
  crashedRestarting: ['crashed and is restarting', 'crashed and are restarting'],
  crashed: ['crashed', 'crashed'],
  gaveUp: ['gave up restarting after crashing repeatedly', 'gave up restarting after crashing repeatedly'],
  failed: ['failed to start', 'failed to start'],
  stopped: ['is stopped (not by the user)', 'are stopped (not by the user)'],
} as const satisfies Record<string, readonly [string, string]>;

const guardAbsent = (ext: string, why: keyof typeof WHY, final: boolean): AbsentGuard => ({ ext, why: WHY[why][0], whyOfMany: WHY[why][1], final });

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
    if (s.availability === 'consent' && known) out.push(guardAbsent(s.name, 'consent', true));
    // The user's explicit acts (and what discovery or trust holds back): never waited for.
    if (s.availability !== 'available') continue;
    const add = (why: keyof typeof WHY, final = false) => out.push(guardAbsent(s.name, why, final));
    switch (s.lifecycle) {
      case 'starting':
        if (strict || known) add('starting');
        break;
      case 'restarting':
        if (strict || known) add('restarting');
        break;
      case 'running': {
        if (!s.live) {
          if (known) add('exited');
          break;
        }
        if (s.conn?.readyMode === 'ready') break; // its registrations are complete: it does not guard
        if (now - (s.runningSince ?? now) >= REGISTRATION_PATIENCE_MS) break; // taken for one that does not guard
        if (known) add('unsubscribed');
        else if (strict && !(k?.kind === 'not' && k.stamp === stampOf(s))) add('unregistered');
        break;
      }
      case 'crashed':
        if (known) add(c.autoRestart ? 'crashedRestarting' : 'crashed', !c.autoRestart);
        break;
      case 'error':
        if (known) add(s.error?.includes('not restarting') ? 'gaveUp' : 'failed', true);
        break;
      case 'stopped':
        if (known) add('stopped');
        break;
    }
  }
  // A load that has not found its extensions yet: any of them may be a guard.
  if (strict && out.length === 0 && c.loadingUnseen) out.push({ ext: 'zut', why: 'is still loading its extensions', whyOfMany: 'are still loading their extensions', final: false, several: true });
  return out;
}

/**
 * The denial's reason for `absent` (`late`: the deadline came; else some cannot come back): the names grouped by why,
 * each group worded for one or several ("a and b are still starting; c is restarting: their guards could not be asked
 * in time"), then what it means for the call.
 */
export function absentReason(absent: readonly AbsentGuard[], late: boolean): string {
  const byWhy = new Map<string, AbsentGuard[]>();
  for (const a of absent) byWhy.set(a.why, [...(byWhy.get(a.why) ?? []), a]);
  const what = [...byWhy.values()].map((g) => (g.length === 1 ? `${g[0].ext} ${g[0].why}` : `${andList(g.map((a) => a.ext))} ${g[0].whyOfMany}`)).join('; ');
  const many = absent.length > 1 || absent.some((a) => a.several === true);
  if (late) return `${what}: ${many ? 'their guards' : 'its guard'} could not be asked in time`;
  return `${what}: ${many ? 'their guards' : 'its guard'} cannot judge this call (restart ${many ? 'them' : 'it'}, or stop, disable or remove ${many ? 'them' : 'it'} to run without)`;
}

/** "a", "a and b", "a, b and c". */
const andList = (names: readonly string[]): string => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

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
