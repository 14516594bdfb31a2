import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_TRUNCATED_MARKER } from '../../src/host/calls/intercept';
import { Manager } from '../../src/host/manager';
import { projectDataDir } from '../../src/host/disk/paths';
import type { ManagerOptions } from '../../src/host/api';
import { RequestError } from '../../src/host/types';
import { FIXTURES, alive, cleanupTemps, managerFixture, nodeExt, stopManagers, until, writeExt } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** A project and zut home; `make()` builds a Manager over them (hostVersion 9.9.9, provider and model set). */
const setup = (opts: Partial<ManagerOptions> = {}) => managerFixture({ provider: 'test-vendor', model: 'test-model', ...opts });

/** Tool `events` of a fixture returns what it received so far. */
async function received(m: Manager, tool: string): Promise<Array<Record<string, unknown>>> {
  const r = await m.callTool(tool, {});
  return JSON.parse(r.content[0]!.text!) as Array<Record<string, unknown>>;
}

describe('Manager: loading', () => {
  it('loads in parallel, reports errors, lists theme-only and never spawns it', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'good', commands: [{ name: 'hi' }] });
    writeExt(s.exts, 'broken', { name: 'broken', exec: path.join(FIXTURES, 'exit23.sh') });
    writeExt(s.exts, 'themey', { name: 'themey' }, { 'theme.json': '{}' });
    const m = s.make();
    const report = await m.start();
    expect(report.ready).toEqual(['good']);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.message).toMatch(/^load broken \(.*broken\): extension exited before hello: exit status 23 \(stderr log: .*ext-broken\.log\)$/);
    const infos = Object.fromEntries(m.extensions().map((e) => [e.name, e]));
    expect(infos.good!.state).toBe('running');
    expect(infos.broken!.state).toBe('error');
    expect(infos.themey!.state).toBe('theme-only');
    expect(infos.themey!.pid).toBeUndefined();
  });

  it('hello_ack carries version, provider, model, the project folder as cwd, extension_dir, data_dir (outside the repository), session', async () => {
    const s = setup();
    const dir = nodeExt(s.projectExts, { name: 'ack', tools: [{ name: 'ack_events', mode: 'events' }] });
    const m = s.make();
    m.setSession({ id: 'branch-1', parent_id: 'root-1' });
    await m.start();
    const [ack] = await received(m, 'ack_events');
    expect(ack).toMatchObject({ type: 'hello_ack', protocol_version: 2, zut_version: '9.9.9', provider: 'test-vendor', model: 'test-model', cwd: s.project, extension_dir: dir, data_dir: projectDataDir(s.home, dir, 'ack'), session: { id: 'branch-1', parent_id: 'root-1' } });
  });

  it('an untrusted workspace blocks project extensions; global ones run', async () => {
    const s = setup({ isTrusted: () => false });
    nodeExt(s.projectExts, { name: 'local' });
    nodeExt(s.exts, { name: 'global' });
    const m = s.make();
    await m.start();
    const st = Object.fromEntries(m.extensions().map((e) => [e.name, e.state]));
    expect(st).toEqual({ local: 'blocked', global: 'running' });
  });
});

describe('Manager: commands and tools', () => {
  it('commands match case-insensitively and are invoked with the canonical spelling (Python fixture)', async () => {
    const s = setup();
    writeExt(s.exts, 'pyext', { name: 'pyext', exec: 'python3', args: [path.join(FIXTURES, 'pyext.py')] });
    const m = s.make();
    await m.start();
    const r = await m.invokeCommand('gREET', '  world  ');
    expect(r).toMatchObject({ ext: 'pyext', action: 'display', display: 'invoked as Greet with world' });
  });

  it('command and tool conflicts: first in load order wins, the loser gets a diagnostic', async () => {
    const s = setup();
    nodeExt(s.projectExts, { name: 'first', commands: [{ name: 'Deploy' }], tools: [{ name: 'lookup' }] });
    nodeExt(s.exts, { name: 'second', commands: [{ name: 'deploy' }], tools: [{ name: 'LOOKUP' }] });
    const m = s.make();
    await m.start();
    expect(m.commands().map((c) => `${c.ext}:${c.name}`)).toEqual(['first:Deploy']);
    expect(m.tools().map((t) => `${t.ext}:${t.name}`)).toEqual(['first:lookup']);
    const second = m.extensions().find((e) => e.name === 'second')!;
    expect(second.diagnostics.join('\n')).toContain('command /deploy conflicts with /Deploy from extension "first"');
    expect(second.diagnostics.join('\n')).toContain('tool LOOKUP conflicts with lookup from extension "first"');
    expect((await m.callTool('lookup', { q: 1 })).ext).toBe('first');
  });

  it('reserved tool names are refused with a diagnostic', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'greedy', tools: [{ name: 'bash' }, { name: 'web_search' }, { name: 'fine' }] });
    const m = s.make();
    await m.start();
    expect(m.allTools().map((t) => t.name)).toEqual(['fine']);
    expect(m.extensions()[0]!.diagnostics.join('\n')).toMatch(/tool bash refused: the name is reserved/);
  });

  it('tool timeout rejects; an interactive tool is not timed out; tool_cancel only with the capability', async () => {
    const s = setup({ toolTimeoutMs: 200 });
    nodeExt(s.exts, { name: 'withcancel', capabilities: ['tools', 'tool_cancel'], tools: [{ name: 'hang', mode: 'never' }, { name: 'seen', mode: 'events' }] });
    nodeExt(s.exts, { name: 'nocancel', tools: [{ name: 'hang2', mode: 'never' }, { name: 'seen2', mode: 'events' }, { name: 'ask', mode: 'slow', interactive: true }] });
    const m = s.make();
    await m.start();
    const e1 = await m.callTool('hang', {}).catch((e: unknown) => e);
    expect((e1 as RequestError).kind).toBe('timeout');
    const ac = new AbortController();
    const p = m.callTool('hang2', {}, { signal: ac.signal, timeoutMs: 60_000 });
    ac.abort();
    expect(((await p.catch((e: unknown) => e)) as RequestError).kind).toBe('cancelled');
    const slow = await m.callTool('ask', { ms: 600 });
    expect(slow.content[0]!.text).toBe('slow done');
    expect((await received(m, 'seen')).filter((e) => e.type === 'tool_cancel')).toHaveLength(1);
    expect((await received(m, 'seen2')).filter((e) => e.type === 'tool_cancel')).toHaveLength(0);
  });

  it('cancelling an interactive tool sends tool_cancel (with the capability)', async () => {
    const s = setup({ toolTimeoutMs: 100 });
    nodeExt(s.exts, {
      name: 'asker',
      capabilities: ['tool_cancel'],
      tools: [{ name: 'ask_user', mode: 'never', interactive: true }, { name: 'hang', mode: 'never' }, { name: 'log', mode: 'events' }],
    });
    const m = s.make();
    await m.start();
    const ac = new AbortController();
    let settled = false;
    const outcome = m.callTool('ask_user', {}, { signal: ac.signal }).then(
      () => ((settled = true), undefined),
      (e: unknown) => ((settled = true), e),
    );
    // A plain call with the same timeout, made later, timing out: the interactive call's deadline would have passed.
    expect(((await m.callTool('hang', {}).catch((e: unknown) => e)) as RequestError).kind).toBe('timeout');
    expect(settled).toBe(false); // interactive tools have no deadline
    ac.abort();
    expect(((await outcome) as RequestError).kind).toBe('cancelled');
    expect((await received(m, 'log')).some((e) => e.type === 'tool_cancel')).toBe(true);
  });

  it('deferred tools appear after activate_tools; details become per-branch state, private per extension', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'loader', tools: [{ name: 'load', mode: 'activate' }, { name: 'later', deferred: true }, { name: 'keep', mode: 'details' }] });
    nodeExt(s.exts, { name: 'other', tools: [{ name: 'keep2', mode: 'details' }] });
    const m = s.make();
    await m.start();
    expect(m.tools().map((t) => t.name).sort()).toEqual(['keep', 'keep2', 'load']);
    await m.callTool('load', { names: ['later', 'nonexistent'] });
    expect(m.tools().map((t) => t.name)).toContain('later');
    const b1 = { session: { id: 'b1' } };
    const b2 = { session: { id: 'b2', parent_id: 'b1' } };
    await m.callTool('keep', { details: { v: 1 } }, b1);
    await m.callTool('keep2', { details: { mine: true } }, b1);
    await m.callTool('keep', { details: { v: 2 } }, b2);
    expect(m.getState('b1', 'loader')).toEqual({ v: 1 });
    expect(m.getState('b2', 'loader')).toEqual({ v: 2 });
    expect(m.getState('b2', 'other')).toEqual({ mine: true }); // inherited at the fork
    await m.callTool('keep', { details: null }, b2);
    expect(m.getState('b2', 'loader')).toBeUndefined();
    await m.callTool('keep', { details: { big: 'x'.repeat(300 * 1024) } }, b2);
    expect(m.getState('b2', 'loader')).toBeUndefined();
    expect(m.extensions().find((e) => e.name === 'loader')!.diagnostics.join('\n')).toMatch(/exceeds the 262144-byte cap/);
  });

  it('session events carry only the receiver\'s own state', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'sa', subscribe: { events: ['session_opened'] }, tools: [{ name: 'sa_keep', mode: 'details' }, { name: 'sa_log', mode: 'events' }] });
    nodeExt(s.exts, { name: 'sb', subscribe: { events: ['session_opened'] }, tools: [{ name: 'sb_log', mode: 'events' }] });
    const m = s.make();
    await m.start();
    await m.callTool('sa_keep', { details: { secret: 'a' } }, { session: { id: 'br' } });
    m.emitSessionEvent('session_opened', { id: 'br' });
    const a = (await received(m, 'sa_log')).find((e) => e.event === 'session_opened');
    const b = (await received(m, 'sb_log')).find((e) => e.event === 'session_opened');
    expect(a).toMatchObject({ session: { id: 'br' }, state: { secret: 'a' } });
    expect(b).toMatchObject({ session: { id: 'br' } });
    expect(b!.state).toBeUndefined();
  });
});

describe('Manager: events and interception', () => {
  it('chain order, first block wins, modified_args chain, context joined and capped on a UTF-8 boundary', async () => {
    const s = setup();
    const big = '界'.repeat(16384);
    nodeExt(s.projectExts, { name: 'a1', subscribe: { events: ['turn_start'], intercept: ['tool_call', 'turn_start'] }, intercept: { tool_call: { modified_args: { command: 'echo first' } }, turn_start: { context: 'policy A' } } });
    nodeExt(s.exts, { name: 'b2', subscribe: { intercept: ['tool_call', 'turn_start'] }, intercept: { tool_call: { block: true, reason: 'refused by b2' }, turn_start: { context: big } }, tools: [{ name: 'b2_log', mode: 'events' }] });
    const m = s.make();
    await m.start();
    const d = (await m.guardTool({ toolId: 't1', name: 'bash', input: { command: 'rm -rf /' } })).verdict;
    expect(d).toEqual({ blocked: { ext: 'b2', reason: 'refused by b2' } });
    const log = await received(m, 'b2_log');
    expect(log.filter((e) => e.type === 'event_intercept')).toHaveLength(1);
    const t = await m.interceptTurnStart(1);
    expect(t.context!.startsWith('[a1]\npolicy A\n\n[b2]\n界')).toBe(true);
    expect(t.context!.endsWith(CONTEXT_TRUNCATED_MARKER)).toBe(true);
    expect(Buffer.byteLength(t.context!)).toBeLessThanOrEqual(16 * 1024);
    expect(t.context).not.toContain('\uFFFD');
    expect(m.hasInterceptors('assistant_message')).toBe(false);
  });

  it('an interceptor that never answers is allowed after 5 s', { timeout: 15_000 }, async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'slowguard', subscribe: { intercept: ['assistant_message'] }, intercept: { assistant_message: 'never' } });
    nodeExt(s.exts, { name: 'redactor', subscribe: { intercept: ['assistant_message'] }, intercept: { assistant_message: { replace_text: '[redacted]' } } });
    const m = s.make();
    await m.start();
    const d = await m.interceptAssistantMessage('sk-secret');
    expect(d).toEqual({ text: '[redacted]' });
    expect(m.extensions().find((e) => e.name === 'slowguard')!.diagnostics.join('\n')).toMatch(/assistant_message interception timed out: allowed/);
  });

  it('events fan out to subscribers only, in order', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'sub', subscribe: { events: ['turn_start', 'turn_end'] }, tools: [{ name: 'sub_log', mode: 'events' }] });
    nodeExt(s.exts, { name: 'unsub', tools: [{ name: 'unsub_log', mode: 'events' }] });
    const m = s.make();
    await m.start();
    for (let i = 1; i <= 5; i++) m.emit({ event: 'turn_start', step: i });
    m.emit({ event: 'turn_end', stop: 'end_turn' });
    m.emit({ event: 'tool_call', tool_name: 'x' });
    const got = (await received(m, 'sub_log')).filter((e) => e.type === 'event');
    expect(got.map((e) => `${e.event}:${e.step ?? e.stop}`)).toEqual(['turn_start:1', 'turn_start:2', 'turn_start:3', 'turn_start:4', 'turn_start:5', 'turn_end:end_turn']);
    expect((await received(m, 'unsub_log')).filter((e) => e.type === 'event')).toEqual([]);
  });

  it('spontaneous frames reach the HostUi; submit is trimmed, submit_slash needs a slash', async () => {
    const s = setup();
    const script = `
const out=(o)=>process.stdout.write(JSON.stringify(o)+'\\n');
out({type:'hello',protocol_version:2,name:'chatty',version:'1'});
process.stdin.on('data',d=>{for(const l of String(d).split('\\n').filter(Boolean)){const m=JSON.parse(l);
if(m.type==='hello_ack'){out({type:'ready'});
out({type:'notify',level:'warning',message:'careful'});out({type:'status',key:'k',level:'error',text:'bad'});
out({type:'widget',id:'w',title:'W',lines:['a']});out({type:'widget_clear',id:'w'});out({type:'alert',kind:'bell',reason:'done'});
out({type:'submit',text:'  go  '});out({type:'submit',text:'   '});out({type:'submit_slash',text:'/todo add'});out({type:'submit_slash',text:'nope'});
out({type:'open_panel',panel:{id:'p',title:'P',lines:['x']}});out({type:'panel_render',panel_id:'p',lines:['y']});out({type:'panel_close',panel_id:'p'});out({type:'clear_notes'});}
if(m.type==='shutdown'){out({type:'shutdown_ack'});process.exit(0)}}});`;
    writeExt(s.exts, 'chatty', { name: 'chatty', exec: process.execPath, args: ['-e', script] });
    const m = s.make();
    await m.start();
    await until(() => s.ui.of('clearNotes').length > 0, 5000, 'clear_notes');
    expect(s.ui.calls.map((c) => c.method)).toEqual(['notify', 'status', 'widget', 'widgetClear', 'alert', 'submit', 'submitSlash', 'openPanel', 'panelRender', 'panelClose', 'clearNotes']);
    expect(s.ui.of('notify')[0]!.args).toEqual(['warn', 'careful']);
    expect(s.ui.of('submit')[0]!.args).toEqual(['go']);
    expect(m.extensions()[0]!.diagnostics.join('\n')).toMatch(/submit_slash ignored/);
  });
});

describe('Manager: crashes, restarts, shutdown', () => {
  it('a crash fails pending calls, removes commands and tools, clears the UI, and restarts', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'fragile', commands: [{ name: 'f' }], tools: [{ name: 'boom', mode: 'crash' }] });
    const m = s.make();
    const fails: string[] = [];
    m.onDidFail((f) => fails.push(`${f.kind}:${f.message}`));
    await m.start();
    const pid1 = m.extensions()[0]!.pid!;
    const err = (await m.callTool('boom', {}).catch((e: unknown) => e)) as RequestError;
    expect(err.kind).toBe('crashed');
    expect(s.ui.of('clearExtension').map((c) => c.ext)).toEqual(['fragile']);
    expect(fails[0]).toMatch(/^crash:extension fragile \(.*fragile\) exited: exit status 3 \(stderr log: /);
    await until(() => m.extensions()[0]!.state === 'running' && m.extensions()[0]!.pid !== pid1, 10_000, 'restart');
    expect(m.extensions()[0]!.restarts).toBe(1);
    expect(m.commands().map((c) => c.name)).toEqual(['f']);
  });

  it('restart policy: up to 4 restarts, gives up at the 5th crash within 3 minutes', { timeout: 30_000 }, async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'flappy', crashAfterMs: 50 });
    const m = s.make();
    const fails: string[] = [];
    m.onDidFail((f) => fails.push(f.kind));
    await m.start();
    await until(() => m.extensions()[0]!.state === 'error', 20_000, 'give up');
    expect(m.extensions()[0]!.restarts).toBe(4);
    expect(fails).toEqual(['crash', 'crash', 'crash', 'crash', 'gave-up']);
    expect(m.extensions()[0]!.error).toMatch(/crashed 5 times in 3 minutes: not restarting/);
  });

  it('no automatic restart when disabled by the setting; an exit after shutdown is not a crash', async () => {
    const s = setup({ autoRestart: false });
    nodeExt(s.exts, { name: 'once', tools: [{ name: 'die', mode: 'crash' }] });
    nodeExt(s.exts, { name: 'calm' });
    const m = s.make();
    await m.start();
    await m.callTool('die', {}).catch(() => undefined);
    await until(() => m.extensions().find((e) => e.name === 'once')!.state === 'crashed', 5000, 'crashed');
    expect(m.allTools().map((t) => t.name)).toEqual([]); // a crashed extension's tools are gone
    const calmPid = m.extensions().find((e) => e.name === 'calm')!.pid!;
    await m.stop();
    expect(alive(calmPid)).toBe(false);
    expect(m.extensions().find((e) => e.name === 'calm')!.state).toBe('stopped');
  });

  it('reload stops all, rediscovers and respawns', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'r1' });
    const m = s.make();
    await m.start();
    nodeExt(s.exts, { name: 'r2' });
    const report = await m.reload();
    expect(report).toMatchObject({ stopped: ['r1'], ready: ['r1', 'r2'], errors: [] });
  });
});

describe('Manager: serialised reloads, restart, trust shadowing', () => {
  it('two reloads at once leave exactly one running set', async () => {
    const s = setup();
    nodeExt(s.exts, { name: 'solo' });
    const m = s.make();
    await m.start();
    const pid0 = m.extensions()[0]!.pid!;
    await Promise.all([m.reload(), m.reload()]);
    const pid = m.extensions()[0]!.pid!;
    expect(alive(pid0)).toBe(false);
    expect(m.extensions()).toHaveLength(1);
    expect(alive(pid)).toBe(true);
    await m.stop();
    expect(alive(pid)).toBe(false);
  });

  it('restart re-reads the manifest (disabled → not started; broken → error; fixed → running)', async () => {
    const s = setup();
    const dir = nodeExt(s.exts, { name: 'edit', commands: [{ name: 'a' }] });
    const m = s.make();
    await m.start();
    const manifestPath = path.join(dir, 'extension.json');
    const original = fs.readFileSync(manifestPath, 'utf8');
    fs.writeFileSync(manifestPath, original.replace('"name": "edit"', '"name": "edit", "enabled": false'));
    await m.restart('edit');
    expect(m.extensions()[0]!.state).toBe('disabled');
    fs.writeFileSync(manifestPath, '{ not json');
    await m.restart('edit');
    expect(m.extensions()[0]!.state).toBe('error');
    expect(m.extensions()[0]!.error).toMatch(/^load edit \(.*\): parse manifest: /);
    fs.writeFileSync(manifestPath, original);
    await m.restart('edit');
    expect(m.extensions()[0]!.state).toBe('running');
    expect(m.commands().map((c) => c.name)).toEqual(['a']);
  });

  it('untrusted: a blocked project extension does not stop the global one of the same name', async () => {
    const s = setup({ isTrusted: () => false });
    nodeExt(s.projectExts, { name: 'twin', commands: [{ name: 'local' }] });
    nodeExt(s.exts, { name: 'twin', commands: [{ name: 'global' }] });
    const m = s.make();
    await m.start();
    expect(m.extensions().map((e) => `${e.scope}:${e.state}`)).toEqual(['project:blocked', 'global:running']);
    expect(m.commands().map((c) => c.name)).toEqual(['global']);
    expect(m.extensions()[0]!.diagnostics.join('\n')).toMatch(/blocked by Workspace Trust: the global extension .* runs instead/);
  });
});
