/**
 * `zut-host hook`'s fast path: ask the running window for this folder (rendezvous.ts) over its local socket, sending
 * the agent's raw input; undefined when no window answers (no rendezvous, a stale one, a refused token), and the
 * caller starts a headless host instead. VS Code-free.
 */
import * as net from 'node:net';
import * as z from 'zod';
import type { HookAnswer, HookCall } from './answer';
import { findRendezvous } from './rendezvous';

const Answer = z.object({ stdout: z.string(), stderr: z.string().optional(), exitCode: z.number().int() });

/** The running host's answer for `raw` (exitCode -1: the input was refused there; apply the agent's failure rule). */
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
      try {
        resolve(Answer.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        resolve(undefined);
      }
    });
  });
}
