/**
 * The runtime under every shell (src/runtime): the recipe (what each kind of shell fixes, the homes it watches), the
 * one change loop every watcher feeds (quiet period, a save at the next turn, `flush`, dispose), the headless watch of the
 * extension homes (a home made after the start is watched at the next check, which applies at once), and the
 * lifecycle (one start, `started`, one shutdown that leaves no extension running). Real extensions (sh), real files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NullHostUi } from '../../src/host/hostUi';
import { WATCH_DEBOUNCE_MS } from '../../src/protocol/limits';
import { ChangeLoop, type ChangesApplied } from '../../src/runtime/changes';
import { hostRecipe, watchedHomes, type HostChoices } from '../../src/runtime/recipe';
import { HostRuntime } from '../../src/runtime/runtime';
import { alive, cleanupTemps, shExt, tempDir, until } from '../helpers/hostFixtures';

const runtimes: HostRuntime[] = [];
const loops: ChangeLoop[] = [];
afterEach(async () => {
  for (const l of loops.splice(0)) l.dispose();
  await Promise.all(runtimes.splice(0).map((r) => r.shutdown()));
});
afterAll(cleanupTemps);

const choices = (zutHome: string, more: Partial<HostChoices> = {}): HostChoices => ({ folders: [], zutHome, ui: new NullHostUi(), hostVersion: '9.9.9', ...more });

/** A change loop over a host that records what it is asked to apply. */
function loop() {
  const asked: string[][] = [];
  const applied: ChangesApplied[] = [];
  const l = new ChangeLoop({
    host: { applyChanges: (paths) => (asked.push([...paths]), Promise.resolve({ reloaded: false, restarted: [] })) },
    applied: (a) => applied.push(a),
  });
  loops.push(l);
  return { l, asked, applied };
}

describe('the recipe', () => {
  it('the kind of shell fixes provider and model, and the restarts of all but the window', () => {
    const base = choices('/z', { autoRestart: false });
    expect(hostRecipe('hook', base)).toMatchObject({ provider: 'agent', model: 'unknown', autoRestart: true });
    expect(hostRecipe('mcp', base)).toMatchObject({ provider: 'agent', model: 'unknown', autoRestart: true });
    expect(hostRecipe('cli', { ...base, autoRestart: true })).toMatchObject({ provider: 'zut-host', autoRestart: false });
    expect(hostRecipe('window', base)).toMatchObject({ provider: '', model: '', autoRestart: false }); // zut.autoRestart
  });

  it('watches the global homes and --ext paths, and the project only while trusted', () => {
    const o = hostRecipe('hook', choices('/z', { folders: ['/p'], e: { home: '/e' }, extensionPaths: ['/x'] }));
    expect(watchedHomes({ ...o, isTrusted: () => false }).sort()).toEqual(['/e/extensions', '/x', '/z/extensions']);
    expect(watchedHomes({ ...o, isTrusted: () => true })).toEqual(expect.arrayContaining(['/p/.zut/extensions', '/p/.e/extensions']));
  });
});

describe('the change loop', () => {
  it('applies a burst of changes once, after the quiet period', async () => {
    const { l, asked, applied } = loop();
    l.changed('/a');
    l.changed('/b');
    l.changed('/a');
    await new Promise((r) => setTimeout(r, WATCH_DEBOUNCE_MS / 2));
    expect(asked).toEqual([]);
    await until(() => applied.length === 1, 5_000, 'the burst applied');
    expect(asked).toEqual([['/a', '/b']]);
    expect(applied[0]).toMatchObject({ saved: false, reloaded: false });
  });

  it("a save is applied at the next turn, with what arrived in the same turn (the watcher's late event for it too), and waits for no burst", async () => {
    const { l, asked, applied } = loop();
    l.changed('/m', { saved: true });
    l.changed('/m');
    l.changed('/n');
    expect(asked).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual([['/m', '/n']]);
    await until(() => applied.length === 1, 5_000, 'the save applied');
    expect(applied[0]).toMatchObject({ paths: ['/m', '/n'], saved: true });
    // A change after it is a new batch, with the quiet period again.
    l.changed('/o');
    await new Promise((r) => setImmediate(r));
    expect(asked).toHaveLength(1);
  });

  it('flush applies what is pending now, and nothing when nothing is; a disposed loop applies nothing', async () => {
    const { l, asked } = loop();
    l.flush();
    l.changed('/x');
    l.flush();
    expect(asked).toEqual([['/x']]);
    l.changed('/y');
    l.dispose();
    l.changed('/z');
    await new Promise((r) => setTimeout(r, WATCH_DEBOUNCE_MS + 100));
    expect(asked).toEqual([['/x']]);
  });
});

describe('the runtime', () => {
  it('starts once (`started` waits for it), watches a home made after the start, applies it at the next check, and shuts down once', async () => {
    const zutHome = tempDir('zut-rt-home-');
    const rt = new HostRuntime('hook', choices(zutHome));
    runtimes.push(rt);
    let early = false;
    void rt.started.then(() => (early = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(early).toBe(false);
    const first = rt.start();
    expect(rt.start()).toBe(first);
    expect((await rt.started).loaded).toEqual([]);
    rt.watchHomes();
    // The global home did not exist: made now, with an extension in it, it is applied at the next check.
    shExt(path.join(zutHome, 'extensions'), 'late');
    rt.checkChanges();
    await rt.manager.whenSettled(Date.now() + 10_000);
    const late = rt.manager.extensions().find((e) => e.name === 'late');
    expect(late?.state).toBe('running');
    // Watched from then on: another one appears after the quiet period, without a check.
    shExt(path.join(zutHome, 'extensions'), 'later');
    await until(() => rt.manager.extensions().find((e) => e.name === 'later' && e.state === 'running'), 10_000, 'the second extension');
    const pids = rt.manager.extensions().flatMap((e) => (e.pid ? [e.pid] : []));
    expect(pids).toHaveLength(2);
    const ending = rt.shutdown();
    expect(rt.shutdown()).toBe(ending);
    await ending;
    expect(pids.filter(alive)).toEqual([]);
    fs.rmSync(zutHome, { recursive: true, force: true });
  }, 30_000);
});
