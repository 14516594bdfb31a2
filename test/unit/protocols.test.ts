/**
 * The protocol adapters (src/host/protocols) on their own: the zut family's handshake picking zut v2 or zot v1,
 * decoding, reply checks, zot's event payloads; and the pieces zot needs (bounded results, tool_prompt plans).
 */
import { describe, expect, it } from 'vitest';
import { boundContent, cutUtf8 } from '../../src/host/calls/boundContent';
import { zutFamily, type ExtensionProtocol, type HostInfo } from '../../src/host/protocols';
import { RequestError } from '../../src/host/types';
import { planResponse } from '../../src/ui-model/commandModel';

const info: HostInfo = { hostVersion: '1.2.3', provider: 'p', model: 'm', cwd: '/work', extensionDir: '/x', dataDir: '/x' };
const line = (o: object) => JSON.stringify(o);

function handshake(hello: object) {
  return zutFamily.handshake({ name: 'ext', hostInfo: () => info }).onLine(line(hello));
}

function open(hello: object): ExtensionProtocol {
  const step = handshake(hello);
  if (step.kind !== 'done') throw new Error(`handshake: ${JSON.stringify(step)}`);
  return step.protocol;
}

describe('the zut family handshake', () => {
  it('protocol_version 2 is zut v2 with zut\'s hello_ack; none or 1 is zot v1 with zot\'s', () => {
    const v2 = handshake({ type: 'hello', protocol_version: 2, name: 'ext', capabilities: ['tools'] });
    expect(v2).toMatchObject({ kind: 'done', hello: { protocol: 'zut', protocolVersion: 2, capabilities: ['tools'] }, registration: 'open' });
    if (v2.kind === 'done') expect(JSON.parse(v2.send[0]!)).toEqual({ type: 'hello_ack', protocol_version: 2, zut_version: '1.2.3', provider: 'p', model: 'm', cwd: '/work', extension_dir: '/x', data_dir: '/x' });
    for (const hello of [{ type: 'hello', name: 'ext' }, { type: 'hello', protocol_version: 1, name: 'ext' }]) {
      const zot = handshake(hello);
      expect(zot).toMatchObject({ kind: 'done', hello: { protocol: 'zot', protocolVersion: 1, capabilities: [] } });
      if (zot.kind === 'done') expect(JSON.parse(zot.send[0]!)).toMatchObject({ type: 'hello_ack', protocol_version: 1, zot_version: '1.2.3', capabilities: ['call_tool'] });
    }
  });

  it('fails clearly: not a hello, an unknown version, a wrong name, a malformed zot hello', () => {
    expect(handshake({ type: 'notify', message: 'x' })).toEqual({ kind: 'fail', message: 'first frame must be hello', detail: 'got "notify"' });
    expect(handshake({ type: 'hello', protocol_version: 7, name: 'ext' })).toMatchObject({ kind: 'fail', message: 'unsupported extension protocol version 7' });
    expect(handshake({ type: 'hello', name: 'other' })).toEqual({ kind: 'fail', message: 'hello name "other" does not match manifest name "ext"' });
    expect(handshake({ type: 'hello', name: 42 })).toMatchObject({ kind: 'fail', message: expect.stringMatching(/^invalid zot hello frame: field "name"/) });
  });
});

describe('zut v2 adapter', () => {
  const v2 = open({ type: 'hello', protocol_version: 2, name: 'ext' });

  it('decodes replies by id, notices, ready, and diagnostics for unusable lines', () => {
    expect(v2.decode(line({ type: 'tool_result', id: 'a', content: [] }))).toMatchObject({ kind: 'reply', id: 'a' });
    expect(v2.decode(line({ type: 'notify', message: 'hi' }))).toEqual({ kind: 'notice', notice: { type: 'notify', message: 'hi' } });
    expect(v2.decode(line({ type: 'ready' }))).toEqual({ kind: 'ready' });
    expect(v2.decode('{nope')).toMatchObject({ kind: 'diagnostic', message: expect.stringMatching(/^malformed frame ignored: invalid JSON/) });
    expect(v2.decode(line({ type: 'call_tool', id: 'x', name: 't' }))).toEqual({ kind: 'diagnostic', message: 'ignored unknown frame type "call_tool"' });
  });

  it("turn_start's event_intercept carries the step alone: the turn's prompt is e's (hook.before_turn), not zut's wire", () => {
    const payload = { event: 'turn_start', step: 2, prompt: 'secret plans' };
    expect(JSON.parse(v2.encodeRequest('i1', { kind: 'intercept', payload }))).toEqual({ type: 'event_intercept', id: 'i1', event: 'turn_start', step: 2 });
    const zot = open({ type: 'hello', name: 'ext' });
    expect(JSON.parse(zot.encodeRequest('i2', { kind: 'intercept', payload }))).toEqual({ type: 'event_intercept', id: 'i2', event: 'turn_start', step: 2 });
  });

  it('a reply of the wrong type is a RequestError; tool_cancel only with the capability', () => {
    const body = (v2.decode(line({ type: 'command_response', id: 'a', action: 'noop' })) as { body: unknown }).body;
    expect(() => v2.decodeReply('tool', body)).toThrow(RequestError);
    expect(v2.decodeReply('command', body)).toMatchObject({ action: 'noop' });
    expect(v2.encodeNotice({ kind: 'cancel', id: 'a' })).toBeUndefined();
    const cancelling = open({ type: 'hello', protocol_version: 2, name: 'ext', capabilities: ['tool_cancel'] });
    expect(cancelling.encodeNotice({ kind: 'cancel', id: 'a' })).toBe('{"type":"tool_cancel","id":"a"}\n');
  });
});

describe('zot v1 adapter', () => {
  const zot = open({ type: 'hello', name: 'ext' });

  it('call_tool is a request, call_tool_cancel a cancel; tool_prompt and system_prompt fields survive', () => {
    expect(zot.decode(line({ type: 'call_tool', id: 'r1', name: 'skill', args: { name: 'x' }, parent_id: 'p' }))).toEqual({
      kind: 'request', id: 'r1', method: 'call_tool', params: { name: 'skill', args: { name: 'x' }, parent_id: 'p' },
    });
    expect(zot.decode(line({ type: 'call_tool', name: 'skill' }))).toMatchObject({ kind: 'diagnostic' });
    expect(zot.decode(line({ type: 'call_tool_cancel', id: 'r1' }))).toEqual({ kind: 'cancel', id: 'r1' });
    const cmd = zot.decode(line({ type: 'command_response', id: 'c', action: 'tool_prompt', prompt: 'go', tool_name: 'skill', tool_args: { a: 1 } }));
    expect(zot.decodeReply('command', (cmd as { body: unknown }).body)).toMatchObject({ tool_name: 'skill', tool_args: { a: 1 } });
    const sp = zot.decode(line({ type: 'event_intercept_response', id: 'i', system_prompt: '' }));
    expect(zot.decodeReply('intercept', (sp as { body: unknown }).body)).toMatchObject({ system_prompt: '' });
    expect(zot.interceptable.has('before_agent_start')).toBe(true);
  });

  it('a modified_args of any JSON kind reaches the tool_call chain as sent, zut v2 and zot v1 alike (the chain judges it: not an object blocks)', () => {
    const v2 = open({ type: 'hello', protocol_version: 2, name: 'ext' });
    for (const wire of [v2, zot]) {
      for (const modified_args of ['rm -rf /', ['rm'], 0, false, null, { command: 'ls' }]) {
        const m = wire.decode(line({ type: 'event_intercept_response', id: 'i', modified_args }));
        expect(m, JSON.stringify(modified_args)).toMatchObject({ kind: 'reply', id: 'i' });
        expect(wire.decodeReply('intercept', (m as { body: unknown }).body).modified_args).toEqual(modified_args);
      }
    }
  });

  it('events carry session_id, cwd and a growing sequence; answers to call_tool are tool_result frames', () => {
    const a = JSON.parse(zot.encodeNotice({ kind: 'event', event: { event: 'turn_start', step: 1, session: { id: 's1' } } })!);
    const b = JSON.parse(zot.encodeNotice({ kind: 'event', event: { event: 'turn_end', stop: 'end_turn' } })!);
    expect(a).toEqual({ type: 'event', event: 'turn_start', step: 1, session_id: 's1', cwd: '/work', sequence: 1 });
    expect(b).toEqual({ type: 'event', event: 'turn_end', stop: 'end_turn', cwd: '/work', sequence: 2 });
    expect(JSON.parse(zot.encodeResponse('r1', { kind: 'tool', name: 'skill', content: [{ type: 'text', text: 'ok' }], isError: false }))).toEqual({
      type: 'tool_result', id: 'r1', name: 'skill', content: [{ type: 'text', text: 'ok' }], is_error: false,
    });
    expect(JSON.parse(zot.encodeResponse('r2', { kind: 'error', message: 'no' }))).toEqual({ type: 'tool_result', id: 'r2', content: [{ type: 'text', text: 'no' }], is_error: true });
  });
});

describe('zot pieces', () => {
  it('boundContent cuts text on a character boundary, drops what no longer fits, and says so', () => {
    expect(cutUtf8('aé€', 4)).toBe('aé'); // 1 + 2 bytes; € (3 bytes) would be split
    const r = boundContent([{ type: 'text', text: 'x'.repeat(6) }, { type: 'image', mime_type: 'image/png', data: 'AAAA' }, { type: 'text', text: 'tail' }], 8);
    expect(r).toEqual({ content: [{ type: 'text', text: 'x'.repeat(6) }, { type: 'text', text: 'ta' }], truncated: true });
    expect(boundContent([{ type: 'text', text: 'ok' }], 8)).toEqual({ content: [{ type: 'text', text: 'ok' }], truncated: false });
  });

  it('planResponse maps tool_prompt, refusing one without a tool or with non-object args', () => {
    expect(planResponse({ action: 'tool_prompt', prompt: 'and push', tool_name: 'skill', tool_args: { name: 'c' } })).toEqual({
      action: { kind: 'tool_prompt', prompt: 'and push', tool: 'skill', args: { name: 'c' } },
    });
    expect(planResponse({ action: 'tool_prompt', prompt: 'x' }).action).toEqual({ kind: 'none', reason: 'tool_prompt without tool_name' });
    expect(planResponse({ action: 'tool_prompt', tool_name: 't', tool_args: [1] }).action).toEqual({ kind: 'none', reason: 'tool_prompt: tool_args must be a JSON object' });
  });
});
