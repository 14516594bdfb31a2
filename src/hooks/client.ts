/**
 * `zut-host hook`'s fast path: ask the running window for this folder (rendezvous.ts) over its local socket, sending
 * the agent's raw input; undefined when no window answers (no rendezvous, a stale one, a refused token), and the
 * caller starts a headless host instead. The answer line is checked by hand, not with zod (the light entry
 * src/hook.ts uses this on every agent tool call; zod would be most of its start-up time). VS Code-free.
 */
import * as net from 'node:net';
import { hookFailure } from './failure';
import type { HookAnswer, HookCall } from './names';
import { findRendezvous } from './rendezvous';

/** The answer in `json`, if it is one. */
function asAnswer(json: unknown): HookAnswer | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const a = json as Record<string, unknown>;
  if (typeof a.stdout !== 'string' || !Number.isInteger(a.exitCode) || (a.stderr !== undefined && typeof a.stderr !== 'string')) return undefined;
  return { stdout: a.stdout, exitCode: a.exitCode as number, ...(a.stderr !== undefined && { stderr: a.stderr as string }) };
}

/**
 * The running host's answer for `raw`; one the host refused (exitCode -1: malformed input, or its own failure)
 * becomes the agent's failure answer (failure.ts).
 */
export function askRunningHost(cwd: string, call: HookCall, raw: string): Promise<HookAnswer | undefined> {
  const r = findRendezvous(cwd);
  if (!r) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const s = net.connect(r.address);
    const chunks: Buffer[] = [];
    s.on('connect', () => s.write(JSON.stringify({ token: r.token, agent: call.agent, event: call.event, camel: call.camel, input: raw }) + '\n'));
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('error', () => resolve(undefined));
    s.on('close', () => {
      let answer: HookAnswer | undefined;
      try {
        answer = asAnswer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        answer = undefined;
      }
      if (answer?.exitCode === -1) answer = hookFailure(call, (answer.stderr ?? '').replace(/^zut-host hook: /, '').trim());
      resolve(answer);
    });
  });
}
