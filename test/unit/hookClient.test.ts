/**
 * What the per-tool-call client (src/hooks/client.ts `askHost`) takes for a host's answer: an exit code an agent
 * reads. A reply with a negative exit code (the −1 hosts sent for their own failures before 48626a5) is no answer —
 * the hook asks the next host or answers itself — never an exit status that an agent would read as "run the tool".
 */
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askHost } from '../../src/hooks/client';
import type { HookCall } from '../../src/hooks/names';
import type { Rendezvous } from '../../src/hooks/rendezvous';
import { cleanupTemps, tempDir } from '../helpers/temp';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  cleanupTemps();
});

/** A host on a local socket that answers every request with `reply` (as one JSON line) and closes. */
async function fakeHost(reply: unknown): Promise<{ file: string; r: Rendezvous }> {
  const dir = tempDir('zut-client-');
  const address = path.join(dir, 'h.sock');
  const server = net.createServer((s) => s.once('data', () => s.end(JSON.stringify(reply) + '\n')));
  servers.push(server);
  await new Promise<void>((r) => server.listen(address, r));
  return { file: path.join(dir, 'h.json'), r: { kind: 'window', address, token: 't', pid: process.pid, folder: dir } };
}

const call: HookCall = { agent: 'claude', event: 'PreToolUse', camel: false };
const ask = async (reply: unknown) => {
  const { file, r } = await fakeHost(reply);
  return askHost(file, r, call, '{}', Date.now() + 5_000);
};

describe("the client's reading of a host's answer", () => {
  it('an answer with an exit code of 0 or more is the answer', async () => {
    expect(await ask({ stdout: '{"x":1}', exitCode: 0 })).toEqual({ stdout: '{"x":1}', exitCode: 0 });
    expect(await ask({ stdout: '', stderr: 'denied\n', exitCode: 2 })).toEqual({ stdout: '', stderr: 'denied\n', exitCode: 2 });
  });

  it('a negative exit code, or a reply that is not an answer, is unreachable (the caller answers another way)', async () => {
    expect(await ask({ stdout: '', stderr: 'zut-host hook: malformed\n', exitCode: -1 })).toBe('unreachable');
    expect(await ask({ stdout: '', exitCode: 1.5 })).toBe('unreachable');
    expect(await ask([{ stdout: '', exitCode: 0 }])).toBe('unreachable');
  });
});
