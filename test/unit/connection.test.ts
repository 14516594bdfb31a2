import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection, type ConnectionOptions } from '../../src/host/connection/connection';
import type { ExtNotice } from '../../src/host/protocols';
import { RequestError } from '../../src/host/types';
import { FIXTURES, NODE_FIXTURE, alive, cleanupTemps, tempDir, until } from '../helpers/hostFixtures';

const conns: Connection[] = [];
afterEach(async () => {
  await Promise.all(conns.splice(0).map((c) => c.stop()));
  cleanupTemps();
});

function make(opts: Partial<ConnectionOptions> & { name: string; exec: string; args?: string[] }) {
  const dir = tempDir('zut-conn-');
  const frames: ExtNotice[] = [];
  const diagnostics: string[] = [];
  const stderr: string[] = [];
  const c = new Connection({
    dir,
    args: [],
    logPath: path.join(dir, 'logs', `ext-${opts.name}.log`),
    hostInfo: () => ({ hostVersion: '0.1.0', provider: 'p', model: 'm', cwd: dir, extensionDir: dir, dataDir: dir }),
    onNotice: (f) => frames.push(f),
    onDiagnostic: (d) => diagnostics.push(d),
    onStderr: (l) => stderr.push(l),
    ...opts,
  });
  conns.push(c);
  return { c, frames, diagnostics, stderr, dir, logPath: path.join(dir, 'logs', `ext-${opts.name}.log`) };
}

const node = (cfg: Record<string, unknown> & { name: string }) => ({ name: cfg.name, exec: process.execPath, args: [NODE_FIXTURE, JSON.stringify(cfg)] });

describe('handshake', () => {
  it('exit before hello with status 23: error names the status and the log, stderr is in the log', async () => {
    const { c, logPath, stderr } = make({ name: 'dies', exec: path.join(FIXTURES, 'exit23.sh') });
    await expect(c.start()).rejects.toThrow(`extension exited before hello: exit status 23 (stderr log: ${logPath})`);
    const log = fs.readFileSync(logPath, 'utf8');
    expect(log).toMatch(/^\[zut\] starting dies\/ at \d{4}-/);
    expect(log).toContain('exit23: missing configuration file');
    expect(stderr).toContain('exit23: missing configuration file');
  });

  it('killed by a signal before hello', async () => {
    const { c } = make({ name: 'killed', exec: path.join(FIXTURES, 'killself.sh') });
    await expect(c.start()).rejects.toThrow(/extension exited before hello: signal: SIGKILL \(stderr log: /);
  });

  it('non-JSON hello (Python): first frame must be hello, child killed and reaped', async () => {
    const { c, logPath } = make({ name: 'pyext', exec: 'python3', args: [path.join(FIXTURES, 'pyext.py'), '--garbage'] });
    await expect(c.start()).rejects.toThrow(`first frame must be hello (got "invalid JSON"; stderr log: ${logPath})`);
    expect(c.alive).toBe(false);
  });

  it('another frame first', async () => {
    const { c } = make(node({ name: 'early', before: 'wrongFirst' }));
    await expect(c.start()).rejects.toThrow(/^first frame must be hello \(got "notify"; stderr log: /);
  });

  it('an unknown protocol_version is refused', async () => {
    const { c, logPath } = make(node({ name: 'future', protocol: 3 }));
    await expect(c.start()).rejects.toThrow(`unsupported extension protocol version 3 (want 2, or 1 for a zot extension; stderr log: ${logPath})`);
  });

  it('protocol_version 1 is zot v1 (issue 13): accepted, with zot\'s hello_ack', async () => {
    const { c } = make(node({ name: 'old', protocol: 1 }));
    await c.start();
    expect(c.hello).toMatchObject({ protocol: 'zot', protocolVersion: 1, name: 'old' });
    expect(c.interceptable.has('before_agent_start')).toBe(true);
  });

  it('hello name must match the manifest', async () => {
    const { c } = make(node({ name: 'real', helloName: 'impostor' }));
    await expect(c.start()).rejects.toThrow(/hello name "impostor" does not match manifest name "real"/);
  });

  it('no hello within the deadline: killed and reaped', async () => {
    const { c } = make({ ...node({ name: 'mute', before: 'sleep' }), timeouts: { helloMs: 300 } });
    const started = c.start();
    await until(() => c.pid, 5000, 'pid');
    const pid = c.pid!;
    await expect(started).rejects.toThrow(/no hello frame within 0.3s/);
    expect(alive(pid)).toBe(false);
  });

  it('a missing executable is a start error with the log path', async () => {
    const { c } = make({ name: 'ghost', exec: './does-not-exist' });
    await expect(c.start()).rejects.toThrow(/start \.\/does-not-exist: spawn .*ENOENT \(stderr log: /);
  });

  it('ready ends registration; registrations before hello_ack are accepted', async () => {
    const { c, frames } = make(node({ name: 'eager', earlyRegister: true, commands: [{ name: 'a' }] }));
    await c.start();
    expect(c.readyMode).toBe('ready');
    expect(frames.map((f) => f.type)).toContain('register_command');
  });

  it('no ready: auto-ready after 250 ms without a frame, with a diagnostic', async () => {
    const { c, diagnostics } = make(node({ name: 'noready', ready: false, commands: [{ name: 'a' }] }));
    await c.start();
    expect(c.readyMode).toBe('auto-ready');
    expect(diagnostics.join('\n')).toMatch(/auto-ready after 250ms/);
  });

  it('frames but no ready: registration closes after the 3 s grace', async () => {
    const { c, diagnostics } = make(node({ name: 'chatter', ready: false, chatter: true }));
    await c.start();
    expect(c.readyMode).toBe('ready-timeout');
    expect(diagnostics.join('\n')).toMatch(/no ready frame within 3s/);
  });
});

describe('transport', () => {
  it('a malformed frame mid-stream is a diagnostic; the extension keeps working', async () => {
    const { c, diagnostics } = make(node({ name: 'sloppy', after: 'malformed', tools: [{ name: 't' }] }));
    await c.start();
    expect(diagnostics.join('\n')).toContain('tool_result frame is missing required field "id"');
    expect(diagnostics.join('\n')).toContain('invalid JSON');
    expect(diagnostics.join('\n')).toContain('unknown frame type "frobnicate"');
    const r = await c.request({ kind: 'tool', name: 't', args: { a: 1 } }, { id: 'x1', what: 'tool t', timeoutMs: 5000 });
    expect(Array.isArray(r.content)).toBe(true);
  });

  it('a 5 MiB line disconnects that extension (an error, bounded memory)', async () => {
    const { c, diagnostics } = make(node({ name: 'huge', after: 'hugeLine' }));
    await c.start();
    const exit = await new Promise<{ expected: boolean; message: string }>((r) => c.onExit(r));
    expect(exit.expected).toBe(false);
    expect(exit.message).toMatch(/frame exceeds the 4194304-byte limit/);
    expect(diagnostics.join('\n')).toMatch(/over-long line/);
  });

  it('an extension that never reads stdin: the queue bound disconnects it, pending requests fail', async () => {
    const { c } = make({ ...node({ name: 'deaf', after: 'neverRead', earlyRegister: true, tools: [{ name: 't' }] }), queue: { maxFrames: 256 } });
    await c.start(); // hello_ack lands in the pipe buffer; it never reads it
    const big = 'y'.repeat(64 * 1024);
    const results: Promise<unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      results.push(c.request({ kind: 'tool', name: 't', args: { big } }, { id: `q${i}`, what: 'tool t' }).catch((e: RequestError) => e));
    }
    const settled = await Promise.all(results);
    expect(settled.map((e) => (e instanceof RequestError ? e.kind : String(e))).filter((k) => k !== "crashed")).toEqual([]);
    expect(String((settled[0] as RequestError).message)).toMatch(/outbound queue overflow|write timeout/);
    await c.waitExit();
    expect(c.alive).toBe(false);
  });

  it('a crash during a tool call fails the pending call at once', async () => {
    const { c } = make(node({ name: 'crashy', tools: [{ name: 'boom', mode: 'crash' }] }));
    await c.start();
    const err = await c.request({ kind: 'tool', name: 'boom', args: {} }, { id: 'c1', what: 'tool boom', timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).kind).toBe('crashed');
    expect((err as RequestError).message).toMatch(/crashy exited: exit status 3 \(stderr log: /);
  });

  it('late or unknown ids are ignored', async () => {
    // The trace shows when the late reply has really arrived (and been handled: in the same data callback).
    const inbound: string[] = [];
    const { c, frames } = make({ ...node({ name: 'late', tools: [{ name: 's', mode: 'slow' }] }), tracing: () => true, onTrace: (dir, line) => dir === 'in' && inbound.push(line) });
    await c.start();
    await expect(c.request({ kind: 'tool', name: 's', args: { ms: 300 } }, { id: 'l1', what: 'tool s', timeoutMs: 50 })).rejects.toThrow(/timed out/);
    await until(() => inbound.some((l) => l.includes('"tool_result"') && l.includes('"l1"')), 10_000, 'the late tool_result to arrive');
    expect(frames.filter((f) => (f.type as string) === 'tool_result')).toHaveLength(0);
    expect(c.alive).toBe(true);
    expect(c.pendingCount).toBe(0);
  });
});

describe('shutdown', () => {
  it('an extension that ignores shutdown and has a grandchild: both are gone afterwards', async () => {
    const pidFile = path.join(tempDir(), 'grandchild.pid');
    const { c } = make({ ...node({ name: 'stubborn', ignoreShutdown: true, grandchild: pidFile }), timeouts: { shutdownGraceMs: 300, killGraceMs: 300 } });
    await c.start();
    const pid = c.pid!;
    const grandchild = Number(await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 5000, 'grandchild pid'));
    expect(alive(grandchild)).toBe(true);
    let exit: { expected: boolean } | undefined;
    c.onExit((e) => (exit = e));
    await c.stop();
    expect(alive(pid)).toBe(false);
    await until(() => !alive(grandchild), 3000, 'grandchild to die');
    expect(exit?.expected).toBe(true);
  });

  it('a polite extension acks and exits within the grace', async () => {
    const { c } = make(node({ name: 'polite' }));
    await c.start();
    const pid = c.pid!;
    await c.stop();
    expect(alive(pid)).toBe(false);
  });
});
