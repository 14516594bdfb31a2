/**
 * `zut-host hook`'s way to a host that is already running: a window for the input's folder (rendezvous.ts; a window
 * always wins), else the warm headless host for that folder and options. The agent's raw input goes over the local
 * socket with the time left of the hook's budget, and one answer line comes back. Every wait has the deadline of the
 * hook (HOOK_BUDGET_MS from its start): a host that accepts and does not answer in time gets a PreToolUse denied in
 * zut's name (never left to the agent's own timeout, which lets the tool run) and any other event the agent's
 * failure rule. Undefined when no host could be reached (no file, an untrusted or stale one, a refused token): the
 * caller starts the warm host or runs one itself. Also whether a rendezvous's writer still runs (hostState), which
 * `hook host status`/`stop` ask before listing or signalling a pid. Checked by hand, not with zod (the light entry
 * src/hook.ts uses this on every agent tool call). VS Code-free.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { isObject } from '../protocol/json';
import { HOOK_ANSWER_MARGIN_MS, HOOK_HOST_PROBE_MS } from '../protocol/limits';
import { lateAnswer } from './failure';
import type { HookAnswer, HookCall } from './names';
import { findWindows, readRendezvous, sameProcess, type Rendezvous } from './rendezvous';

/**
 * The answer in `json`, if it is one: an exit code an agent reads (0 or more). A host answers its own failures in the
 * agent's terms (server.ts: hookFailure); the −1 hosts sent for that before 0.1.0 (a0736e9 to 48626a5, never
 * released) is no answer here, so the call is answered by the next host or by this process, never exits with it.
 */
function asAnswer(json: unknown): HookAnswer | undefined {
  if (!isObject(json)) return undefined;
  const a = json;
  if (typeof a.stdout !== 'string' || !Number.isInteger(a.exitCode) || (a.exitCode as number) < 0 || (a.stderr !== undefined && typeof a.stderr !== 'string')) return undefined;
  return { stdout: a.stdout, exitCode: a.exitCode as number, ...(a.stderr !== undefined && { stderr: a.stderr as string }) };
}

/**
 * `r`'s answer for `raw` by `deadline` (ms since epoch): the answer; `unreachable` (nobody listens, the token was
 * refused, the answer was not one); `late` (connected, no answer in time). A stale file (its writer gone) is removed.
 */
export function askHost(file: string, r: Rendezvous, call: HookCall, raw: string, deadline: number): Promise<HookAnswer | 'unreachable' | 'late'> {
  return new Promise((resolve) => {
    const s = net.connect(r.address);
    const chunks: Buffer[] = [];
    let connected = false;
    const timer = setTimeout(() => {
      s.destroy();
      resolve(connected ? 'late' : 'unreachable');
    }, Math.max(0, deadline - Date.now()));
    s.on('connect', () => {
      connected = true;
      const budgetMs = Math.max(0, deadline - Date.now() - HOOK_ANSWER_MARGIN_MS);
      s.write(JSON.stringify({ token: r.token, agent: call.agent, event: call.event, camel: call.camel, budgetMs, input: raw }) + '\n');
    });
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('error', () => {
      if (!connected && sameProcess(r) === false) removeStale(file, r);
    });
    s.on('close', () => {
      clearTimeout(timer);
      let answer: HookAnswer | undefined;
      try {
        answer = asAnswer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        answer = undefined;
      }
      resolve(answer ?? 'unreachable');
    });
  });
}

/**
 * The answer of the first host that answers: the windows for `cwd` (newest first), then the warm host in `warm` (its
 * rendezvous file). A host reached but late answers for all (the budget is spent). Undefined when none was reached.
 */
export async function askRunningHost(cwd: string, call: HookCall, raw: string, o: { deadline: number; budgetMs: number; warm?: string }): Promise<HookAnswer | undefined> {
  const candidates: { file: string; r: Rendezvous; who: string }[] = findWindows(cwd).map((w) => ({ ...w, who: `the zut-vscode window (pid ${w.r.pid})` }));
  const warm = o.warm ? readRendezvous(o.warm) : undefined;
  if (o.warm && warm) candidates.push({ file: o.warm, r: warm, who: `the warm hook host (pid ${warm.pid})` });
  for (const c of candidates) {
    const a = await askHost(c.file, c.r, call, raw, o.deadline);
    if (a === 'late') return lateAnswer(call, c.who, o.budgetMs);
    if (a !== 'unreachable') return a;
  }
  return undefined;
}

/**
 * A rendezvous whose writer is gone: its file (unless rewritten meanwhile by another listener: its token), and its
 * socket when that lies beside it.
 */
export function removeStale(file: string, r: Rendezvous): void {
  if (readRendezvous(file)?.token === r.token) fs.rmSync(file, { force: true });
  if (process.platform !== 'win32' && path.dirname(r.address) === path.dirname(file)) fs.rmSync(r.address, { force: true });
}

/**
 * Whether `r`'s writer still runs as `r.pid`: `ours` (its start identity matches, or something listens on its
 * address — only its writer can: a fresh random name in the private directory, or pipe), `stale` (the pid is gone,
 * another process now, or nobody listens: never to be signalled), `unknown` (the probe got no word within
 * HOOK_HOST_PROBE_MS: neither signalled nor removed).
 */
export async function hostState(r: Rendezvous, probeMs = HOOK_HOST_PROBE_MS): Promise<'ours' | 'stale' | 'unknown'> {
  const same = sameProcess(r);
  if (same !== undefined) return same ? 'ours' : 'stale';
  return new Promise((resolve) => {
    const s = net.connect(r.address);
    const done = (state: 'ours' | 'stale' | 'unknown') => {
      clearTimeout(timer);
      s.destroy();
      resolve(state);
    };
    const timer = setTimeout(() => done('unknown'), probeMs);
    // Connected and closed at once without a line: the host drops it (server.ts), no request, no idle refresh.
    s.on('connect', () => done('ours'));
    s.on('error', () => done('stale'));
  });
}
