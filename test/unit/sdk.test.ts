/**
 * The TypeScript SDK's runtime (packages/sdk), built as it ships (one ESM bundle), against the REAL host: the
 * Manager spawns extensions written with it (the sdk-demo example and fixtures below) as child processes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import { RequestError } from '../../src/host/types';
import { alive, cleanupTemps, RecordingUi, tempDir, until, writeExt, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';
import { EXAMPLES_DIR } from '../helpers/stdioDriver';

let sdkJs: string;

beforeAll(async () => {
  const { bundleSdkRuntime } = await import('../../scripts/sdk.mjs');
  sdkJs = path.join(tempDir('zut-sdk-build-'), 'index.js');
  await bundleSdkRuntime(sdkJs);
});
afterEach(async () => {
  await stopManagers();
});
afterAll(cleanupTemps);

/** An extension dir whose main.mjs imports the freshly built SDK from ./sdk/index.js. */
function sdkExt(root: string, name: string, main: string): string {
  const dir = writeExt(root, name, { name, version: '1.0.0', exec: './main.mjs' }, { 'main.mjs': main, 'package.json': '{"type":"module"}' });
  fs.mkdirSync(path.join(dir, 'sdk'));
  fs.copyFileSync(sdkJs, path.join(dir, 'sdk', 'index.js'));
  return dir;
}

async function start(dirs: string[]): Promise<{ m: Manager; ui: RecordingUi; home: string; frames: string[] }> {
  const { home } = zutHome();
  const ui = new RecordingUi();
  const m = new Manager({ folders: [], zutHome: home, extensionPaths: dirs, ui, hostVersion: '0.0.0-test', autoRestart: false, commandTimeoutMs: 5000, toolTimeoutMs: 5000, trace: 'verbose' });
  keepManager(m);
  const frames: string[] = [];
  m.onDidLog((l) => void (l.kind === 'in' && frames.push(l.text)));
  const report = await m.start();
  expect(report.errors).toEqual([]);
  return { m, ui, home, frames };
}

/** The sdk-demo example with the SDK just built (a temp copy, so its own sdk/ copy is not what is tested). */
function demoCopy(): string {
  const dir = path.join(tempDir('zut-sdk-demo-'), 'sdk-demo');
  fs.cpSync(path.join(EXAMPLES_DIR, 'sdk-demo'), dir, { recursive: true });
  fs.copyFileSync(sdkJs, path.join(dir, 'sdk', 'index.js'));
  return dir;
}

describe('SDK runtime with the real host: the sdk-demo example', () => {
  it('handshakes (hello with capabilities, registrations, ready) and answers commands: display, and noop + error', async () => {
    const { m } = await start([demoCopy()]);
    const info = m.extensions()[0]!;
    expect(info).toMatchObject({ name: 'sdk-demo', state: 'running', readyMode: 'ready' });
    expect(info.capabilities).toEqual(expect.arrayContaining(['commands', 'tools', 'tool_cancel', 'panels']));
    expect(info.commands.map((c) => c.name)).toEqual(['sdk-hello', 'sdk-count']);
    expect(info.tools.map((t) => [t.name, t.interactive])).toEqual([['sdk_approve', true], ['sdk_wait', false], ['sdk_tally', false]]);
    expect(info.tools[0]!.schema).toEqual({ type: 'object', properties: { action: { type: 'string' } }, required: ['action'] });
    expect(await m.invokeCommand('sdk-hello', 'Ada')).toMatchObject({ action: 'display', display: 'Hello, Ada! (from the zut SDK)' });
    expect(await m.invokeCommand('sdk-hello', '')).toMatchObject({ action: 'noop', error: 'usage: /sdk-hello NAME' });
  });

  it('panels: openPanel, onKey, render, close; an interactive tool answered through the panel', async () => {
    const { m, ui } = await start([demoCopy()]);
    await m.invokeCommand('sdk-count', '');
    const open = await until(() => ui.of('openPanel')[0], 5000, 'open_panel');
    expect(open.args[0]).toEqual({ id: 'sdk-count', title: 'Counter', lines: ['count: 0'], footer: 'up/down change - enter done' });
    m.panelKey('sdk-demo', 'sdk-count', 'up');
    m.panelKey('sdk-demo', 'sdk-count', 'up');
    m.panelKey('sdk-demo', 'sdk-count', 'down');
    await until(() => ui.of('panelRender').length === 3, 5000, 'three renders');
    expect(ui.of('panelRender').map((c) => (c.args[0] as { lines: string[] }).lines[0])).toEqual(['count: 1', 'count: 2', 'count: 1']);
    m.panelKey('sdk-demo', 'sdk-count', 'enter');
    await until(() => ui.of('notify').length === 1, 5000, 'notify');
    expect(ui.of('panelClose').map((c) => c.args[0])).toEqual(['sdk-count']);
    expect(ui.of('notify')[0]!.args).toEqual(['success', 'counted to 1']);

    const call = m.callTool('sdk_approve', { action: 'deploy' });
    const approve = await until(() => ui.of('openPanel')[1], 5000, 'approve panel');
    const panel = approve.args[0] as { id: string; lines: string[] };
    expect(panel.lines).toEqual(['Allow deploy?']);
    m.panelKey('sdk-demo', panel.id, 'rune', 'y');
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'approved: deploy' }], isError: false });
  });

  it('tool_cancel aborts the handler\'s AbortSignal and a late result is discarded; details become session state', async () => {
    const { m, home, frames } = await start([demoCopy()]);
    const ac = new AbortController();
    const call = m.callTool('sdk_wait', { ms: 60_000 }, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 200));
    ac.abort();
    await expect(call).rejects.toBeInstanceOf(RequestError);
    const log = path.join(home, 'logs', 'ext-sdk-demo.log');
    await until(() => fs.existsSync(log) && /sdk_wait \S+ cancelled/.test(fs.readFileSync(log, 'utf8')), 5000, 'cancel logged');
    expect((await m.callTool('sdk_tally', {})).content[0]!.text).toBe('tally: 1');
    expect((await m.callTool('sdk_tally', {})).content[0]!.text).toBe('tally: 2');
    // The handler resolved after the abort: that result was never sent (only the two tallies' results were).
    expect(frames.filter((f) => f.includes('"type":"tool_result"'))).toHaveLength(2);
    expect(Object.values(m.exportState())).toEqual([{ 'sdk-demo': { count: 2 } }]);
  });
});

const FIXTURE = `#!/usr/bin/env node
import * as fs from 'node:fs';
import { createExtension } from './sdk/index.js';
const ext = createExtension({ name: 'sdkfix', version: '2.0.0', capabilities: ['alerts'] });
ext.command('boom', 'throws', () => { throw new Error('kaput'); });
ext.command('say', 'one-way frames', async (args) => {
  ext.notify('hi ' + args, 'warn');
  ext.status('phase', 'busy', 'info');
  ext.widget({ id: 'w', title: 'W', lines: ['a'] });
  ext.alert('look');
  ext.submit('a prompt');
  return { insert: 'inserted' };
});
ext.tool({ name: 'explode', description: 'throws' }, async () => { throw new Error('tool kaput'); });
ext.tool({ name: 'blocks', description: 'content blocks', annotations: { readOnlyHint: true } }, () => [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }]);
ext.on('turn_start', (e) => ext.notify('turn ' + e.step));
ext.intercept('tool_call', (e) => (e.tool_name === 'danger' ? { block: true, reason: 'no danger' } : e.tool_name === 'rewrite' ? { modifiedArgs: { n: 2 } } : undefined));
ext.intercept('turn_start', () => ({ context: 'extra context' }));
ext.onShutdown(() => fs.writeFileSync(process.env.MARK, 'clean'));
await ext.start();
ext.log.info('started for', ext.hostInfo.cwd);
`;

describe('SDK runtime with the real host: errors, one-way frames, events, interception, shutdown', () => {
  it('a throwing command answers noop + error; a throwing tool answers is_error with the message', async () => {
    const root = tempDir();
    const { m } = await start([sdkExt(root, 'sdkfix', FIXTURE)]);
    expect(await m.invokeCommand('boom', '')).toMatchObject({ action: 'noop', error: 'kaput' });
    expect(await m.callTool('explode', {})).toMatchObject({ isError: true, content: [{ type: 'text', text: 'tool kaput' }] });
    expect((await m.callTool('blocks', {})).content).toEqual([{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }]);
    expect(m.allTools().find((t) => t.name === 'blocks')!.annotations).toEqual({ readOnlyHint: true });
    expect(m.extensions()[0]!.capabilities).toEqual(expect.arrayContaining(['alerts', 'commands', 'tools']));
  });

  it('notify, status, widget, alert, submit reach the host UI; command results map to actions', async () => {
    const root = tempDir();
    const { m, ui } = await start([sdkExt(root, 'sdkfix', FIXTURE)]);
    expect(await m.invokeCommand('say', 'you')).toMatchObject({ action: 'insert', insert: 'inserted' });
    await until(() => ui.of('submit').length === 1, 5000, 'submit');
    expect(ui.of('notify')[0]!.args).toEqual(['warn', 'hi you']);
    expect(ui.of('status')[0]!.args).toEqual(['phase', 'info', 'busy']);
    expect(ui.of('widget')[0]!.args).toEqual([{ id: 'w', title: 'W', lines: ['a'] }]);
    expect(ui.of('alert')[0]!.args).toEqual(['bell', 'look']);
    expect(ui.of('submit')[0]!.args).toEqual(['a prompt']);
  });

  it('on() receives subscribed events; intercept() blocks, rewrites, adds context; others pass', async () => {
    const root = tempDir();
    const { m, ui } = await start([sdkExt(root, 'sdkfix', FIXTURE)]);
    const info = m.extensions()[0]!;
    expect(info.subscriptions).toEqual(['turn_start']);
    expect(info.interceptions).toEqual(['tool_call', 'turn_start']);
    m.emit({ event: 'turn_start', step: 3 });
    await until(() => ui.of('notify').some((c) => c.args[1] === 'turn 3'), 5000, 'event handler');
    const verdict = async (name: string, input: unknown) => (await m.guardTool({ name, input })).verdict;
    expect(await verdict('danger', {})).toMatchObject({ blocked: { ext: 'sdkfix', reason: 'no danger' } });
    expect(await verdict('rewrite', { n: 1 })).toEqual({ input: { n: 2 }, rewrittenBy: ['sdkfix'] });
    expect(await verdict('fine', { n: 1 })).toEqual({ input: { n: 1 }, rewrittenBy: [] });
    expect((await m.interceptTurnStart(1)).context).toContain('extra context');
  });

  it('shutdown runs the shutdown handlers, acknowledges and exits 0 (no kill needed)', async () => {
    const root = tempDir();
    const mark = path.join(root, 'mark');
    process.env.MARK = mark;
    try {
      const { m, home } = await start([sdkExt(root, 'sdkfix', FIXTURE)]);
      const pid = m.extensions()[0]!.pid!;
      await m.stop();
      expect(fs.readFileSync(mark, 'utf8')).toBe('clean');
      expect(alive(pid)).toBe(false);
      const log = fs.readFileSync(path.join(home, 'logs', 'ext-sdkfix.log'), 'utf8');
      expect(log).toContain('[sdkfix] info: started for');
      expect(log).not.toMatch(/SIGTERM|SIGKILL|did not acknowledge/i);
    } finally {
      delete process.env.MARK;
    }
  });
});
