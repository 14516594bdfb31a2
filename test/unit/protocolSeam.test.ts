/**
 * The protocol seam (src/host/protocols/types.ts) carries a protocol unlike zut's: the HOST speaks first (an
 * `initialize` request), the reply is the registration (no registration window), requests are correlated by
 * JSON-RPC numeric ids, the extension sends one-way messages of its own (`tool.update`) and asks the host things.
 * A minimal JSON-RPC protocol written here, against a REAL child process, through the real Connection.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/host/connection/connection';
import type { ExtMessage, ExtNotice, ExtensionProtocol, HostRequest, ProtocolFamily, ReplyMap } from '../../src/host/protocols';
import { RequestError } from '../../src/host/types';
import { cleanupTemps, tempDir, until } from '../helpers/hostFixtures';

/** The child: answers `initialize` with a manifest, `tool_call` with a `tool.update` then a result, and asks the host once. */
const CHILD = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') out({ id: m.id, result: { name: 'rpc', tools: [{ name: 'greet', description: 'say hi' }] } });
  else if (m.method === 'tool_call' && m.params.name === 'greet') {
    out({ method: 'tool.update', params: { id: m.id, chunk: 'working' } });
    out({ id: 'q1', method: 'ui.confirm', params: { title: 'ok?' } });
    out({ id: m.id, result: { content: 'hi ' + m.params.arguments.who } });
  } else if (m.method === 'tool_call') out({ id: m.id, error: 'no such tool' });
  else if (m.id === 'q1') out({ method: 'notify', params: { message: 'answer ' + JSON.stringify(m.result) } });
  else if (m.method === 'shutdown') process.exit(0);
});`;

class RpcProtocol implements ExtensionProtocol {
  readonly name = 'e' as const;
  readonly interceptable: ReadonlySet<string> = new Set();
  private seq = 1; // 1 was `initialize`
  decode(line: string): ExtMessage {
    const m = JSON.parse(line) as { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: string };
    if (m.method === 'notify') return { kind: 'notice', notice: { type: 'notify', message: String(m.params?.message) } };
    if (m.method && m.id !== undefined) return { kind: 'request', id: m.id, method: m.method, params: m.params };
    if (m.method === 'tool.update') return { kind: 'progress', id: String(m.params?.id), text: String(m.params?.chunk) };
    if (m.method) return { kind: 'diagnostic', message: `${m.method} ignored` };
    return { kind: 'reply', id: String(m.id), body: m };
  }
  nextId(): string {
    return String(++this.seq);
  }
  encodeRequest(id: string, r: HostRequest): string {
    if (r.kind !== 'tool') throw new Error('only tools here');
    return JSON.stringify({ id: Number(id), method: 'tool_call', params: { name: r.name, arguments: r.args } }) + '\n';
  }
  decodeReply<K extends HostRequest['kind']>(_kind: K, body: unknown): ReplyMap[K] {
    const b = body as { result?: { content: string }; error?: string };
    if (b.error !== undefined) throw new RequestError('protocol', b.error);
    return { content: [{ type: 'text', text: b.result!.content }] } as ReplyMap[K];
  }
  encodeNotice(n: Parameters<ExtensionProtocol['encodeNotice']>[0]): string | undefined {
    return n.kind === 'shutdown' ? '{"method":"shutdown"}\n' : undefined;
  }
  encodeResponse(id: string | number, r: Parameters<ExtensionProtocol['encodeResponse']>[1]): string {
    return JSON.stringify(r.kind === 'result' ? { id, result: r.value } : { id, error: r.kind === 'error' ? r.message : 'unsupported' }) + '\n';
  }
  summarize(line: string): string {
    return line.slice(0, 40);
  }
}

const rpcFamily: ProtocolFamily = {
  name: 'rpc',
  handshake: (ctx) => ({
    opening: [JSON.stringify({ id: 1, method: 'initialize', params: { cwd: ctx.hostInfo().cwd } }) + '\n'],
    awaiting: { timeout: 'no initialize reply', exit: 'initialize' },
    onLine(line) {
      const m = JSON.parse(line) as { id?: number; result?: { name: string; tools: { name: string; description: string }[] } };
      if (m.id !== 1 || !m.result) return { kind: 'wait' };
      if (m.result.name !== ctx.name) return { kind: 'fail', message: `manifest name "${m.result.name}" is not "${ctx.name}"` };
      const messages: ExtMessage[] = m.result.tools.map((t) => ({ kind: 'notice', notice: { type: 'register_tool', name: t.name, description: t.description } }));
      return { kind: 'done', protocol: new RpcProtocol(), hello: { protocol: 'e', protocolVersion: 1, name: m.result.name, capabilities: [] }, send: [], messages, registration: 'complete' };
    },
  }),
};

const conns: Connection[] = [];
afterEach(async () => {
  await Promise.all(conns.splice(0).map((c) => c.stop()));
  cleanupTemps();
});

describe('the protocol seam with a host-speaks-first JSON-RPC protocol', () => {
  it('initialize → manifest registers at once; ids correlate; progress, requests and notices reach the host', async () => {
    const dir = tempDir('zut-seam-');
    const notices: ExtNotice[] = [];
    const progress: string[] = [];
    const c = new Connection({
      name: 'rpc', dir, exec: process.execPath, args: ['-e', CHILD], logPath: path.join(dir, 'rpc.log'), family: rpcFamily,
      hostInfo: () => ({ hostVersion: '1', provider: 'p', model: 'm', cwd: dir, extensionDir: dir, dataDir: dir }),
      onNotice: (n) => notices.push(n),
      onRequest: (id, method, params) => void c.respond(id, { kind: 'result', value: { method, confirmed: (params as { title: string }).title === 'ok?' } }),
      onDiagnostic: () => undefined,
      onStderr: () => undefined,
    });
    conns.push(c);
    await c.start();
    expect(c.readyMode).toBe('ready');
    expect(c.hello).toMatchObject({ protocol: 'e', name: 'rpc' });
    expect(notices).toEqual([{ type: 'register_tool', name: 'greet', description: 'say hi' }]);

    const reply = await c.request({ kind: 'tool', name: 'greet', args: { who: 'Ada' } }, { what: 'tool greet', timeoutMs: 5000, onProgress: (t) => progress.push(t) });
    expect(reply.content).toEqual([{ type: 'text', text: 'hi Ada' }]);
    expect(progress).toEqual(['working']); // the protocol's own one-way message, correlated with the running request
    await expect(c.request({ kind: 'tool', name: 'nope', args: {} }, { what: 'tool nope', timeoutMs: 5000 })).rejects.toThrow('no such tool');
    await until(() => notices.length > 1, 5000, 'the notify answering ui.confirm');
    expect(notices[1]).toEqual({ type: 'notify', message: 'answer {"method":"ui.confirm","confirmed":true}' });
  });
});
