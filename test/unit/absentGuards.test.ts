/**
 * The rule behind "a guard that exists is never no opinion" (src/host/extensions/absentGuards.ts, guardMemory.ts;
 * issue 37): which extensions count as a guard that could not be asked, for an agent's PreToolUse (strict) and for
 * every other caller (`@zut`, the palette, MCP), what the host remembers between processes, and what ends it (the
 * user's Stop or disable). Real Manager and extensions where states matter; the rule's table on stand-ins.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { absentGuards, absentReason, type AbsentGuard } from '../../src/host/extensions/absentGuards';
import { GuardMemory } from '../../src/host/extensions/guardMemory';
import type { ExtensionSupervisor } from '../../src/host/extensions/supervisor';
import { Manager } from '../../src/host/manager';
import { REGISTRATION_PATIENCE_MS } from '../../src/protocol/limits';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, until, zutHome } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** A stand-in for a supervisor in one state. */
function sup(o: { lifecycle: string; live?: boolean; intercepts?: string[]; ready?: boolean; runningFor?: number; availability?: string; heldByUser?: boolean; error?: string }): ExtensionSupervisor {
  return {
    name: 'g',
    disc: { dir: '/nowhere/g', manifestPath: '/nowhere/g/extension.json' },
    manifest: { exec: './run' },
    lifecycle: o.lifecycle,
    live: o.live ?? o.lifecycle === 'running',
    intercepts: new Set(o.intercepts ?? []),
    conn: { readyMode: o.ready ? 'ready' : 'auto-ready' },
    runningSince: Date.now() - (o.runningFor ?? 0),
    spawnedAt: 1,
    availability: o.availability ?? 'available',
    heldByUser: o.heldByUser ?? false,
    error: o.error,
  } as unknown as ExtensionSupervisor;
}
const knownGuard = () => {
  const m = new GuardMemory();
  m.learn(GuardMemory.keyOf('g', '/nowhere/g'), { kind: 'guard' });
  return m;
};
const whys = (s: ExtensionSupervisor, strict: boolean, memory = new GuardMemory(), autoRestart = true) => absentGuards([s], strict, { memory, autoRestart, loadingUnseen: false }).map((a) => `${a.why}${a.final ? ' (final)' : ''}`);

describe('which guards could not be asked', () => {
  it('a guard the host knows: every state but "intercepting now" is absent, for every caller; final when it cannot come back', () => {
    for (const strict of [true, false]) {
      expect(whys(sup({ lifecycle: 'running', intercepts: ['tool_call'] }), strict, knownGuard())).toEqual([]);
      expect(whys(sup({ lifecycle: 'restarting' }), strict, knownGuard())).toEqual(['is restarting']);
      expect(whys(sup({ lifecycle: 'stopped' }), strict, knownGuard())).toEqual(['is stopped (not by the user)']);
      expect(whys(sup({ lifecycle: 'running' }), strict, knownGuard())).toEqual(['has not subscribed to tool_call yet']);
      expect(whys(sup({ lifecycle: 'crashed' }), strict, knownGuard())).toEqual(['crashed and is restarting']);
      expect(whys(sup({ lifecycle: 'crashed' }), strict, knownGuard(), false)).toEqual(['crashed (final)']);
      expect(whys(sup({ lifecycle: 'error', error: 'x; crashed 5 times in 3 minutes: not restarting' }), strict, knownGuard())).toEqual(['gave up restarting after crashing repeatedly (final)']);
      expect(whys(sup({ lifecycle: 'error', error: 'load g: no such file' }), strict, knownGuard())).toEqual(['failed to start (final)']);
      expect(whys(sup({ lifecycle: 'stopped', availability: 'consent' }), strict, knownGuard())).toEqual(['waits for your consent to its new content (final)']);
    }
  });

  it("the user's explicit acts end it: Stop, disabled, removed from trust or consent — never waited for", () => {
    for (const availability of ['disabled', 'workspace-disabled', 'denied', 'blocked']) expect(whys(sup({ lifecycle: 'stopped', availability }), true, knownGuard())).toEqual([]);
    expect(whys(sup({ lifecycle: 'stopped', heldByUser: true }), true, knownGuard())).toEqual([]);
  });

  it('an extension not known as a guard: only an agent’s PreToolUse waits, while it starts or registers without ready within the patience', () => {
    expect(whys(sup({ lifecycle: 'starting' }), true)).toEqual(['is still starting']);
    expect(whys(sup({ lifecycle: 'starting' }), false)).toEqual([]);
    expect(whys(sup({ lifecycle: 'running' }), true)).toEqual(['has not finished registering (no ready yet)']);
    expect(whys(sup({ lifecycle: 'running' }), false)).toEqual([]);
    // `ready` without intercepting: its registrations are complete; past the patience: taken for no guard.
    expect(whys(sup({ lifecycle: 'running', ready: true }), true)).toEqual([]);
    expect(whys(sup({ lifecycle: 'running', runningFor: REGISTRATION_PATIENCE_MS }), true)).toEqual([]);
    // A crash of one that never guarded is not a guard's absence.
    expect(whys(sup({ lifecycle: 'error', error: 'x' }), true)).toEqual([]);
  });

  it('what it sees is remembered: a guard that sent ready without intercepting (a new version) is no longer waited for', () => {
    const memory = knownGuard();
    expect(whys(sup({ lifecycle: 'running', ready: true }), true, memory)).toEqual([]);
    expect(memory.get(GuardMemory.keyOf('g', '/nowhere/g'))).toMatchObject({ kind: 'not' });
    expect(whys(sup({ lifecycle: 'restarting' }), false, memory)).toEqual([]);
    // …and one past the patience without ready is not waited for in its next run (same content).
    const quiet = new GuardMemory();
    absentGuards([sup({ lifecycle: 'running', runningFor: REGISTRATION_PATIENCE_MS })], true, { memory: quiet, autoRestart: true, loadingUnseen: false });
    expect(whys(sup({ lifecycle: 'running' }), true, quiet)).toEqual([]);
  });
});

describe('the denial names them in grammatical English', () => {
  // Each name with its why, as absentGuards words it for the state.
  const named = (name: string, o: Parameters<typeof sup>[0], strict = true, memory?: GuardMemory): AbsentGuard => {
    const [a] = absentGuards([{ ...sup(o), name } as ExtensionSupervisor], strict, { memory: memory ?? new GuardMemory(), autoRestart: true, loadingUnseen: false });
    return a!;
  };

  it('one guard: "its guard"; several: grouped by why, "a and b are …: their guards"', () => {
    expect(absentReason([named('slowpoke', { lifecycle: 'starting' })], true)).toBe('slowpoke is still starting: its guard could not be asked in time');
    expect(absentReason([named('a', { lifecycle: 'starting' }), named('b', { lifecycle: 'starting' })], true)).toBe('a and b are still starting: their guards could not be asked in time');
    const known = new GuardMemory();
    for (const n of ['c', 'd', 'e']) known.learn(GuardMemory.keyOf(n, '/nowhere/g'), { kind: 'guard' });
    expect(absentReason([named('a', { lifecycle: 'starting' }), named('c', { lifecycle: 'restarting' }, true, known), named('b', { lifecycle: 'starting' }), named('d', { lifecycle: 'restarting' }, true, known), named('e', { lifecycle: 'restarting' }, true, known)], true))
      .toBe('a and b are still starting; c, d and e are restarting: their guards could not be asked in time');
    expect(absentReason([named('c', { lifecycle: 'running' }, true, known), named('d', { lifecycle: 'running' }, true, known)], true)).toBe('c and d have not subscribed to tool_call yet: their guards could not be asked in time');
  });

  it('those that cannot come back: it/them as many as they are', () => {
    const known = new GuardMemory();
    for (const n of ['c', 'd']) known.learn(GuardMemory.keyOf(n, '/nowhere/g'), { kind: 'guard' });
    const gaveUp = (n: string) => named(n, { lifecycle: 'error', error: 'x: not restarting' }, true, known);
    expect(absentReason([gaveUp('c')], false)).toBe('c gave up restarting after crashing repeatedly: its guard cannot judge this call (restart it, or stop, disable or remove it to run without)');
    expect(absentReason([gaveUp('c'), gaveUp('d')], false)).toBe('c and d gave up restarting after crashing repeatedly: their guards cannot judge this call (restart them, or stop, disable or remove them to run without)');
    expect(absentReason([named('c', { lifecycle: 'stopped', availability: 'consent' }, true, known), named('d', { lifecycle: 'stopped', availability: 'consent' }, true, known)], false))
      .toBe('c and d wait for your consent to their new content: their guards cannot judge this call (restart them, or stop, disable or remove them to run without)');
  });

  it('a load that has not found its extensions yet stands for several: "their guards", never "its guards"', () => {
    const [loading] = absentGuards([], true, { memory: new GuardMemory(), autoRestart: true, loadingUnseen: true });
    expect(absentReason([loading!], true)).toBe('zut is still loading its extensions: their guards could not be asked in time');
  });
});

describe('the guard memory file', () => {
  it('is kept between processes (another instance reads it), 0600, replaced (never written through a link)', () => {
    const dir = tempDir('guard-mem-');
    const file = path.join(dir, 'guards.json');
    new GuardMemory(file).learn('a\n/x', { kind: 'guard' });
    expect(new GuardMemory(file).get('a\n/x')).toEqual({ kind: 'guard' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, JSON.stringify({ 'a\n/x': 'not:1' }));
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    expect(new GuardMemory(file).get('a\n/x')).toBeUndefined(); // a link is not read
    new GuardMemory(file).learn('b\n/y', { kind: 'guard' });
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(JSON.stringify({ 'a\n/x': 'not:1' }));
  });
});

describe('every caller, not only agents: a guard that is down blocks the call', () => {
  async function start(autoRestart: boolean, restartPolicy = { maxCrashes: 5, windowMs: 180_000 }) {
    const z = zutHome();
    nodeExt(z.exts, { name: 'crasher', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: 'crash' } });
    const m = keepManager(new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't', autoRestart }, restartPolicy));
    await m.start();
    return m;
  }
  const call = (m: Manager) => m.guardTool({ name: 'Bash', input: { command: 'ls' }, source: 'claude' });

  it('a guard that gave up restarting: @zut’s calls are denied naming it, until the user stops or disables it', async () => {
    const m = await start(true, { maxCrashes: 2, windowMs: 180_000 });
    expect((await call(m)).verdict).toMatchObject({ blocked: { ext: 'zut', reason: expect.stringMatching(/^guard crasher could not judge this call/) } });
    await until(() => m.extensions().find((e) => e.name === 'crasher')?.state === 'running', 10_000, 'the restart');
    expect((await call(m)).verdict).toMatchObject({ blocked: { ext: 'zut' } });
    await until(() => m.extensions().find((e) => e.name === 'crasher')?.state === 'error', 10_000, 'giving up');
    expect((await call(m)).verdict).toEqual({ blocked: { ext: 'zut', reason: 'crasher gave up restarting after crashing repeatedly: its guard cannot judge this call (restart it, or stop, disable or remove it to run without)' } });
    await m.stopExtension('crasher');
    expect((await call(m)).verdict).toEqual({ input: { command: 'ls' }, rewrittenBy: [] });
  }, 30_000);

  it('a guard that crashed with no restart (a CLI host): denied at once; disabled in its manifest, it has no say', async () => {
    const m = await start(false);
    expect((await call(m)).verdict).toMatchObject({ blocked: { ext: 'zut', reason: expect.stringMatching(/^guard crasher could not judge this call/) } });
    await until(() => m.extensions().find((e) => e.name === 'crasher')?.state === 'crashed', 10_000, 'the crash');
    expect((await call(m)).verdict).toMatchObject({ blocked: { ext: 'zut', reason: expect.stringMatching(/^crasher crashed: its guard cannot judge this call/) } });
    await m.setEnabled('crasher', false);
    expect((await call(m)).verdict).toEqual({ input: { command: 'ls' }, rewrittenBy: [] });
  }, 30_000);
});
