/**
 * Hostile and careless extensions against the real host (real child processes: Node, Python and sh fixtures in
 * test/fixtures/hostile): registration and surface floods stay bounded (counted as stored registrations, not
 * timed), an escaped setsid grandchild holding stdout and ignoring SIGTERM is gone after shutdown, a late hello
 * starts, tool names no model accepts are offered under valid names (the rule of src/host/calls/toolNames.ts) while the
 * extension keeps its own, and a project extension whose manifest or executable changes asks for consent again.
 * Each case prints one "[hostile]" line with what the host did, its memory figure and its time to a clean state.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagerOptions } from '../../src/host/api';
import type { ConsentMode } from '../../src/host/extensions/consent';
import { holdersOf, isAlive, stdioLinks } from '../../src/host/process/escaped';
import { MAX_COMMANDS_PER_EXT, MAX_STATUS_KEYS_PER_EXT, MAX_TOOLS_PER_EXT, MAX_WIDGET_LINES, MAX_WIDGETS_PER_EXT } from '../../src/protocol/limits';
import { modelNames } from '../../src/host/chat/loop';
import type { WidgetSpec } from '../../src/host/hostUi';
import { MemoryChoices, NODE_FIXTURE, RecordingUi, cleanupTemps, managerFixture, shExt, stopManagers, tempDir, until, writeExt } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

const HOSTILE = path.resolve(__dirname, '../fixtures/hostile');
afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** A project and zut home with one Manager over them (hostVersion 1.0.0, no auto-restart). */
function setup(opts: Partial<ManagerOptions> = {}) {
  const s = managerFixture({ hostVersion: '1.0.0', autoRestart: false, ...opts }, 'zut-hostile-');
  return { ...s, m: s.make() };
}

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const figure = (line: string): void => console.log(`[hostile] ${line}`);

function floodExt(root: string, cfg: Record<string, unknown> & { name: string }): string {
  return writeExt(root, cfg.name, { name: cfg.name, exec: process.execPath, args: [path.join(HOSTILE, 'flood.mjs'), JSON.stringify(cfg)] });
}

const notes = (ui: RecordingUi, ext: string): string[] => ui.of('notify').filter((c) => c.ext === ext).map((c) => c.args[1] as string);

describe('hostile: floods are bounded', () => {
  it('a register_tool / register_command flood after ready: 128 of each kept, one diagnostic per kind, still working', async () => {
    const s = setup();
    floodExt(s.exts, { name: 'regflood', kind: 'registrations', count: 20_000, marker: 'flood done' });
    const rss0 = process.memoryUsage().rss;
    const t0 = Date.now();
    await s.m.start();
    await until(() => notes(s.ui, 'regflood').includes('flood done'), 60_000, 'the flood marker');
    const info = s.m.extensions().find((e) => e.name === 'regflood')!;
    expect(info.state).toBe('running');
    expect(info.tools).toHaveLength(MAX_TOOLS_PER_EXT);
    expect(info.commands).toHaveLength(MAX_COMMANDS_PER_EXT);
    expect(info.diagnostics.filter((d) => d.includes(`more than ${MAX_TOOLS_PER_EXT} tools`))).toHaveLength(1);
    expect(info.diagnostics.filter((d) => d.includes(`more than ${MAX_COMMANDS_PER_EXT} commands`))).toHaveLength(1);
    expect(info.diagnostics.length).toBeLessThanOrEqual(2);
    // The first registration (ping) survived and the extension still answers.
    const r = await s.m.callTool('ping', {});
    expect(r.content[0]!.text).toBe('pong');
    const rss1 = process.memoryUsage().rss;
    await s.m.stop();
    figure(`registration flood (40,000 frames): kept ${info.tools.length} tools + ${info.commands.length} commands, ${info.diagnostics.length} diagnostics, extension running; host RSS ${mib(rss0)} → ${mib(rss1)}; clean (stopped) after ${Date.now() - t0} ms`);
  }, 90_000);

  it('status / widget / note frames with ever-new keys: 64 status keys, 64 widgets of ≤ 500 lines reach the UI', async () => {
    const s = setup();
    floodExt(s.exts, { name: 'surf', kind: 'surfaces', count: 5_000, marker: 'surfaces done' });
    const t0 = Date.now();
    await s.m.start();
    await until(() => notes(s.ui, 'surf').includes('surfaces done'), 60_000, 'the flood marker');
    const statusKeys = new Set(s.ui.of('status').filter((c) => c.ext === 'surf').map((c) => c.args[0]));
    const widgets = s.ui.of('widget').filter((c) => c.ext === 'surf').map((c) => c.args[0] as WidgetSpec);
    expect(statusKeys.size).toBe(MAX_STATUS_KEYS_PER_EXT);
    expect(new Set(widgets.map((w) => w.id)).size).toBe(MAX_WIDGETS_PER_EXT);
    expect(Math.max(...widgets.map((w) => w.lines?.length ?? 0))).toBe(MAX_WIDGET_LINES);
    const info = s.m.extensions().find((e) => e.name === 'surf')!;
    expect(info.state).toBe('running');
    // One diagnostic per kind (status, widgets, widget lines), not one per frame.
    expect(info.diagnostics).toHaveLength(3);
    figure(`surface flood (15,000 frames): ${statusKeys.size} status keys, ${widgets.length} widget frames (≤ ${MAX_WIDGET_LINES} lines) passed, ${info.diagnostics.length} diagnostics; notes are kept by the view (200 per extension); ${Date.now() - t0} ms to the marker`);
  }, 90_000);

  it('an endless flood of new status keys: memory stays flat while the host keeps up (100,000 frames)', async () => {
    const s = setup();
    floodExt(s.exts, { name: 'endless', kind: 'endless' });
    await s.m.start();
    const tick = (n: number) => () => notes(s.ui, 'endless').includes(`tick ${n}`);
    await until(tick(20), 60_000, 'tick 20');
    const heap20 = process.memoryUsage().heapUsed;
    const rss20 = process.memoryUsage().rss;
    await until(tick(100), 120_000, 'tick 100');
    const heap100 = process.memoryUsage().heapUsed;
    const rss100 = process.memoryUsage().rss;
    const info = s.m.extensions().find((e) => e.name === 'endless')!;
    expect(info.state).toBe('running');
    expect(new Set(s.ui.of('status').filter((c) => c.ext === 'endless').map((c) => c.args[0])).size).toBe(MAX_STATUS_KEYS_PER_EXT);
    expect(info.diagnostics).toHaveLength(1);
    const t0 = Date.now();
    await s.m.stop();
    figure(`endless status flood: frames 20,000 → 100,000: heap ${mib(heap20)} → ${mib(heap100)}, RSS ${mib(rss20)} → ${mib(rss100)}; 64 keys kept, 1 diagnostic; stopped in ${Date.now() - t0} ms`);
    // What the host keeps is bounded (counted above); the recording UI's own log is the only thing that grows.
    expect(s.ui.of('status').length).toBeLessThan(200);
  }, 200_000);
});

describe('hostile: escaped processes', () => {
  it('a setsid grandchild holding stdout/stderr and ignoring SIGTERM is gone after shutdown', async () => {
    const s = setup();
    const pidfile = path.join(tempDir('zut-escape-'), 'grandchild.pid');
    writeExt(s.exts, 'escape', { name: 'escape', exec: path.join(HOSTILE, 'escape.sh'), args: [pidfile] });
    await s.m.start();
    expect(s.m.extensions()[0]!.state).toBe('running');
    const gpid = await until(() => fs.existsSync(pidfile) && Number(fs.readFileSync(pidfile, 'utf8').trim()), 10_000, 'the grandchild pid');
    expect(await isAlive(gpid)).toBe(true);
    // It really escaped the group: its session and group are its own.
    const stat = fs.readFileSync(`/proc/${gpid}/stat`, 'utf8');
    const [, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    expect(pgrp).toBe(gpid);
    expect(session).toBe(gpid);
    const t0 = Date.now();
    await s.m.stop();
    const ms = Date.now() - t0;
    expect(await isAlive(gpid)).toBe(false);
    const diag = s.m.extensions()[0]!.diagnostics.find((d) => d.includes('escaped process'));
    expect(diag).toMatch(/ended \d+ escaped process\(es\) still holding its stdio/);
    figure(`setsid grandchild (ignores SIGTERM, holds stdout): found by its stdio link, SIGTERM → 1 s → SIGKILL; gone ${ms} ms after stop began`);
  }, 30_000);

  it('a grandchild that only left the process group (setpgrp, stdio on /dev/null, ignores SIGTERM) is gone after shutdown', async () => {
    const s = setup();
    const pidfile = path.join(tempDir('zut-escape-'), 'grandchild.pid');
    writeExt(s.exts, 'pgrp', { name: 'pgrp', exec: path.join(HOSTILE, 'escape_pgrp.sh'), args: [pidfile] });
    await s.m.start();
    expect(s.m.extensions()[0]!.state).toBe('running');
    const pid = s.m.extensions()[0]!.pid!;
    const gpid = await until(() => fs.existsSync(pidfile) && Number(fs.readFileSync(pidfile, 'utf8').trim()), 10_000, 'the grandchild pid');
    expect(await isAlive(gpid)).toBe(true);
    // Its own group, the extension's session, none of the extension's stdio.
    const stat = fs.readFileSync(`/proc/${gpid}/stat`, 'utf8');
    const [, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    expect(pgrp).toBe(gpid);
    expect(session).toBe(pid);
    const links = stdioLinks(pid);
    expect(links.length).toBeGreaterThan(0);
    expect(await holdersOf(links)).not.toContain(gpid);
    const t0 = Date.now();
    await s.m.stop();
    const ms = Date.now() - t0;
    const survived = await isAlive(gpid);
    if (survived) process.kill(gpid, 'SIGKILL'); // the test leaves no orphan either way
    expect(survived).toBe(false);
    expect(s.m.extensions()[0]!.diagnostics.find((d) => d.includes('escaped process'))).toMatch(/ended 1 escaped process\(es\) still holding its stdio or in its session: \d+/);
    figure(`setpgrp grandchild (same session, stdio on /dev/null, ignores SIGTERM): found by its session id; gone ${ms} ms after stop began`);
  }, 30_000);

  it('the same grandchild is also ended when the extension crashes (not only on stop)', async () => {
    const s = setup();
    const pidfile = path.join(tempDir('zut-escape-'), 'grandchild.pid');
    writeExt(s.exts, 'escape', { name: 'escape', exec: path.join(HOSTILE, 'escape.sh'), args: [pidfile] });
    await s.m.start();
    const gpid = await until(() => fs.existsSync(pidfile) && Number(fs.readFileSync(pidfile, 'utf8').trim()), 10_000, 'the grandchild pid');
    const pid = s.m.extensions()[0]!.pid!;
    process.kill(pid, 'SIGKILL');
    await until(() => s.m.extensions()[0]!.state === 'crashed', 10_000, 'crashed');
    await until(() => s.m.extensions()[0]!.diagnostics.some((d) => d.includes('escaped process')), 10_000, 'the sweep');
    expect(await isAlive(gpid)).toBe(false);
  }, 30_000);
});

/** Runs the CLI bundle. */
async function runCli(args: string[], zutHomeDir: string): Promise<Run> {
  return runProcess(process.execPath, [builtCli(), ...args], { env: isolatedEnv(path.dirname(zutHomeDir), zutHomeDir) });
}

describe('careless: slow starts', () => {
  it('a hello after 11 s starts normally with the default deadline (60 s), shown as starting meanwhile; the CLI too', async () => {
    const s = setup();
    const dir = writeExt(s.exts, 'late', { name: 'late', exec: path.join(HOSTILE, 'late_hello.py'), args: ['11', 'late'] });
    const t0 = Date.now();
    // The headless CLI (the real bundle) runs the same extension at the same time.
    const cli = runCli(['command', '--ext', dir, 'late'], s.home);
    const started = s.m.start();
    const waiting = await until(() => s.m.extensions().find((e) => e.state === 'starting' && e.startingSince !== undefined), 5_000, 'starting');
    expect(waiting.startingSince).toBeGreaterThanOrEqual(t0 - 1);
    const report = await started;
    expect(report.ready).toEqual(['late']);
    expect(report.errors).toEqual([]);
    const info = s.m.extensions()[0]!;
    expect(info.state).toBe('running');
    expect(info.startingSince).toBeUndefined();
    expect((await s.m.invokeCommand('late', '')).display).toBe('late but here');
    const ranCli = await cli;
    expect(ranCli.stdout).toContain('late but here');
    expect(ranCli.code).toBe(0);
    figure(`hello after 11 s: started normally after ${Date.now() - t0} ms (default deadline 60 s), in the Manager and in zut-host`);
  }, 40_000);

  it('the configured deadline applies: a hello after 1.5 s fails a 0.5 s deadline and passes a 5 s one', async () => {
    const fast = setup({ helloTimeoutMs: 500 });
    writeExt(fast.exts, 'late', { name: 'late', exec: path.join(HOSTILE, 'late_hello.py'), args: ['1.5', 'late'] });
    const r1 = await fast.m.start();
    expect(r1.errors[0]?.message).toMatch(/no hello frame within 0\.5s/);
    const slow = setup({ helloTimeoutMs: 5_000 });
    writeExt(slow.exts, 'late', { name: 'late', exec: path.join(HOSTILE, 'late_hello.py'), args: ['1.5', 'late'] });
    const r2 = await slow.m.start();
    expect(r2.ready).toEqual(['late']);
  }, 30_000);
  it('a stop gives up a start in progress: an extension that never says hello does not hold it up to its deadline', async () => {
    const s = setup({ helloTimeoutMs: 30_000 });
    const gfile = path.join(tempDir('zut-mute-'), 'grandchild.pid');
    writeExt(s.exts, 'mute', { name: 'mute', exec: process.execPath, args: [NODE_FIXTURE, JSON.stringify({ name: 'mute', before: 'sleep', grandchild: gfile })] });
    const started = s.m.start();
    const gpid = await until(() => fs.existsSync(gfile) && Number(fs.readFileSync(gfile, 'utf8')), 10_000, 'the grandchild pid');
    const t0 = Date.now();
    await s.m.stop();
    const ms = Date.now() - t0;
    const report = await started;
    expect(ms).toBeLessThan(3_000);
    expect(report.errors).toEqual([{ ext: 'mute', message: expect.stringMatching(/^load mute \(.*\): start given up: the host is stopping$/) }]);
    await until(async () => !(await isAlive(gpid)), 2_000, 'its child gone');
    figure(`stop during a start that never ends: stopped in ${ms} ms (start deadline 30 s)`);
  }, 60_000);

  it('an extension that closes stdout before hello fails its start at once, naming it, not at the deadline', async () => {
    const s = setup({ helloTimeoutMs: 20_000 });
    // Closes stdout, keeps running (and keeps stderr): only the EOF says nothing more will come.
    const script = '#!/bin/sh\necho "closing stdout" >&2\nexec >&-\nexec sleep 60\n';
    const dir = writeExt(s.exts, 'mute', { name: 'mute', exec: './run.sh' }, { 'run.sh': script });
    const t0 = Date.now();
    const report = await s.m.start();
    const ms = Date.now() - t0;
    expect(report.ready).toEqual([]);
    expect(report.errors[0]?.message).toMatch(/^load mute \(.*\): stdout closed \(EOF\) \(stderr log: .*ext-mute\.log\)$/);
    expect(report.errors[0]?.message).toContain(dir);
    expect(ms).toBeLessThan(5_000);
    expect(s.m.extensions()[0]!.state).toBe('error');
    figure(`stdout closed before hello: start failed after ${ms} ms (deadline 20 s)`);
  }, 40_000);
});

describe('careless: invalid tool names', () => {
  it('names no model accepts get valid model-facing names; the extension is still called by its own names', async () => {
    const s = setup();
    writeExt(s.exts, 'badnames', { name: 'badnames', exec: process.execPath, args: [path.join(HOSTILE, 'badnames.mjs')] });
    await s.m.start();
    const zutNames = s.m.tools().map((t) => t.name);
    expect(zutNames.sort()).toEqual(['fine_name', 'my tool!', 'x'.repeat(300), 'zut.chat'].sort());
    const names = modelNames(s.m);
    const offered = zutNames.map((n) => names.toModel(n)!);
    for (const m of offered) expect(m).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(offered.map((m) => m.toLowerCase())).size).toBe(4);
    expect(names.toModel('fine_name')).toBe('fine_name');
    for (const model of offered) {
      const zut = names.toZut(model)!;
      const r = await s.m.callTool(zut, {});
      expect(r.content[0]!.text).toBe(`called as ${zut}`);
    }
    figure(`invalid tool names: offered as ${offered.map((m) => (m.length > 24 ? `${m.slice(0, 21)}…(${m.length})` : m)).join(', ')}; each call reached the extension under its own name`);
  });
});

describe('consent for project-local extensions', () => {
  function consentSetup(mode: ConsentMode = 'ask') {
    const choices = new MemoryChoices();
    const state = { mode };
    const s = setup({ consent: { mode: () => state.mode, choices } });
    return { ...s, choices, state };
  }

  it('a new project extension waits; a global one never asks; Allow starts it; the answer is remembered', async () => {
    const s = consentSetup();
    shExt(s.projectExts, 'proj');
    shExt(s.exts, 'glob');
    const asked: string[][] = [];
    s.m.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    const report = await s.m.start();
    expect(report.ready).toEqual(['glob']);
    const state = (n: string) => s.m.extensions().find((e) => e.name === n)!.state;
    expect(state('proj')).toBe('consent');
    expect(state('glob')).toBe('running');
    expect(asked).toEqual([['proj']]);
    expect(s.m.pendingConsent().map((e) => e.name)).toEqual(['proj']);

    await s.m.answerConsent(['proj'], 'allow');
    expect(state('proj')).toBe('running');
    await s.m.reload();
    expect(state('proj')).toBe('running');
    expect(asked).toHaveLength(1);
  });

  it('manifest changed under consent: the watcher path restarts it into "waiting for consent" again; so does a changed executable', async () => {
    const s = consentSetup();
    const dir = shExt(s.projectExts, 'proj', { comment: 'proj' }); // the line an agent edits below
    let asks = 0;
    s.m.onDidRequestConsent(() => asks++);
    await s.m.start();
    await s.m.answerConsent(['proj'], 'allow');
    const state = () => s.m.extensions().find((e) => e.name === 'proj')!.state;
    expect(state()).toBe('running');
    const fp1 = s.m.extensions()[0]!.fingerprint;

    const manifest = path.join(dir, 'extension.json');
    fs.writeFileSync(manifest, JSON.stringify({ name: 'proj', exec: './run.sh', description: 'changed by git pull' }));
    const r1 = await s.m.applyChanges([manifest]);
    expect(r1).toEqual({ reloaded: false, restarted: ['proj'] });
    expect(state()).toBe('consent');
    expect(s.m.extensions()[0]!.pid).toBeUndefined();
    expect(s.m.extensions()[0]!.fingerprint).not.toBe(fp1);
    expect(asks).toBe(2);
    await s.m.answerConsent(['proj'], 'allow');
    expect(state()).toBe('running');

    fs.writeFileSync(path.join(dir, 'run.sh'), fs.readFileSync(path.join(dir, 'run.sh'), 'utf8').replace('# ', '# edited by an agent '));
    const r2 = await s.m.applyChanges([path.join(dir, 'run.sh')]);
    expect(r2.restarted).toEqual(['proj']);
    expect(state()).toBe('consent');
    expect(asks).toBe(3);
  });

  it("Don't Allow is remembered until the content changes; revoke asks again; trustedWorkspace starts without asking", async () => {
    const s = consentSetup();
    shExt(s.projectExts, 'proj');
    await s.m.start();
    await s.m.answerConsent(['proj'], 'deny');
    const state = () => s.m.extensions().find((e) => e.name === 'proj')!.state;
    expect(state()).toBe('denied');
    await s.m.reload();
    expect(state()).toBe('denied');
    await s.m.answerConsent(['proj'], 'allow');
    expect(state()).toBe('running');
    await s.m.revokeConsent('proj');
    expect(state()).toBe('consent');
    expect(s.m.extensions()[0]!.pid).toBeUndefined();

    s.state.mode = 'trustedWorkspace';
    const r = await s.m.reload();
    expect(r.ready).toEqual(['proj']);
    expect(s.m.extensions()[0]!.fingerprint).toBeUndefined();
  });

  it('Disable (Workspace) is a local choice (the manifest is untouched); Stop / Start', async () => {
    const s = consentSetup('trustedWorkspace');
    const dir = shExt(s.projectExts, 'proj');
    const before = fs.readFileSync(path.join(dir, 'extension.json'), 'utf8');
    await s.m.start();
    const info = () => s.m.extensions().find((e) => e.name === 'proj')!;
    await s.m.setDisabledInWorkspace('proj', true);
    expect(info().state).toBe('disabled');
    expect(info().disabledInWorkspace).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8')).toBe(before);
    await s.m.reload();
    expect(info().state).toBe('disabled');
    await s.m.setDisabledInWorkspace('proj', false);
    expect(info().state).toBe('running');

    await s.m.stopExtension('proj');
    expect(info().state).toBe('stopped');
    expect(info().pid).toBeUndefined();
    // A watcher event for its executable does not bring a user-stopped extension back.
    expect((await s.m.applyChanges([path.join(dir, 'run.sh')])).restarted).toEqual([]);
    await s.m.startExtension('proj');
    expect(info().state).toBe('running');
  });
});

describe('one reload path', () => {
  it('reloads requested while one runs coalesce into one more; every load is reported once', async () => {
    const s = setup();
    shExt(s.exts, 'one');
    const loads: string[] = [];
    s.m.onDidLoad(({ what }) => loads.push(what));
    await s.m.start();
    // The first reload has begun once its extension left "running" (seen by the change event, not by polling).
    const begun = new Promise<void>((resolve) => s.m.onDidChangeExtensions(() => s.m.extensions()[0]?.state !== 'running' && resolve()));
    const first = s.m.reload();
    await begun;
    const more = await Promise.all([s.m.reload(), s.m.reload(), s.m.reload()]);
    await first;
    expect(loads).toEqual(['start', 'reload', 'reload']);
    expect(more[0]).toBe(more[2]);
    expect(await first).not.toBe(more[0]);
    expect(s.m.lastReport()).toBe(more[0]);
    expect(s.m.extensions()[0]!.state).toBe('running');
  });

  it('the watcher decision: a new extension directory reloads, our own earlier changes do nothing', async () => {
    const s = setup();
    shExt(s.exts, 'one');
    await s.m.start();
    expect(await s.m.applyChanges([path.join(s.exts, 'one', 'extension.json')])).toEqual({ reloaded: false, restarted: [] });
    shExt(s.exts, 'two');
    expect(await s.m.applyChanges([path.join(s.exts, 'two')])).toEqual({ reloaded: true, restarted: [] });
    expect(s.m.extensions().map((e) => `${e.name}=${e.state}`).sort()).toEqual(['one=running', 'two=running']);
    expect(await s.m.applyChanges([path.join(s.exts, 'two')])).toEqual({ reloaded: false, restarted: [] });
  });

  it('a "Save All" reported twice restarts once; a change after the new process starts restarts again', async () => {
    const s = setup();
    const dir = shExt(s.exts, 'one');
    const run = path.join(dir, 'run.sh');
    await s.m.start();
    fs.appendFileSync(run, '\n# edited\n');
    // Two reports of the same edit back to back (a save, then the watcher's event for it): the second's turn comes
    // after the first restart, whose process already runs the edit.
    const [first, second] = await Promise.all([s.m.applyChanges([run]), s.m.applyChanges([run])]);
    expect([first, second]).toEqual([{ reloaded: false, restarted: ['one'] }, { reloaded: false, restarted: [] }]);
    expect(s.m.extensions()[0]!.state).toBe('running');
    // An edit after that process started is new to it.
    fs.appendFileSync(run, '# edited again\n');
    expect(await s.m.applyChanges([run])).toEqual({ reloaded: false, restarted: ['one'] });
    // A late event for a file older than the running process (its mtime well before the spawn, not a whole second).
    const old = (Date.now() - 10_000 + 0.5) / 1000;
    fs.utimesSync(run, old, old);
    expect(await s.m.applyChanges([run])).toEqual({ reloaded: false, restarted: [] });
  });

  it("a restart of one extension never hides another's pending change (its manifest, a new directory)", async () => {
    const s = setup();
    const a = shExt(s.exts, 'a');
    const b = shExt(s.exts, 'b');
    await s.m.start();
    // b's manifest and a new directory c change, then a's executable is saved: a's restart comes first.
    fs.writeFileSync(path.join(b, 'extension.json'), JSON.stringify({ name: 'b', exec: './run.sh', description: 'edited' }));
    shExt(s.exts, 'c');
    fs.appendFileSync(path.join(a, 'run.sh'), '\n# edited\n');
    expect(await s.m.applyChanges([path.join(a, 'run.sh')])).toEqual({ reloaded: false, restarted: ['a'] });
    // Their own events, in a later quiet period, still find them changed.
    expect(await s.m.applyChanges([path.join(b, 'extension.json')])).toEqual({ reloaded: false, restarted: ['b'] });
    expect(s.m.extensions().find((e) => e.name === 'b')!.description).toBe('edited');
    expect(await s.m.applyChanges([path.join(s.exts, 'c')])).toEqual({ reloaded: true, restarted: [] });
    expect(s.m.extensions().map((e) => `${e.name}=${e.state}`).sort()).toEqual(['a=running', 'b=running', 'c=running']);
    // And nothing twice: the same events again do nothing.
    expect(await s.m.applyChanges([path.join(b, 'extension.json'), path.join(s.exts, 'c')])).toEqual({ reloaded: false, restarted: [] });
  });

  it('a broken manifest found by a reload, then fixed: the restart clears its problems (the Problems entry goes)', async () => {
    const s = setup();
    const dir = shExt(s.exts, 'one');
    const manifest = path.join(dir, 'extension.json');
    const good = fs.readFileSync(manifest, 'utf8');
    await s.m.start();
    const one = () => s.m.extensions().find((e) => e.name === 'one')!;
    fs.writeFileSync(manifest, JSON.stringify({ name: 'one', exec: './missing.sh' }));
    // Read by a reload (another directory came in the same quiet period): discovery's diagnostic plus the start error.
    shExt(s.exts, 'two');
    expect(await s.m.applyChanges([manifest, path.join(s.exts, 'two')])).toEqual({ reloaded: true, restarted: [] });
    expect(one().state).toBe('error');
    expect(one().diagnostics).toEqual([expect.stringMatching(/missing\.sh/)]);
    fs.writeFileSync(manifest, good);
    expect(await s.m.applyChanges([manifest])).toEqual({ reloaded: false, restarted: ['one'] });
    expect(one().state).toBe('running');
    expect(one().diagnostics).toEqual([]);
    // Broken again through the restart path: its diagnostic comes back with the reading, and goes with the fix.
    fs.writeFileSync(manifest, JSON.stringify({ name: 'one', exec: './missing.sh' }));
    expect((await s.m.applyChanges([manifest])).restarted).toEqual(['one']);
    expect(one().diagnostics).toEqual([expect.stringMatching(/missing\.sh/)]);
    fs.writeFileSync(manifest, good);
    expect((await s.m.applyChanges([manifest])).restarted).toEqual(['one']);
    expect([one().state, one().diagnostics]).toEqual(['running', []]);
  });
});
