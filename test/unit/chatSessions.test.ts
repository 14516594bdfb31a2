/**
 * @zut sessions (conversation = session, edit-and-resend = fork), conversation rebuilding, slash parsing, skills and
 * per-branch extension state, against the real Manager with probe extensions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { helpText, historyToMessages, lastTurnMeta, type HistoryTurn } from '../../src/host/chat/conversation';
import { runLoop } from '../../src/host/chat/loop';
import { applySession, readTurnMeta, SessionTracker, storeMessages, type SessionStep, type TurnMeta } from '../../src/host/chat/sessions';
import { activeSkills, skillTool, skillsPreamble } from '../../src/host/chat/skills';
import { RecordingSink, ScriptedModel, call, cleanup, flatten, probe, received, startManager, tempDir, text } from '../fixtures/chat/helpers';
import { until } from '../helpers/until';

afterEach(cleanup);

let n = 0;
const ids = () => `id-${++n}`;

/** A @zut response turn carrying `meta` (as VS Code hands back `ChatResult.metadata`). */
const response = (meta: Partial<TurnMeta> & Pick<TurnMeta, 'session' | 'branch' | 'turn'>, text = 'answer'): HistoryTurn => ({
  kind: 'response',
  text,
  metadata: { zut: meta },
});

describe('SessionTracker', () => {
  it('starts a session for a new conversation (session_start, session_opened), then continues it silently', () => {
    const t = new SessionTracker(undefined, '/ws', ids);
    const first = t.begin(undefined);
    expect(first.events).toEqual(['session_start', 'session_opened']);
    expect(first.context).toEqual({ id: first.meta.branch, cwd: '/ws' });
    expect(first.meta.turn).toBe(1);
    const next = t.begin({ ...first.meta });
    expect(next.events).toEqual([]);
    expect(next.meta).toMatchObject({ session: first.meta.session, branch: first.meta.branch, turn: 2 });
  });

  it('switches when the user continues another conversation', () => {
    const t = new SessionTracker(undefined, undefined, ids);
    const a = t.begin(undefined);
    const b = t.begin(undefined);
    const backToA = t.begin({ ...a.meta });
    expect(backToA.events).toEqual(['session_switched']);
    expect(backToA.context.id).toBe(a.meta.branch);
    expect(t.begin({ ...b.meta }).events).toEqual(['session_switched']);
  });

  it('forks when the history is shorter than what the branch answered (an earlier turn edited and resent)', () => {
    const t = new SessionTracker(undefined, undefined, ids);
    const t1 = t.begin(undefined);
    const t2 = t.begin({ ...t1.meta, state: { p: { v: 1 } } });
    t.begin({ ...t2.meta }); // turn 3
    // The user edits turn 2: the history now ends with turn 1's response.
    const fork = t.begin({ ...t1.meta, state: { p: { v: 1 } } });
    expect(fork.events).toEqual(['session_forked']);
    expect(fork.context).toEqual({ id: fork.meta.branch, parent_id: t1.meta.branch, fork_point: 1 });
    expect(fork.meta).toMatchObject({ session: t1.meta.session, parent: t1.meta.branch, forkPoint: 1, turn: 2 });
    expect(fork.seedState).toEqual({ p: { v: 1 } });
    // The new branch continues without events.
    expect(t.begin({ ...fork.meta }).events).toEqual([]);
  });

  it('survives a window reload through its snapshot (no spurious switch; hello_ack gets the active branch)', () => {
    const t = new SessionTracker(undefined, '/ws', ids);
    const first = t.begin(undefined);
    const restored = new SessionTracker(JSON.parse(JSON.stringify(t.snapshot())), '/ws', ids);
    expect(restored.activeContext()).toEqual({ id: first.meta.branch, cwd: '/ws' });
    expect(restored.begin({ ...first.meta }).events).toEqual([]);
    expect(new SessionTracker({ garbage: true }, undefined, ids).activeContext()).toBeUndefined();
  });

  it('remembers a bounded number of branches, dropping the least recently used', () => {
    const t = new SessionTracker(undefined, undefined, ids);
    const first = t.begin(undefined);
    for (let i = 0; i < 600; i++) t.begin(undefined);
    expect(Object.keys(t.snapshot().branches)).toHaveLength(500);
    expect(t.snapshot().branches[first.meta.branch]).toBeUndefined();
  });
});

describe('sessions with the Manager', () => {
  it('keeps state per extension and per branch, sends each extension only its own, and seeds forks', async () => {
    const root = tempDir();
    const events = ['session_start', 'session_opened', 'session_switched', 'session_forked'];
    const a = probe(root, { name: 'a', events, tools: [{ name: 'remember_a', kind: 'remember' }] });
    const b = probe(root, { name: 'b', events, tools: [{ name: 'remember_b', kind: 'remember' }] });
    const host = await startManager([a, b]);
    const t = new SessionTracker(undefined, undefined, ids);
    const run = (session: SessionStep, prompt: string, calls: ReturnType<typeof call>[]) =>
      runLoop({ host, model: new ScriptedModel([calls, [text('ok')]]), sink: new RecordingSink(), history: [], prompt, maxRounds: 4, signal: new AbortController().signal, session: session.context });

    const s1 = t.begin(undefined);
    applySession(host, s1);
    await run(s1, 'one', [call('remember_a', { value: 'a1' }), call('remember_b', { value: 'b1' })]);
    const meta1: TurnMeta = { ...s1.meta, state: host.exportState()[s1.meta.branch] };
    const s2 = t.begin(meta1);
    applySession(host, s2);
    await run(s2, 'two', [call('remember_a', { value: 'a2' })]);

    expect(host.getState(s1.meta.branch, 'a')).toEqual({ owner: 'a', value: 'a2' });
    expect(host.getState(s1.meta.branch, 'b')).toEqual({ owner: 'b', value: 'b1' });

    // Another conversation: its own branch, no state.
    const other = t.begin(undefined);
    applySession(host, other);
    await run(other, 'x', [call('remember_b', { value: 'bx' })]);
    expect(host.getState(other.meta.branch, 'a')).toBeUndefined();
    expect(host.getState(other.meta.branch, 'b')).toEqual({ owner: 'b', value: 'bx' });

    // Edit turn 2 of the first conversation: fork at turn 1 with the state as it was then.
    const fork = t.begin(meta1);
    applySession(host, fork);
    expect(host.getState(fork.meta.branch, 'a')).toEqual({ owner: 'a', value: 'a1' });
    expect(host.getState(s1.meta.branch, 'a')).toEqual({ owner: 'a', value: 'a2' }); // the old branch is untouched

    const sessionEvents = (dir: string) => received(dir).filter((f) => f.type === 'event' && events.includes(f.event as string));
    await until(() => sessionEvents(a).some((e) => e.event === 'session_forked'), 5000, 'session_forked');
    const forked = sessionEvents(a).find((e) => e.event === 'session_forked')!;
    expect(forked).toMatchObject({ session: { id: fork.meta.branch, parent_id: s1.meta.branch, fork_point: 1 }, state: { owner: 'a', value: 'a1' } });
    const forkedB = await until(() => sessionEvents(b).find((e) => e.event === 'session_forked'), 5000, 'b session_forked');
    expect(forkedB?.state).toEqual({ owner: 'b', value: 'b1' });
    expect(sessionEvents(a).map((e) => e.event)).toEqual(['session_start', 'session_opened', 'session_start', 'session_opened', 'session_forked']);
    // Never another extension's state.
    expect(JSON.stringify(sessionEvents(a))).not.toContain('"owner":"b"');
  });
});

describe('conversation', () => {
  it('rebuilds the conversation from metadata (the model sees its own text), falling back to visible text', () => {
    const kept = storeMessages([
      { role: 'user', parts: [{ kind: 'text', text: 'weather?' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'key sk-123' }, { kind: 'toolCall', callId: 'c1', name: 'w', input: { city: 'Berlin' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', isError: false, content: [{ kind: 'text', text: 'fog' }, { kind: 'image', mime: 'image/png', data: new Uint8Array([1, 2]) }] }] },
    ]);
    const history: HistoryTurn[] = [
      { kind: 'request', prompt: 'old turn' },
      { kind: 'response', text: 'old answer', metadata: undefined },
      { kind: 'request', prompt: 'weather?' },
      response({ session: 's', branch: 's', turn: 2, messages: kept }, 'key [redacted]'),
      { kind: 'request', prompt: '', command: 'help' },
      response({ session: 's', branch: 's', turn: 3, messages: [] }, 'listing'),
    ];
    const msgs = historyToMessages(history);
    expect(msgs.map(flatten)).toEqual([
      'old turn',
      'old answer',
      'weather?',
      'key sk-123 | call w {"city":"Berlin"}',
      'result fog [image image/png]',
    ]);
    expect(lastTurnMeta(history)?.turn).toBe(3);
    expect(readTurnMeta({ zut: { session: 1 } })).toBeUndefined();
  });

  it('reads each response\'s metadata once however often a request asks (a long chat is not parsed twice per turn)', () => {
    const zut = { session: 's', branch: 's', turn: 1, messages: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }] };
    const first = readTurnMeta({ zut });
    expect(first?.turn).toBe(1);
    expect(readTurnMeta({ zut })).toBe(first);
    const bad = { session: 1 };
    expect(readTurnMeta({ zut: bad })).toBeUndefined();
    expect(readTurnMeta({ zut: bad })).toBeUndefined();
    expect(readTurnMeta({ zut: 'text' })).toBeUndefined();
    expect(readTurnMeta(undefined)).toBeUndefined();
  });

  it('/help lists every extension command and tool', async () => {
    const root = tempDir();
    const host = await startManager([probe(root, { name: 'p', tools: [{ name: 'e', kind: 'echo' }, { name: 'later', kind: 'echo', deferred: true }] })]);
    const help = helpText(host);
    expect(help).toContain('/help');
    expect(help).toMatch(/ {2}e {2}echo tool of p \[p\]/);
    expect(help).toMatch(/later .*\[p, deferred\]/);
  });
});

describe('skills', () => {
  it('names bundled skills in a hidden preamble and serves SKILL.md through the private skill tool', async () => {
    const root = tempDir();
    const body = '---\nname: haiku\ndescription: Write answers as haiku\n---\nAlways answer in 5-7-5.\n';
    const host = await startManager([probe(root, { name: 'poet', tools: [] }, { haiku: body })]);
    const skills = activeSkills(host);
    expect(skills).toEqual([expect.objectContaining({ name: 'haiku', description: 'Write answers as haiku', ext: 'poet' })]);
    const model = new ScriptedModel([[call('skill', { name: 'haiku' })], [call('skill', { name: 'nope' })], [text('ok')]]);
    const sink = new RecordingSink();
    await runLoop({
      host,
      model,
      sink,
      history: [],
      prompt: 'a poem',
      preamble: skillsPreamble(skills),
      localTools: [skillTool(skills)!],
      maxRounds: 5,
      signal: new AbortController().signal,
      session: { id: 'skills-1' },
    });
    expect(model.requests[0].tools).toContain('skill');
    expect(flatten(model.requests[0].messages[0])).toContain('- haiku (from poet): Write answers as haiku');
    const folder = fs.realpathSync(path.join(root, 'poet', 'skills', 'haiku'));
    expect(flatten(model.requests[1].messages.at(-1)!)).toBe(`result Skill "haiku" of the zut extension poet. Paths in it are relative to ${folder}.\n\n${body}`);
    expect(flatten(model.requests[2].messages.at(-1)!)).toMatch(/^result\(error\) skill: unknown skill "nope"/);
    expect(sink.finished[0]).toMatchObject({ name: 'skill', ext: 'poet', status: 'ok' });
    expect(skillTool([])).toBeUndefined();
    expect(skillsPreamble([])).toEqual([]);
  });
});
