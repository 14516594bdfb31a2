/**
 * One owner of an extension's state: the supervisor's `transition` is the only writer, each change fires
 * `onDidChangeState` with its old and new lifecycle/availability, and the 12-value state shown is derived.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../../src/host/disk/discovery';
import { ExtensionSet } from '../../src/host/extensions/extensionSet';
import { ExtensionSupervisor } from '../../src/host/extensions/supervisor';
import type { SupervisorDeps } from '../../src/host/extensions/supervisorPorts';
import { DEFAULT_RESTART_POLICY, displayState, type StateChange } from '../../src/host/extensions/supervisorState';
import { cleanupTemps, RecordingUi, shExt, until, zutHome } from '../helpers/hostFixtures';

const sups: ExtensionSupervisor[] = [];
const views: ExtensionSet[] = [];
afterEach(async () => {
  await Promise.all(sups.splice(0).map(async (s) => (await s.stop(), s.dispose())));
  for (const v of views.splice(0)) v.dispose();
  cleanupTemps();
});

function deps(home: string, changes: { n: number }): SupervisorDeps<ExtensionSupervisor> {
  return {
    ui: new RecordingUi(),
    logPath: path.join(home, 'logs', 'ext.log'),
    hostInfo: (s) => ({ hostVersion: '1.0.0', provider: '', model: '', cwd: home, extensionDir: s.disc.dir, dataDir: s.disc.dir }),
    prepareSpawn: () => Promise.resolve(),
    timeouts: {},
    autoRestart: () => false,
    trace: () => 'off',
    restartPolicy: DEFAULT_RESTART_POLICY,
    changed: () => void changes.n++,
    fail: () => undefined,
    log: () => undefined,
    requests: { handle: () => undefined, cancel: () => undefined, closed: () => undefined },
    admit: (s) => Promise.resolve(s.spawnable),
  };
}

/**
 * A supervisor of one sh extension, with every state change it fires as `lifecycle/availability → …`, and `heard`:
 * the bursts a view of it (the set, extensionSet.ts) heard since (`changes`: its `deps.changed()` calls).
 */
async function supervised(blocked = false) {
  const { home, exts } = zutHome();
  shExt(exts, 'one');
  const [disc] = await discover({ folders: [], zutHome: home });
  const changes = { n: 0 };
  const sup = new ExtensionSupervisor(disc!, deps(home, changes), blocked);
  sups.push(sup);
  const view = new ExtensionSet();
  views.push(view);
  view.replace([sup]);
  await Promise.resolve(); // the burst of `replace` itself
  const heard = { n: 0 };
  view.onDidChange(() => void heard.n++);
  const seen: string[] = [];
  const events: StateChange[] = [];
  sup.onDidChangeState((c) => {
    events.push(c);
    seen.push(`${c.old.lifecycle}/${c.old.availability} → ${c.new.lifecycle}/${c.new.availability}`);
  });
  return { sup, seen, events, changes, heard };
}

describe('ExtensionSupervisor: state', () => {
  it('start, crash and stop fire their old/new pairs, each naming the extension and a reason', async () => {
    const { sup, seen, events, heard } = await supervised();
    expect(sup.state).toBe('stopped');
    await sup.start();
    expect(sup.state).toBe('running');
    expect(seen).toEqual(['stopped/available → starting/available', 'starting/available → running/available']);
    expect(events.every((e) => e.ext === 'one' && e.reason.length > 0)).toBe(true);
    // The view hears the transitions through `onDidChangeState` (deps.changed() carries registrations and diagnostics).
    expect(heard.n).toBeGreaterThan(0);

    process.kill(sup.conn!.pid!, 'SIGKILL');
    await until(() => sup.state === 'crashed', 5000, 'crashed');
    expect(seen.at(-1)).toBe('running/available → crashed/available');

    await sup.start();
    await sup.stop();
    expect(seen.slice(-3)).toEqual(['crashed/available → starting/available', 'starting/available → running/available', 'running/available → stopped/available']);
    expect(sup.state).toBe('stopped');
  });

  it('gates move the availability only; the fingerprint is kept with the decision; stop by the user is remembered', async () => {
    const { sup, seen } = await supervised();
    sup.setGate('consent', { fingerprint: 'f1' });
    expect([sup.state, sup.spawnable, sup.fingerprint]).toEqual(['consent', false, 'f1']);
    sup.setGate('workspace-disabled');
    expect([sup.state, sup.availability, sup.fingerprint]).toEqual(['disabled', 'workspace-disabled', 'f1']);
    sup.setGate(undefined, { fingerprint: undefined });
    expect([sup.state, sup.spawnable, sup.fingerprint]).toEqual(['stopped', true, undefined]);
    expect(seen).toEqual(['stopped/available → stopped/consent', 'stopped/consent → stopped/workspace-disabled', 'stopped/workspace-disabled → stopped/available']);

    await sup.startByUser();
    await sup.stopByUser();
    expect(sup.stoppedByUser).toBe(true);
    await sup.startByUser();
    expect([sup.state, sup.stoppedByUser]).toEqual(['running', false]);
  });

  it('blocked stays blocked under gates and manifest re-reads; a re-read error shows as error', async () => {
    const { sup, seen } = await supervised(true);
    expect([sup.state, sup.spawnable]).toEqual(['blocked', false]);
    sup.setGate('consent', { fingerprint: 'f' });
    expect(sup.state).toBe('blocked');
    sup.reconfigure({ ok: false, error: 'load one: broken' });
    expect(sup.state).toBe('error');
    sup.reconfigure({ ok: true, manifest: sup.disc.manifest!, diagnostics: [], skills: [] });
    expect([sup.state, sup.spawnable]).toEqual(['blocked', false]);
    expect(seen).toEqual(['stopped/blocked → error/blocked', 'error/blocked → stopped/blocked']);
  });

  it("the error is its state's: a failure carries its message, a start clears it; discovery's result is never written", async () => {
    const { sup, events } = await supervised();
    const found = structuredClone(sup.disc);
    await sup.start();
    process.kill(sup.conn!.pid!, 'SIGKILL');
    await until(() => sup.state === 'crashed', 5000, 'crashed');
    const crashed = events.at(-1)!.new;
    expect([crashed.lifecycle, crashed.message === sup.error, sup.error?.includes('one')]).toEqual(['crashed', true, true]);
    await sup.start();
    expect([sup.state, sup.error, events.at(-1)!.old.message]).toEqual(['running', undefined, crashed.message]);
    sup.reconfigure({ ok: false, error: 'load one: broken' });
    expect([sup.state, sup.error, sup.spawnable]).toEqual(['error', 'load one: broken', false]);
    sup.setGate(undefined);
    expect([sup.state, sup.spawnable]).toEqual(['error', false]);
    sup.reconfigure({ ok: true, manifest: { ...sup.manifest!, enabled: false }, diagnostics: [], skills: [] });
    expect([sup.state, sup.availability, sup.error, sup.spawnable]).toEqual(['disabled', 'disabled', undefined, false]);
    expect(sup.disc).toEqual(found);
  });

  it('a refusal is its error until it is no longer refused', async () => {
    const { sup, seen } = await supervised();
    sup.refuse('one: too large to fingerprint');
    expect([sup.state, sup.gate, sup.error, sup.spawnable]).toEqual(['error', 'refused', 'one: too large to fingerprint', false]);
    sup.setGate(undefined);
    expect([sup.state, sup.gate, sup.error, sup.spawnable]).toEqual(['stopped', undefined, undefined, true]);
    expect(seen).toEqual(['stopped/available → stopped/refused', 'stopped/refused → stopped/available']);
  });

  it('nothing outside the supervisor can write its state', async () => {
    const { sup, seen } = await supervised();
    // A getter without a setter: the assignment throws (and does not type-check).
    expect(() => {
      // @ts-expect-error read-only
      sup.state = 'running';
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error read-only
      sup.lifecycle = 'running';
    }).toThrow(TypeError);
    const neverCalled = () => {
      // @ts-expect-error the one writer is private
      sup.transition('running', 'from outside');
      // @ts-expect-error private
      sup.userStopped = true;
      // @ts-expect-error read-only
      sup.fingerprint = 'x';
    };
    expect(typeof neverCalled).toBe('function');
    expect([sup.state, seen]).toEqual(['stopped', []]);
  });

  it('the state shown: a process first, then a failure, then what holds it back, else stopped', () => {
    expect(displayState({ lifecycle: 'running', availability: 'consent' })).toBe('running');
    expect(displayState({ lifecycle: 'error', availability: 'blocked' })).toBe('error');
    expect(displayState({ lifecycle: 'stopped', availability: 'workspace-disabled' })).toBe('disabled');
    expect(displayState({ lifecycle: 'stopped', availability: 'shadowed' })).toBe('shadowed');
    expect(displayState({ lifecycle: 'stopped', availability: 'available' })).toBe('stopped');
  });
});
