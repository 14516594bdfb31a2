/**
 * The @zut loop (src/host/chat/loop.ts) with a scripted model against the real Manager and real extension processes:
 * the examples (weather, guard) and configurable probes (test/fixtures/chat/probe.mjs).
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_CAP_BYTES, CONTEXT_TRUNCATED_MARKER } from '../../src/host/calls/intercept';
import { runLoop, type LoopOptions } from '../../src/host/chat/loop';
import { ModelError, type ChatModel, type ModelStreamPart } from '../../src/host/chat/model';
import type { ExtensionHost } from '../../src/host/api';
import {
  EXAMPLES,
  RecordingSink,
  ScriptedModel,
  call,
  cleanup,
  flatten,
  probe,
  received,
  startManager,
  tempDir,
  text,
} from '../fixtures/chat/helpers';
import { until } from '../helpers/until';

afterEach(cleanup);

const weather = path.join(EXAMPLES, 'weather');
const guard = path.join(EXAMPLES, 'guard');

function loop(host: ExtensionHost, model: ChatModel, extra: Partial<LoopOptions> = {}) {
  const sink = new RecordingSink();
  const run = runLoop({ host, model, sink, history: [], prompt: 'hi', maxRounds: 8, signal: new AbortController().signal, session: { id: 'chat-1' }, ...extra });
  return { sink, run };
}

/** The last request's text parts (all messages), for context assertions. */
const lastRequestText = (m: ScriptedModel, i = m.requests.length - 1) => m.requests[i].messages.map(flatten).join('\n');

describe('@zut loop: tools', () => {
  it('round-trips a tool call: text and image reach the model, the user sees progress and a summary', async () => {
    const host = await startManager([weather]);
    const model = new ScriptedModel([[text('Checking. '), call('weather', { city: 'Berlin' })], [text('It is foggy.')]]);
    const { sink, run } = loop(host, model);
    const r = await run;

    expect(r.stop).toBe('end_turn');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0].tools).toEqual(expect.arrayContaining(['weather', 'forecast', 'enable_weather_alerts']));
    expect(model.requests[0].tools).not.toContain('weather_alerts'); // deferred
    const result = model.requests[1].messages.at(-1)!.parts[0];
    expect(result.kind).toBe('toolResult');
    if (result.kind !== 'toolResult') return;
    expect(result.isError).toBe(false);
    expect(result.content[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('Berlin: 16°C, fog') });
    const image = result.content[1];
    expect(image.kind).toBe('image');
    if (image.kind === 'image') {
      expect(image.mime).toBe('image/png');
      expect(Buffer.from(image.data).subarray(1, 4).toString()).toBe('PNG');
    }
    expect(sink.started).toEqual(['weather@weather']);
    expect(sink.finished).toEqual([
      expect.objectContaining({ name: 'weather', ext: 'weather', status: 'ok', summary: expect.stringMatching(/^Berlin: 16°C, fog.*\[1 image\]$/) }),
    ]);
    expect(sink.shown.join('')).toBe('Checking. It is foggy.');
    // What the next turn's history keeps: prompt, the call, the result, the answer.
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // details → state kept by the Manager for this conversation's branch
    expect(host.getState('chat-1', 'weather')).toEqual({ lastCity: 'Berlin', lookups: 1 });
  });

  it('passes is_error results to the model as errors', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'p', tools: [{ name: 'boom', kind: 'fail' }] })]);
    const model = new ScriptedModel([[call('boom')], [text('sorry')]]);
    const { sink, run } = loop(host, model);
    await run;
    expect(model.requests[1].messages.at(-1)!.parts[0]).toMatchObject({ kind: 'toolResult', isError: true, content: [{ kind: 'text', text: 'it failed' }] });
    expect(sink.finished[0]).toMatchObject({ status: 'error', summary: 'it failed', ext: 'p' });
  });

  it('offers deferred tools from the round after a loader activated them', async () => {
    const host = await startManager([weather]);
    const model = new ScriptedModel([[call('enable_weather_alerts')], [call('weather_alerts', { city: 'London' })], [text('done')]]);
    const { run } = loop(host, model);
    expect((await run).stop).toBe('end_turn');
    expect(model.requests[0].tools).not.toContain('weather_alerts');
    expect(model.requests[1].tools).toContain('weather_alerts');
    expect(flatten(model.requests[2].messages.at(-1)!)).toContain('Yellow wind warning');
  });

  it('reports a tool that misses its reply timeout to the model, and cancels it (tool_cancel)', async () => {
    const root = tempDir();
    const dir = probe(root, { name: 'p', capabilities: ['tools', 'tool_cancel'], tools: [{ name: 'stall', kind: 'slow' }] });
    const host = await startManager([dir]);
    const model = new ScriptedModel([[call('stall')], [text('gave up')]]);
    const { sink, run } = loop(host, model, { toolTimeoutMs: 300 });
    expect((await run).stop).toBe('end_turn');
    const res = model.requests[1].messages.at(-1)!.parts[0];
    expect(res).toMatchObject({ kind: 'toolResult', isError: true });
    expect(flatten(model.requests[1].messages.at(-1)!)).toMatch(/tim(ed|e) ?out/i);
    expect(sink.finished[0].status).toBe('error');
    const callFrame = received(dir).find((f) => f.type === 'tool_call')!;
    await until(() => received(dir).some((f) => f.type === 'tool_cancel' && f.id === callFrame.id), 5000, 'tool_cancel');
  });

  it("the user's Stop cancels a running tool (tool_cancel) and ends the request without another model call", async () => {
    const root = tempDir();
    const dir = probe(root, { name: 'p', capabilities: ['tools', 'tool_cancel'], events: ['turn_end'], tools: [{ name: 'stall', kind: 'slow' }] });
    const host = await startManager([dir]);
    const model = new ScriptedModel([[call('stall')], [text('never')]]);
    const stop = new AbortController();
    const sink = new RecordingSink();
    const run = runLoop({ host, model, sink, history: [], prompt: 'hi', maxRounds: 8, signal: stop.signal, session: { id: 'chat-1' } });
    await until(() => received(dir).some((f) => f.type === 'tool_call'), 5000, 'the tool call');
    stop.abort();
    const r = await run;
    expect(r.stop).toBe('cancelled');
    expect(model.requests).toHaveLength(1);
    expect(sink.finished[0].status).toBe('cancelled');
    const id = received(dir).find((f) => f.type === 'tool_call')!.id;
    await until(() => received(dir).some((f) => f.type === 'tool_cancel' && f.id === id), 5000, 'tool_cancel');
    await until(() => received(dir).some((f) => f.type === 'event' && f.event === 'turn_end' && f.stop === 'cancelled'), 5000, 'turn_end cancelled');
  });

  it('stops a runaway loop at the round cap with a visible message', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'p', tools: [{ name: 'again', kind: 'echo' }] })]);
    const model = new ScriptedModel([[call('again')]]);
    const { sink, run } = loop(host, model, { maxRounds: 3 });
    const r = await run;
    expect(r.stop).toBe('max_rounds');
    expect(model.requests).toHaveLength(3);
    expect(sink.notices).toEqual([{ kind: 'info', text: expect.stringContaining('3 rounds') }]);
  });

  it('shows model errors with their code', async () => {
    const host = await startManager([weather]);
    const model = new ScriptedModel([new ModelError('NoPermissions', 'the user said no')]);
    const { sink, run } = loop(host, model);
    expect((await run).stop).toBe('error');
    expect(sink.notices).toEqual([{ kind: 'error', text: 'Model error (NoPermissions): the user said no' }]);
  });

  it('sends lifecycle events in order: turn_start {step}, assistant_message, tool_call, turn_end {stop}', async () => {
    const root = tempDir();
    const dir = probe(root, { name: 'p', events: ['turn_start', 'assistant_message', 'tool_call', 'turn_end'], tools: [{ name: 'e', kind: 'echo' }] });
    const host = await startManager([dir]);
    const model = new ScriptedModel([[text('a'), call('e', { value: 1 })], [text('b')]]);
    await loop(host, model).run;
    const events = () => received(dir).filter((f) => f.type === 'event');
    await until(() => events().length === 7, 5000, '7 events');
    const callId = (model.requests[1].messages[1].parts[1] as { callId: string }).callId;
    expect(events().map(({ type: _t, ...e }) => e)).toEqual([
      { event: 'turn_start', step: 1 },
      { event: 'assistant_message', text: 'a' },
      { event: 'tool_call', tool_id: callId, tool_name: 'e', tool_args: { value: 1 } },
      { event: 'turn_end', stop: 'tool_use' },
      { event: 'turn_start', step: 2 },
      { event: 'assistant_message', text: 'b' },
      { event: 'turn_end', stop: 'end_turn' },
    ]);
  });
});

describe('@zut loop: interception', () => {
  it('turn_start block: the reason is shown and the model is not called', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'gate', intercept: { turn_start: { blockAtStep: 1, reason: 'closed for lunch' } } })]);
    const model = new ScriptedModel([[text('never')]]);
    const { sink, run } = loop(host, model);
    expect((await run).stop).toBe('blocked');
    expect(model.requests).toHaveLength(0);
    expect(sink.notices).toEqual([{ kind: 'blocked', text: 'Turn blocked by gate: closed for lunch' }]);
  });

  it('turn_start block at a later step ends the loop after the tool round', async () => {
    const root = tempDir();
    const host = await startManager([
      probe(root, { name: 'gate', intercept: { turn_start: { blockAtStep: 2, reason: 'one round only' } }, tools: [{ name: 'e', kind: 'echo' }] }),
    ]);
    const model = new ScriptedModel([[call('e')], [text('never')]]);
    const { sink, run } = loop(host, model);
    expect((await run).stop).toBe('blocked');
    expect(model.requests).toHaveLength(1);
    expect(sink.finished).toHaveLength(1);
  });

  it('turn_start context reaches this request only: hidden, not kept in the turn', async () => {
    const host = await startManager([guard, weather]);
    const model = new ScriptedModel([[call('weather', { city: 'Paris' })], [text('ok')]]);
    const { sink, run } = loop(host, model);
    const r = await run;
    for (const i of [0, 1]) {
      const all = lastRequestText(model, i);
      expect(all).toContain('[guard]\nProject policy (from guard)');
      expect(all.split('Project policy').length - 1).toBe(1); // the earlier round's context is gone
    }
    expect(r.messages.map(flatten).join('\n')).not.toContain('Project policy');
    expect(sink.visible()).not.toContain('Project policy');
  });

  it('caps the joined context (16 KiB) and marks the cut', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'big', intercept: { turn_start: { context: 'x'.repeat(20_000) } } })]);
    const model = new ScriptedModel([[text('ok')]]);
    await loop(host, model).run;
    const ctx = model.requests[0].messages.at(-1)!.parts.at(-1)!;
    expect(ctx.kind).toBe('text');
    if (ctx.kind !== 'text') return;
    expect(ctx.text.startsWith('[big]\nxxx')).toBe(true);
    expect(ctx.text.endsWith(CONTEXT_TRUNCATED_MARKER)).toBe(true);
    expect(Buffer.byteLength(ctx.text)).toBeLessThanOrEqual(CONTEXT_CAP_BYTES);
  });

  it('assistant_message block: the user does not see the text; the model keeps it', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'hush', intercept: { assistant_message: { block: true, reason: 'not today' } } })]);
    const model = new ScriptedModel([[text('the secret plan')]]);
    const { sink, run } = loop(host, model);
    const r = await run;
    expect(sink.shown).toEqual([]);
    expect(sink.visible()).not.toContain('secret plan');
    expect(sink.notices).toEqual([{ kind: 'blocked', text: 'Message hidden by hush: not today' }]);
    expect(flatten(r.messages[1])).toBe('the secret plan');
  });

  it('assistant_message replace_text (guard): the user sees the redaction, the model keeps its own text', async () => {
    const host = await startManager([guard]);
    const model = new ScriptedModel([[text('your key is '), text('sk-ant-abcdefghijkl, keep it safe')]]);
    const { sink, run } = loop(host, model);
    const r = await run;
    expect(sink.shown).toEqual([]); // not streamed: an extension intercepts assistant_message
    expect(sink.extensionText).toEqual(['your key is [redacted], keep it safe']);
    expect(flatten(r.messages[1])).toBe('your key is sk-ant-abcdefghijkl, keep it safe');
  });

  it('streams text as it arrives when nobody intercepts assistant_message, and holds it back otherwise', async () => {
    for (const [dirs, streams] of [[[weather], true], [[guard, weather], false]] as const) {
      const host = await startManager([...dirs]);
      let seenMidway = -1;
      const sink = new RecordingSink();
      const model: ChatModel = {
        async *send(): AsyncIterable<ModelStreamPart> {
          yield text('one ');
          await new Promise((r) => setTimeout(r, 10));
          seenMidway = sink.shown.length;
          yield text('two');
        },
      };
      await runLoop({ host, model, sink, history: [], prompt: 'hi', maxRounds: 2, signal: new AbortController().signal, session: { id: 'chat-1' } });
      expect(seenMidway).toBe(streams ? 1 : 0);
      expect([...sink.shown, ...sink.extensionText].join('')).toBe('one two');
    }
  });

  it('tool_call block (guard, rm -rf): the tool never runs and the model gets the reason as the error', async () => {
    const root = tempDir();
    const dir = probe(root, { name: 'sh', tools: [{ name: 'run', kind: 'echo' }] });
    const host = await startManager([guard, dir]);
    const model = new ScriptedModel([[call('run', { value: 'rm -rf /' })], [text('ok')]]);
    const { sink, run } = loop(host, model);
    await run;
    expect(model.requests[1].messages.at(-1)!.parts[0]).toMatchObject({
      kind: 'toolResult',
      isError: true,
      content: [{ kind: 'text', text: 'blocked by guard: refused: matches danger pattern "rm -rf"' }],
    });
    expect(sink.finished[0]).toMatchObject({ status: 'blocked', summary: 'blocked by guard: refused: matches danger pattern "rm -rf"' });
    expect(sink.started).toEqual([]);
    expect(received(dir).some((f) => f.type === 'tool_call')).toBe(false);
  });

  it('modified_args: the tool gets the rewritten arguments', async () => {
    const root = tempDir();
    const host = await startManager([
      probe(root, { name: 'fix', intercept: { tool_call: { modify: { value: 'safe' } } }, tools: [{ name: 'e', kind: 'echo' }] }),
    ]);
    const model = new ScriptedModel([[call('e', { value: 'unsafe' })], [text('ok')]]);
    await loop(host, model).run;
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe('result fix got {"value":"safe"}');
  });

  it('chains two interceptors: rewrites compose in load order, and the first block wins', async () => {
    const root = tempDir();
    const a = probe(root, { name: 'a', intercept: { tool_call: { modify: { a: 1 } }, assistant_message: { replace: ['x', 'y'] } }, tools: [{ name: 'e', kind: 'echo' }] });
    const b = probe(root, { name: 'b', intercept: { tool_call: { block: '"blockme":true,"a":1', reason: 'never', modify: { b: 2 } }, assistant_message: { replace: ['y', 'z'] } } });
    const host = await startManager([a, b]);
    const model = new ScriptedModel([[text('x marks'), call('e', { value: 0 })], [text('done')]]);
    const { sink, run } = loop(host, model);
    await run;
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe('result a got {"value":0,"a":1,"b":2}');
    expect(sink.extensionText).toEqual(['z marks']);

    // b blocks what a produced: the block comes from b, after a's rewrite.
    const model2 = new ScriptedModel([[call('e', { value: 0, blockme: true })], [text('done')]]);
    const second = loop(host, model2);
    await second.run;
    expect(second.sink.finished[0]).toMatchObject({ status: 'blocked', summary: 'blocked by b: never' });
  });
});
