/** The one guarded tool path (src/host/calls/invoke.ts) against the real Manager and real fixture extensions. */
import { afterEach, describe, expect, it } from 'vitest';
import { runLoop } from '../../src/host/chat/loop';
import { Manager } from '../../src/host/manager';
import { GuardedPath, type ToolDispatch } from '../../src/host/calls/invoke';
import { ToolGuard } from '../../src/host/calls/toolGuard';
import type { Interceptor } from '../../src/host/calls/intercept';
import { RequestError, type ToolInfo } from '../../src/host/types';
import { RecordingSink, ScriptedModel, call, text } from '../fixtures/chat/helpers';
import { RecordingUi, cleanupTemps, nodeExt, until, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

async function start(configs: (Record<string, unknown> & { name: string })[]): Promise<Manager> {
  const z = zutHome();
  for (const c of configs) nodeExt(z.exts, c);
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(m);
  await m.start();
  return m;
}

const textOf = (r: { content: { text?: string }[] }) => r.content.map((c) => c.text ?? '').join('');
async function events(m: Manager): Promise<Record<string, unknown>[]> {
  const r = await m.callTool('spy_events', {});
  return JSON.parse(textOf(r)) as Record<string, unknown>[];
}
const spy = { name: 'spy', subscribe: { events: ['tool_call'] }, tools: [{ name: 'spy_events', mode: 'events' }] };

describe('invokeTool: one guarded path', () => {
  it('sends the tool_call event, asks the guards, then calls with the rewritten args', async () => {
    const m = await start([
      { name: 'fix', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { modified_args: { city: 'Paris' } } } },
      spy,
      { name: 'echoer', tools: [{ name: 'echo' }] },
    ]);
    const r = await m.invokeTool('echo', { city: 'Rome' }, { session: { id: 's' }, origin: 'mcp', toolId: 'call-1' });
    expect(JSON.parse(textOf(r))).toEqual({ name: 'echo', args: { city: 'Paris' } });
    expect(r.isError).toBe(false);
    const seen = (await events(m)).filter((e) => e.event === 'tool_call' && e.tool_name === 'echo');
    expect(seen).toEqual([expect.objectContaining({ tool_id: 'call-1', tool_args: { city: 'Rome' } })]);
  });

  it('a block becomes an isError result naming the guard and its reason; the tool never runs', async () => {
    const m = await start([
      { name: 'guard', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'not on Fridays' } } },
      { name: 'echoer', tools: [{ name: 'echo' }, { name: 'echo_events', mode: 'events' }] },
    ]);
    for (const origin of ['chat', 'palette', 'agent', 'cli', 'mcp'] as const) {
      const r = await m.invokeTool('echo', {}, { session: { id: 's' }, origin });
      expect(r).toMatchObject({ isError: true, blocked: { ext: 'guard', reason: 'not on Fridays' } });
      expect(textOf(r)).toBe('blocked by guard: not on Fridays');
    }
    const got = JSON.parse(textOf(await m.callTool('echo_events', {}))) as { type: string }[];
    expect(got.some((f) => f.type === 'tool_call')).toBe(false);
  });

  it('a rewrite that is not a JSON object blocks in its guard\'s name (zut v2 and zot v1 guards); the original call never runs; null is absent', async () => {
    const rewrite = (name: string, protocol: number, modified_args: unknown) => ({ name, protocol, subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { modified_args } } });
    const echoer = { name: 'echoer', tools: [{ name: 'echo' }, { name: 'echo_events', mode: 'events' }] };
    for (const [guard, kind, protocol] of [[rewrite('zutguard', 2, 'rm -rf /'), 'a string', 'zut'], [rewrite('zotguard', 1, ['rm', '-rf', '/']), 'an array', 'zot']] as const) {
      const m = await start([guard, echoer]);
      expect(m.extensions().find((e) => e.name === guard.name)!.protocol).toBe(protocol);
      const r = await m.invokeTool('echo', { city: 'Rome' }, { session: { id: 's' }, origin: 'mcp' });
      const reason = `modified_args must be a JSON object, not ${kind}`;
      expect(r, guard.name).toMatchObject({ isError: true, blocked: { ext: guard.name, reason } });
      expect(textOf(r)).toBe(`blocked by ${guard.name}: ${reason}`);
      const got = JSON.parse(textOf(await m.callTool('echo_events', {}))) as { type: string }[];
      expect(got.some((f) => f.type === 'tool_call'), guard.name).toBe(false);
      expect(m.extensions().find((e) => e.name === guard.name)!.diagnostics).toContainEqual(`tool_call: ${reason}; the call is blocked`);
    }
    const m = await start([rewrite('nullguard', 1, null), echoer]);
    const r = await m.invokeTool('echo', { city: 'Rome' }, { session: { id: 's' }, origin: 'mcp' });
    expect([r.isError, JSON.parse(textOf(r))]).toEqual([false, { name: 'echo', args: { city: 'Rome' } }]);
  });

  it('two sessions calling at once keep their own details (per-branch state), none global', async () => {
    const m = await start([{ name: 'keeper', tools: [{ name: 'keep', mode: 'details' }, { name: 'slow', mode: 'slow' }] }]);
    const a = { session: { id: 'conv-a' }, origin: 'agent' as const };
    const b = { session: { id: 'conv-b' }, origin: 'agent' as const };
    await Promise.all([
      m.invokeTool('keep', { details: { who: 'a' } }, a),
      m.invokeTool('slow', { ms: 50 }, b),
      m.invokeTool('keep', { details: { who: 'b' } }, b),
      m.invokeTool('slow', { ms: 50 }, a),
    ]);
    expect(m.getState('conv-a', 'keeper')).toEqual({ who: 'a' });
    expect(m.getState('conv-b', 'keeper')).toEqual({ who: 'b' });
    expect(m.getState('', 'keeper')).toBeUndefined();
    // A fork of conv-a starts from its state, and stays apart from it afterwards.
    await m.invokeTool('keep', { details: { who: 'fork' } }, { session: { id: 'conv-a2', parent_id: 'conv-a' }, origin: 'chat' });
    expect(m.getState('conv-a', 'keeper')).toEqual({ who: 'a' });
    expect(m.getState('conv-a2', 'keeper')).toEqual({ who: 'fork' });
  });

  it('interactive tools: headless origins (cli, mcp) get a tool error; a window origin runs them without deadline', async () => {
    const m = await start([{ name: 'asker', tools: [{ name: 'ask_user', interactive: true, mode: 'slow' }] }]);
    for (const origin of ['cli', 'mcp'] as const) {
      const r = await m.invokeTool('ask_user', {}, { session: { id: 's' }, origin });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/interactive.*cannot run from/);
    }
    const r = await m.invokeTool('ask_user', { ms: 10 }, { session: { id: 's' }, origin: 'agent', timeoutMs: 1 });
    expect(textOf(r)).toBe('slow done'); // no reply deadline for an interactive tool
  });

  it('abort → cancelled and tool_cancel; unknown tool → RequestError', async () => {
    const m = await start([{ name: 'stall', capabilities: ['tools', 'tool_cancel'], tools: [{ name: 'hang', mode: 'never' }, { name: 'hang_events', mode: 'events' }] }]);
    const ac = new AbortController();
    const p = m.invokeTool('hang', {}, { session: { id: 's' }, origin: 'mcp', signal: ac.signal });
    await until(() => m.extensions()[0]!.pending === 1, 5000, 'the call in flight');
    ac.abort();
    const err = (await p.catch((e: unknown) => e)) as RequestError;
    expect(err).toBeInstanceOf(RequestError);
    expect(err.kind).toBe('cancelled');
    const got = JSON.parse(textOf(await m.callTool('hang_events', {}))) as { type: string }[];
    expect(got.some((f) => f.type === 'tool_cancel')).toBe(true);
    const unknown = (await m.invokeTool('nope', {}, { session: { id: 's' }, origin: 'cli' }).catch((e: unknown) => e)) as RequestError;
    expect(unknown.kind).toBe('not-found');
  });

  it("a caller's deadline (an abort whose reason is a timeout) ends the call as timed out, not cancelled", async () => {
    const m = await start([
      { name: 'stall', capabilities: ['tools', 'tool_cancel'], subscribe: { events: ['tool_result'] }, tools: [{ name: 'hang', mode: 'never' }, { name: 'hang_events', mode: 'events' }] },
    ]);
    const ac = new AbortController();
    const p = m.invokeTool('hang', {}, { session: { id: 's' }, origin: 'mcp', signal: ac.signal });
    await until(() => m.extensions()[0]!.pending === 1, 5000, 'the call in flight');
    ac.abort(new RequestError('timeout', 'tool hang timed out after 60s'));
    const err = (await p.catch((e: unknown) => e)) as RequestError;
    expect(err).toBeInstanceOf(RequestError);
    expect([err.kind, err.message]).toEqual(['timeout', 'tool hang timed out after 60s']);
    const got = JSON.parse(textOf(await m.callTool('hang_events', {}))) as { type: string; event?: string; tool_name?: string; status?: string }[];
    expect(got.some((f) => f.type === 'tool_cancel')).toBe(true);
    expect(got.find((f) => f.event === 'tool_result' && f.tool_name === 'hang')?.status).toBe('timed_out');
  });

  it('@zut offers a name VS Code refuses under its sanitised name; the extension receives its own', async () => {
    const m = await start([{ name: 'odd', tools: [{ name: 'my tool!' }, { name: 'zut.chat' }] }]);
    const offered = new ScriptedModel([[text('')]]);
    await runLoop({ host: m, model: offered, sink: new RecordingSink(), history: [], prompt: 'x', maxRounds: 2, signal: new AbortController().signal, session: { id: 'c' } });
    const names = offered.requests[0]!.tools;
    const modelName = names.find((n) => n.startsWith('my_tool_'))!;
    expect(modelName).toMatch(/^my_tool_[0-9a-f]{8}$/);
    expect(names.some((n) => /^zut_chat_[0-9a-f]{8}$/.test(n))).toBe(true);
    const model = new ScriptedModel([[call(modelName, { q: 1 })], [text('done')]]);
    const sink = new RecordingSink();
    await runLoop({ host: m, model, sink, history: [], prompt: 'x', maxRounds: 3, signal: new AbortController().signal, session: { id: 'c' } });
    const result = model.requests[1]!.messages.at(-1)!.parts[0]!;
    expect(result.kind === 'toolResult' && result.content[0]).toMatchObject({ kind: 'text', text: JSON.stringify({ name: 'my tool!', args: { q: 1 } }) });
    expect(sink.finished[0]).toMatchObject({ name: 'my tool!', status: 'ok' });
  });
});

describe('GuardedPath: built over the dispatcher and the extension set alone', () => {
  const tool = { name: 'Echo', ext: 'e', active: true, deferred: false, activated: false, interactive: false, schema: {} } as unknown as ToolInfo;
  function path(block: boolean, answer: Record<string, unknown> = { modified_args: { x: 2 } }) {
    const seen: string[] = [];
    const dispatch: ToolDispatch = {
      callTool: (name, args) => (seen.push(`call ${name} ${JSON.stringify(args)}`), Promise.resolve({ ext: 'e', content: [{ type: 'text', text: 'ok' }], isError: false })),
    };
    const guard: Interceptor = {
      ext: 'g',
      diagnostic: () => undefined,
      ask: (p) => (seen.push(`guard ${String(p.tool_name)}`), Promise.resolve(block ? { block: true, reason: 'no' } : answer)),
    };
    const guards = new ToolGuard({
      hasSubscribers: () => true,
      hasInterceptors: () => true,
      emit: (e) => void seen.push(`event ${e.event}`),
      emitExcept: (e) => (seen.push(`event ${e.event}`), ['g']),
      toolCallInterceptors: () => [guard],
    });
    return { seen, guarded: new GuardedPath(dispatch, { index: { tools: [tool] } }, guards) };
  }

  it('event, guard, call with the arguments the guard gave, then the outcome event; a block never reaches the call (and is a policy decision)', async () => {
    const ok = path(false);
    expect((await ok.guarded.invoke('echo', { x: 1 }, { session: { id: 's' }, origin: 'cli' })).isError).toBe(false);
    expect(ok.seen).toEqual(['event tool_call', 'guard Echo', 'call Echo {"x":2}', 'event tool_result']);
    const no = path(true);
    const r = await no.guarded.invoke('echo', {}, { session: { id: 's' }, origin: 'cli' });
    expect([r.isError, r.blocked?.ext]).toEqual([true, 'g']);
    expect(no.seen).toEqual(['event tool_call', 'guard Echo', 'event permission_decision', 'event tool_result']);
  });

  it('a modified_args that is present and not an object (a string, number, boolean, array) blocks in the guard\'s name; null runs the call as it was', async () => {
    for (const [v, kind] of [['rm -rf /', 'a string'], [3, 'a number'], [true, 'a boolean'], [[{ x: 2 }], 'an array']] as const) {
      const p = path(false, { modified_args: v });
      const r = await p.guarded.invoke('echo', { x: 1 }, { session: { id: 's' }, origin: 'cli' });
      expect(r, kind).toMatchObject({ isError: true, blocked: { ext: 'g', reason: `modified_args must be a JSON object, not ${kind}` } });
      expect(p.seen.filter((s) => s.startsWith('call ')), kind).toEqual([]);
    }
    const p = path(false, { modified_args: null });
    expect((await p.guarded.invoke('echo', { x: 1 }, { session: { id: 's' }, origin: 'cli' })).isError).toBe(false);
    expect(p.seen).toContain('call Echo {"x":1}');
  });
});
