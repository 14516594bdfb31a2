/**
 * Hostile repositories and extensions against the bounds of issue 20 (real files, real child processes): manifests
 * that are `/dev/zero`, a FIFO, a symlink out of the folder or too large are refused before they are read whole;
 * byte caps per field and per extension; a call burst against a one-at-a-time extension; progress floods to a
 * slow MCP client; relay handshakes. Each case prints one "[hostile]" line with what the host did.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ManagerOptions } from '../../src/host/api';
import { RelayServer } from '../../src/mcp/relayServer';
import { Emitter } from '../../src/host/events';
import { NullHostUi, type NoteLevel } from '../../src/host/hostUi';
import type { Manager } from '../../src/host/manager';
import type { ExtensionProgress } from '../../src/mcp/server';
import type { PanelSpec } from '../../src/protocol';
import type { WidgetSpec } from '../../src/host/hostUi';
import {
  MAX_DESCRIPTION_BYTES,
  MAX_DIAGNOSTIC_BYTES,
  MAX_DIAGNOSTICS_PER_EXT,
  MAX_MANIFEST_BYTES,
  MAX_NOTE_BYTES,
  MAX_PANEL_BYTES,
  MAX_PANELS_PER_EXT,
  MAX_REQUESTS_IN_FLIGHT,
  MAX_STATUS_TEXT_BYTES,
  MAX_WIDGET_BYTES,
  MCP_PROGRESS_MAX_CHARS,
  RELAY_HANDSHAKE_MAX_BYTES,
} from '../../src/protocol/limits';
import { builtCli } from '../helpers/built';
import { isolatedEnv } from '../helpers/runProcess';
import { cleanupTemps, managerFixture, shExt, stopManagers, tempDir, until, writeExt } from '../helpers/hostFixtures';
import { onJsonLines } from '../helpers/stdioDriver';

const HOSTILE = path.resolve(__dirname, '../fixtures/hostile');
/** Requests held back (unwritten) by every running extension of `m`, summed. */
const heldOf = (m: Manager): number => m.extensions().reduce((n, e) => n + (e.held ?? 0), 0);

const servers: RelayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.dispose()));
  await stopManagers();
  cleanupTemps();
});

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const figure = (line: string): void => console.log(`[hostile] ${line}`);

function setup(opts: Partial<ManagerOptions> = {}) {
  const s = managerFixture({ hostVersion: '1.0.0', autoRestart: false, ...opts }, 'zut-bounds-');
  return { ...s, m: s.make() };
}

describe('hostile: manifests are read bounded (point 4)', () => {
  it('an untrusted workspace whose manifests are /dev/zero, a FIFO, a link out of the folder or 300 KiB: each refused, nothing read whole', async () => {
    const s = setup({ isTrusted: () => false });
    const dirOf = (name: string) => {
      const d = path.join(s.projectExts, name);
      fs.mkdirSync(d, { recursive: true });
      return d;
    };
    fs.symlinkSync('/dev/zero', path.join(dirOf('zero'), 'extension.json'));
    execFileSync('mkfifo', [path.join(dirOf('fifo'), 'extension.json')]);
    const outside = path.join(tempDir('zut-elsewhere-'), 'secret.json');
    fs.writeFileSync(outside, JSON.stringify({ name: 'elsewhere', exec: 'node' }));
    fs.symlinkSync(outside, path.join(dirOf('outside'), 'extension.json'));
    fs.writeFileSync(path.join(dirOf('big'), 'extension.json'), JSON.stringify({ name: 'big', exec: 'node', description: 'x'.repeat(MAX_MANIFEST_BYTES) }));
    // A link that stays inside the folder is still a manifest.
    fs.writeFileSync(path.join(dirOf('inside'), 'real.json'), JSON.stringify({ name: 'inside', exec: 'node' }));
    fs.symlinkSync('real.json', path.join(s.projectExts, 'inside', 'extension.json'));
    shExt(s.projectExts, 'plain');

    const rss0 = process.memoryUsage().rss;
    const t0 = Date.now();
    await s.m.start();
    const ms = Date.now() - t0;
    const rss1 = process.memoryUsage().rss;
    const by = (dir: string) => s.m.extensions().find((e) => path.basename(e.dir) === dir)!;
    expect(by('zero').state).toBe('error');
    expect(by('zero').error).toMatch(/not a regular file|outside/);
    expect(by('fifo').error).toMatch(/not a regular file/);
    expect(by('outside').error).toMatch(/outside .*refused/);
    expect(by('big').error).toMatch(new RegExp(`larger than ${MAX_MANIFEST_BYTES} bytes`));
    expect(by('inside').name).toBe('inside');
    expect(by('inside').state).toBe('blocked');
    expect(by('plain').state).toBe('blocked');
    expect(rss1 - rss0).toBeLessThan(64 * 1024 * 1024);
    figure(`manifests → /dev/zero, FIFO, link outside, ${MAX_MANIFEST_BYTES + 1}+ bytes: 4 refused, discovery ${ms} ms, host RSS ${mib(rss0)} → ${mib(rss1)}`);
  }, 30_000);
});

describe('hostile: relay handshakes (point 16)', () => {
  async function relayServer() {
    const s = setup();
    await s.m.start();
    const server = await RelayServer.listen({ host: s.m, serverVersion: 't', origin: 'agent' });
    servers.push(server);
    return server;
  }
  /** A raw connection to the relay socket: what it was told and whether it was closed. */
  function connect(address: string) {
    const socket = net.createConnection(address);
    let got = '';
    let closed = false;
    socket.on('data', (d: Buffer) => (got += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    return { socket, reply: () => got, closed: () => closed };
  }
  const hello = (token: string) => JSON.stringify({ token }) + '\n' + JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) + '\n';

  it('a token admits one relay: a second connection with the same token is refused, the first keeps working', async () => {
    const server = await relayServer();
    const token = server.issueToken();
    const one = connect(server.address);
    one.socket.write(hello(token));
    await until(() => one.reply().includes('"id":1'), 5_000, 'the first relay answered');
    const two = connect(server.address);
    two.socket.write(hello(token));
    await until(() => two.closed(), 5_000, 'the second relay closed');
    expect(two.reply()).toContain('"zut_relay":"refused"');
    expect(two.reply()).not.toContain('"id":1');
    expect(server.connectionCount).toBe(1);
    one.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    await until(() => one.reply().includes('"id":2'), 5_000, 'the first relay still served');
    one.socket.destroy();
    figure('relay token reused by a second connection: refused; the first relay still served');
  });

  it('an unauthenticated peer sending a first line over 4 KiB is closed at once (not after the 5 s handshake timeout)', async () => {
    const server = await relayServer();
    server.issueToken();
    const c = connect(server.address);
    const t0 = Date.now();
    c.socket.write('{"token":"' + 'a'.repeat(RELAY_HANDSHAKE_MAX_BYTES) + '"}');
    await until(() => c.closed(), 2_000, 'the socket closed');
    expect(c.reply()).toBe('');
    figure(`relay handshake line of ${RELAY_HANDSHAKE_MAX_BYTES + 12} bytes without a newline: closed after ${Date.now() - t0} ms`);
  });
});

describe('careless: a burst of calls (point 11)', () => {
  it('1,500 concurrent calls to a one-at-a-time extension: all answered in order of arrival, it stays connected; the rest waited in the host', async () => {
    const s = setup();
    writeExt(s.exts, 'serial', { name: 'serial', exec: 'python3', args: [path.join(HOSTILE, 'one_at_a_time.py'), '2'] });
    await s.m.start();
    expect(s.m.extensions().find((e) => e.name === 'serial')!.state).toBe('running');
    const session = { id: 'burst' };
    const t0 = Date.now();
    // 1 KiB of arguments each: 1.5 MiB in all, more than the child's stdin socket buffer holds (≈ 200-400 KiB).
    const pad = 'x'.repeat(1024);
    const calls = Array.from({ length: 1_500 }, (_, n) => s.m.invokeTool('work', { n, pad }, { session, origin: 'mcp' }));
    let maxHeld = 0;
    const conn = s.m.extensions().find((e) => e.name === 'serial')!;
    const sampler = setInterval(() => (maxHeld = Math.max(maxHeld, heldOf(s.m))), 5);
    const results = await Promise.allSettled(calls);
    clearInterval(sampler);
    const ok = results.filter((r) => r.status === 'fulfilled' && !r.value.isError);
    const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
    expect(failed.slice(0, 3)).toEqual([]);
    expect(ok).toHaveLength(1_500);
    expect((results[1_499] as PromiseFulfilledResult<{ content: { text?: string }[] }>).value.content[0]!.text).toBe('done 1499');
    const after = s.m.extensions().find((e) => e.name === 'serial')!;
    expect(after.state).toBe('running');
    expect(after.pending).toBe(0);
    expect(maxHeld).toBeGreaterThan(0);
    figure(`1,500 concurrent calls to a one-at-a-time extension (${conn.name}): ${ok.length} answered, up to ${maxHeld} waited in the host (≤ ${MAX_REQUESTS_IN_FLIGHT} in flight), still running; ${Date.now() - t0} ms`);
  }, 60_000);
});

describe('hostile: byte caps (point 5)', () => {
  it('2 MiB descriptions on 128 tools and 128 commands, 100 huge diagnostics, 3 MiB notes, huge status/widgets/panels: every field cut, the host stays under 250 MiB above idle', async () => {
    const s = setup();
    writeExt(s.exts, 'bytes', { name: 'bytes', exec: process.execPath, args: [path.join(HOSTILE, 'bytes_flood.mjs'), JSON.stringify({ name: 'bytes', mib: 2 })] });
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = Date.now();
    await s.m.start();
    const notes = () => s.ui.of('notify').filter((c) => c.ext === 'bytes').map((c) => c.args[1] as string);
    await until(() => notes().includes('bytes done'), 60_000, 'the flood marker');
    clearInterval(sampler);
    const info = s.m.extensions().find((e) => e.name === 'bytes')!;
    expect(info.state).toBe('running');
    expect((await s.m.callTool('ping', {})).content[0]!.text).toBe('pong');

    const cap = (max: number) => max + 3; // a cut text ends with '…' (3 bytes)
    const len = (t: string | undefined) => Buffer.byteLength(t ?? '');
    expect(info.tools.map((t) => t.name)).not.toContain('schema_0');
    expect(info.tools).toHaveLength(128);
    expect(Math.max(...info.tools.map((t) => len(t.description)))).toBeLessThanOrEqual(cap(MAX_DESCRIPTION_BYTES));
    expect(Math.max(...info.commands.map((c) => len(c.description)))).toBeLessThanOrEqual(cap(MAX_DESCRIPTION_BYTES));
    expect(info.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS_PER_EXT);
    expect(Math.max(...info.diagnostics.map(len))).toBeLessThanOrEqual(cap(MAX_DIAGNOSTIC_BYTES));
    expect(Math.max(...notes().map(len))).toBeLessThanOrEqual(cap(MAX_NOTE_BYTES));
    const statuses = s.ui.of('status').filter((c) => c.ext === 'bytes').map((c) => c.args[2] as string);
    expect(Math.max(...statuses.map(len))).toBeLessThanOrEqual(cap(MAX_STATUS_TEXT_BYTES));
    const widgets = s.ui.of('widget').filter((c) => c.ext === 'bytes').map((c) => c.args[0] as WidgetSpec);
    expect(Math.max(...widgets.map((w) => (w.lines ?? []).reduce((n, l) => n + len(l), 0)))).toBeLessThanOrEqual(MAX_WIDGET_BYTES);
    const panels = s.ui.of('openPanel').filter((c) => c.ext === 'bytes').map((c) => c.args[0] as PanelSpec);
    expect(panels.length).toBeLessThanOrEqual(MAX_PANELS_PER_EXT);
    expect(Math.max(...panels.map((p) => (p.lines ?? []).reduce((n, l) => n + len(l), 0)))).toBeLessThanOrEqual(cap(MAX_PANEL_BYTES));
    // One diagnostic per kind cut or refused, beside the 100 (cut) subscribe diagnostics.
    const capDiagnostics = info.diagnostics.filter((d) => /: cut$|refused$/.test(d));
    expect(new Set(capDiagnostics).size).toBe(capDiagnostics.length);
    global.gc?.();
    const after = process.memoryUsage().rss;
    figure(`byte flood (≈ 900 MiB of fields in ${Date.now() - t0} ms): every field cut, ${capDiagnostics.length} cap diagnostics, extension running; host RSS idle ${mib(idle)}, peak ${mib(peak)} (+${mib(peak - idle)}), after ${mib(after)}`);
    expect(peak - idle).toBeLessThan(250 * 1024 * 1024);
  }, 120_000);
});

describe('hostile: a notify flood to a slow MCP client (point 9)', () => {
  const cli = builtCli();

  /** VmRSS of a Linux process in bytes. */
  const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

  it.skipIf(process.platform !== 'linux')('zut-host mcp: 5 s of 4 KiB notes while the client does not read: RSS stays flat, the answer and the latest progress arrive once it reads', async () => {
    const home = tempDir('zut-bounds-home-');
    const root = tempDir('zut-bounds-exts-');
    const ext = writeExt(root, 'spam', { name: 'spam', exec: process.execPath, args: [path.join(HOSTILE, 'notify_flood.mjs')] });
    // node's spawn gives the child a socketpair for stdout, as MCP clients (the SDK) do.
    const child = spawn(process.execPath, [cli, 'mcp', '--cwd', tempDir('zut-bounds-cwd-'), '--ext', ext], { env: isolatedEnv(home, home) });
    const lines: Record<string, unknown>[] = [];
    onJsonLines(child.stdout, (m) => lines.push(m));
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    try {
      const send = (m: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } });
      await until(() => lines.some((l) => l.id === 1), 20_000, 'initialize');
      send({ method: 'notifications/initialized' });
      const idle = rssOf(child.pid!);
      // The slow client: stops reading, then asks for the flooding call with a progress token.
      child.stdout.pause();
      send({ id: 2, method: 'tools/call', params: { name: 'spam', arguments: { ms: 5_000, pad: 4096 }, _meta: { progressToken: 'p' } } });
      let peak = idle;
      const t0 = Date.now();
      while (Date.now() - t0 < 6_000) {
        peak = Math.max(peak, rssOf(child.pid!));
        await new Promise((r) => setTimeout(r, 50));
      }
      child.stdout.resume();
      const answer = await until(() => lines.find((l) => l.id === 2), 20_000, 'the call answered');
      const ticks = Number(/spammed (\d+)/.exec(JSON.stringify(answer))![1]);
      const progress = lines.filter((l) => l.method === 'notifications/progress');
      const last = progress.at(-1)?.params as { message: string } | undefined;
      figure(`zut-host mcp, ${ticks} notes of 4 KiB (${mib(ticks * 4096)}) in 5 s to a client not reading: RSS ${mib(idle)} → peak ${mib(peak)} (+${mib(peak - idle)}); ${progress.length} progress lines delivered, the last "${last?.message.slice(0, 12)}…"`);
      expect(ticks).toBeGreaterThan(2_000);
      expect(peak - idle).toBeLessThan(64 * 1024 * 1024);
      expect(progress.length).toBeLessThan(ticks);
      expect(last!.message.length).toBeLessThanOrEqual(MCP_PROGRESS_MAX_CHARS + 1);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await exited;
    }
  }, 90_000);

  it('the relay socket: 4 s of 4 KiB notes while the relay does not read: the extension host stays flat, the latest progress arrives', async () => {
    class ProgressUi extends NullHostUi {
      readonly progress = new Emitter<ExtensionProgress>();
      override notify(ext: string, _level: NoteLevel, message: string): void {
        this.progress.fire({ ext, message });
      }
    }
    const ui = new ProgressUi();
    onTestFinished(() => ui.progress.dispose());
    const s = managerFixture({ hostVersion: '1.0.0', autoRestart: false }, 'zut-bounds-');
    const m = s.make({ ui });
    writeExt(s.exts, 'spam', { name: 'spam', exec: process.execPath, args: [path.join(HOSTILE, 'notify_flood.mjs')] });
    await m.start();
    const server = await RelayServer.listen({ host: m, serverVersion: 't', origin: 'agent', progress: ui.progress.event });
    servers.push(server);
    const socket = net.createConnection(server.address);
    const lines: Record<string, unknown>[] = [];
    onJsonLines(socket, (m) => lines.push(m));
    const send = (msg: object) => socket.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    socket.write(JSON.stringify({ token: server.issueToken() }) + '\n');
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } });
    await until(() => lines.some((l) => l.id === 1), 10_000, 'initialize');
    send({ method: 'notifications/initialized' });
    const idle = process.memoryUsage().rss;
    socket.pause();
    send({ id: 2, method: 'tools/call', params: { name: 'spam', arguments: { ms: 4_000, pad: 4096 }, _meta: { progressToken: 'p' } } });
    let peak = idle;
    const t0 = Date.now();
    while (Date.now() - t0 < 5_000) {
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 50));
    }
    socket.resume();
    const answer = await until(() => lines.find((l) => l.id === 2), 20_000, 'the call answered');
    const ticks = Number(/spammed (\d+)/.exec(JSON.stringify(answer))![1]);
    const progress = lines.filter((l) => l.method === 'notifications/progress');
    socket.destroy();
    figure(`relay socket, ${ticks} notes of 4 KiB (${mib(ticks * 4096)}) to a relay not reading: extension host RSS ${mib(idle)} → peak ${mib(peak)} (+${mib(peak - idle)}); ${progress.length} progress lines delivered`);
    expect(ticks).toBeGreaterThan(2_000);
    expect(peak - idle).toBeLessThan(64 * 1024 * 1024);
    expect(progress.length).toBeLessThan(ticks);
    expect((progress.at(-1)!.params as { message: string }).message).toMatch(new RegExp(`^tick ${ticks} `));
  }, 60_000);
});
