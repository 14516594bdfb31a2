/**
 * An agent's permission steps as zut's `tool_confirmation_requested` and zot's `permission_decision` (src/hooks/
 * permissions.ts), on the payloads the real agents sent (test/agents/fixtures: Claude Code 2.1.328, Copilot CLI
 * 1.0.102, captured by `npm run test:agents`), answered by one host as a window or the warm host answers them:
 * the events reach a subscriber with the call's id, zut's name for the tool and its preview, in the spec's order.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { readHookInput } from '../../src/hooks/input';
import { isCamelEvent, type HookAgent } from '../../src/hooks/names';
import { hookEventOf } from '../../src/hooks/dialects';
import { Manager } from '../../src/host/manager';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, zutHome } from '../helpers/hostFixtures';

const FIXTURES = path.resolve(__dirname, '../agents/fixtures');
const fixture = (agent: string, event: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, agent, `${event}.json`), 'utf8')) as Record<string, unknown> & { tool_use_id?: string };

afterEach(async () => {
  memories.clear();
  await stopManagers();
  cleanupTemps();
});

/**
 * A host with a subscriber of every tool event (its `events` tool returns what it got; of `events` when given) and,
 * optionally, a guard.
 */
async function host(guard = false, events = ['tool_call', 'tool_confirmation_requested', 'permission_decision', 'tool_result']): Promise<Manager> {
  const z = zutHome();
  nodeExt(z.exts, { name: 'watcher', tools: [{ name: 'seen', mode: 'events' }], subscribe: { events } });
  if (guard) nodeExt(z.exts, { name: 'stopper', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'not today' } } });
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(m);
  await m.start();
  return m;
}

/** Each host's answerer's memory (as a window's or the warm host's HookServer keeps one). */
const memories = new Map<Manager, CallMemory>();

/** The agent's hook call with `payload` (an event name as the agent spells it), answered by `m`'s answerer. */
async function hook(m: Manager, agent: HookAgent, eventName: string, payload: Record<string, unknown>) {
  const call = { agent, event: hookEventOf(eventName, agent)!, camel: isCamelEvent(eventName) };
  const input = readHookInput(JSON.stringify(payload), call);
  if (typeof input === 'string') throw new Error(input);
  if (!memories.has(m)) memories.set(m, new CallMemory());
  return answerHook(m, call, input, Date.now() + 10_000, memories.get(m)!);
}

/** The events the watcher got, without their frame type. */
async function seen(m: Manager): Promise<Record<string, unknown>[]> {
  const r = await m.callTool('seen', {});
  return (JSON.parse(r.content[0].text!) as Record<string, unknown>[]).filter((e) => e.type === 'event');
}

describe('agent permission events', () => {
  it('Claude Code: PreToolUse → PermissionRequest → PostToolUse is tool_call, tool_confirmation_requested, permission_decision approved by the user, tool_result — one tool id', async () => {
    const m = await host();
    const session = { session_id: 'claude-s1' };
    const pre = { ...fixture('claude', 'PreToolUse'), ...session };
    expect(await hook(m, 'claude', 'PreToolUse', pre)).toEqual({ stdout: '', exitCode: 0 });
    expect(await hook(m, 'claude', 'PermissionRequest', { ...fixture('claude', 'PermissionRequest'), ...session })).toEqual({ stdout: '', exitCode: 0 });
    await hook(m, 'claude', 'PostToolUse', { ...fixture('claude', 'PostToolUse'), ...session, tool_use_id: pre.tool_use_id });
    const events = await seen(m);
    const id = pre.tool_use_id;
    expect(events.map((e) => [e.event, e.tool_id])).toEqual([
      ['tool_call', id],
      ['tool_confirmation_requested', id],
      ['permission_decision', id],
      ['tool_result', id],
    ]);
    expect(events[1]).toMatchObject({ tool_name: 'bash', tool_preview: 'touch /tmp/zut-agents-sandbox/ws/made', editor_tool: 'Bash', effect: 'exec' });
    expect(events[2]).toMatchObject({ tool_name: 'bash', decision: 'approved', source: 'user', stage: 'pre_execution' });
  });

  it('Claude Code: PermissionDenied after the prompt is denied by the user; without a prompt, by its policy', async () => {
    const m = await host();
    const pre = { ...fixture('claude', 'PreToolUse'), session_id: 'claude-s2' };
    await hook(m, 'claude', 'PreToolUse', pre);
    await hook(m, 'claude', 'PermissionRequest', { ...fixture('claude', 'PermissionRequest'), session_id: 'claude-s2' });
    await hook(m, 'claude', 'PermissionDenied', { ...pre, hook_event_name: 'PermissionDenied', reason: 'the user said no' });
    const pre2 = { ...pre, tool_use_id: 'toolu_other', session_id: 'claude-s3' };
    await hook(m, 'claude', 'PreToolUse', pre2);
    await hook(m, 'claude', 'PermissionDenied', { ...pre2, hook_event_name: 'PermissionDenied', reason: 'auto mode' });
    const decisions = (await seen(m)).filter((e) => e.event === 'permission_decision');
    expect(decisions).toEqual([
      expect.objectContaining({ tool_id: pre.tool_use_id, decision: 'denied', source: 'user', reason: 'the user said no' }),
      expect.objectContaining({ tool_id: 'toolu_other', decision: 'denied', source: 'policy', reason: 'auto mode' }),
    ]);
  });

  it('Copilot CLI: preToolUse → permissionRequest → notification (permission_prompt) → postToolUse; permissionRequest alone asks nobody', async () => {
    const m = await host();
    const s = { sessionId: 'copilot-s1' };
    await hook(m, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), ...s });
    await hook(m, 'copilot-cli', 'permissionRequest', { ...fixture('copilot-cli', 'permissionRequest'), ...s });
    expect((await seen(m)).map((e) => e.event)).toEqual(['tool_call']); // fires before its permission service decides
    expect(await hook(m, 'copilot-cli', 'notification', { ...fixture('copilot-cli', 'notification'), ...s })).toEqual({ stdout: '', exitCode: 0 });
    await hook(m, 'copilot-cli', 'postToolUse', { ...fixture('copilot-cli', 'postToolUse'), ...s });
    const events = await seen(m);
    expect(events.map((e) => e.event)).toEqual(['tool_call', 'tool_confirmation_requested', 'permission_decision', 'tool_result']);
    expect(new Set(events.map((e) => e.tool_id)).size).toBe(1); // Copilot CLI gives no ids: the PreToolUse's, made here
    expect(events[1]).toMatchObject({ tool_name: 'bash', tool_preview: 'touch /tmp/zut-agents-sandbox/ws/made', editor_tool: 'bash' });
    // Its result is the text the model got (textResultForLlm), not the whole object.
    expect(events[3]).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: '\n<shellId: 0 completed with exit code 0>' }], is_error: false } });
  });

  it('Copilot CLI: the hook that answered preToolUse and permissionRequest by itself is gone; the warm host it started hears the prompt and the result of that call (the call memory on disk)', async () => {
    // The first calls of a session, with no window and no warm host yet: the hook answers them with a host of its own
    // (m1) and starts the warm host (m2), which answers the agent's next events. One user's hooks directory.
    const m1 = await host();
    const s = { sessionId: 'copilot-handover' };
    await hook(m1, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), ...s });
    await hook(m1, 'copilot-cli', 'permissionRequest', { ...fixture('copilot-cli', 'permissionRequest'), ...s });
    const [called] = await seen(m1);
    await m1.stop();
    const m2 = await host();
    await hook(m2, 'copilot-cli', 'notification', { ...fixture('copilot-cli', 'notification'), ...s });
    await hook(m2, 'copilot-cli', 'postToolUse', { ...fixture('copilot-cli', 'postToolUse'), ...s });
    const events = await seen(m2);
    expect(events.map((e) => e.event)).toEqual(['tool_confirmation_requested', 'permission_decision', 'tool_result']);
    expect(events.map((e) => e.tool_id)).toEqual([called!.tool_id, called!.tool_id, called!.tool_id]);
    expect(events[0]).toMatchObject({ tool_name: 'bash', tool_preview: 'touch /tmp/zut-agents-sandbox/ws/made' });
    expect(events[1]).toMatchObject({ decision: 'approved', source: 'user' });
    // Another session's prompt finds nothing of this one's.
    const m3 = await host();
    await hook(m3, 'copilot-cli', 'notification', { ...fixture('copilot-cli', 'notification'), sessionId: 'copilot-other' });
    expect(await seen(m3)).toEqual([]);
  });

  it('Claude Code: a PermissionRequest another host answers finds the call by name and input, and the files stay private', async () => {
    const m1 = await host();
    const pre = { ...fixture('claude', 'PreToolUse'), session_id: 'claude-handover' };
    await hook(m1, 'claude', 'PreToolUse', pre);
    const m2 = await host();
    await hook(m2, 'claude', 'PermissionRequest', { ...fixture('claude', 'PermissionRequest'), session_id: 'claude-handover' });
    expect((await seen(m2)).map((e) => [e.event, e.tool_id])).toEqual([['tool_confirmation_requested', pre.tool_use_id]]);
    const dir = process.env.ZUT_HOOKS_DIR!;
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dir).filter((f) => f.startsWith('m-'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
  });

  it("Copilot CLI's PascalCase PostToolUse result (tool_result: {result_type, text_result_for_llm}) is read too", async () => {
    const m = await host();
    await hook(m, 'copilot-cli', 'PostToolUse', { ...fixture('copilot-cli', 'PostToolUse'), tool_result: { result_type: 'failure', text_result_for_llm: 'it broke' } });
    expect((await seen(m)).find((e) => e.event === 'tool_result')).toMatchObject({ status: 'failed', result: { content: [{ type: 'text', text: 'it broke' }], is_error: true } });
  });

  it("a guard's block is a permission_decision denied by policy (zot-extensions.md: guard refusals use policy)", async () => {
    const m = await host(true);
    const pre = { ...fixture('claude', 'PreToolUse'), session_id: 'claude-s4' };
    expect(JSON.parse((await hook(m, 'claude', 'PreToolUse', pre)).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect((await seen(m)).find((e) => e.event === 'permission_decision')).toMatchObject({ tool_id: pre.tool_use_id, decision: 'denied', source: 'policy', reason: 'blocked by stopper: not today' });
  });

  it('Copilot CLI: two calls of one tool in flight — the prompt and each result are filed under their own call, told apart by the arguments Copilot repeats (never by name alone)', async () => {
    const m = await host();
    const s = { sessionId: 'copilot-two' };
    const args = (command: string) => ({ command, description: 'scripted call' });
    const result = (text: string) => ({ resultType: 'success', textResultForLlm: text });
    await hook(m, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), ...s, toolArgs: args('echo A') });
    await hook(m, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), ...s, toolArgs: args('echo B') });
    // Copilot CLI asks about A (its permissionRequest repeats A's command), while B waits its turn.
    await hook(m, 'copilot-cli', 'permissionRequest', { ...fixture('copilot-cli', 'permissionRequest'), ...s, toolInput: { command: 'echo A' } });
    await hook(m, 'copilot-cli', 'notification', { ...fixture('copilot-cli', 'notification'), ...s, message: 'Run command: echo A' });
    await hook(m, 'copilot-cli', 'postToolUse', { ...fixture('copilot-cli', 'postToolUse'), ...s, toolArgs: args('echo A'), toolResult: result('A ran') });
    await hook(m, 'copilot-cli', 'postToolUse', { ...fixture('copilot-cli', 'postToolUse'), ...s, toolArgs: args('echo B'), toolResult: result('B ran') });
    const events = await seen(m);
    const [a, b] = events.filter((e) => e.event === 'tool_call').map((e) => e.tool_id);
    expect(a).not.toBe(b);
    const text = (e: Record<string, unknown>) => ((e.result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;
    expect(events.map((e) => [e.event, e.tool_id === a ? 'A' : e.tool_id === b ? 'B' : e.tool_id, e.event === 'tool_result' ? text(e) : (e.decision ?? e.tool_preview ?? (e.tool_args as { command?: string } | undefined)?.command)])).toEqual([
      ['tool_call', 'A', 'echo A'],
      ['tool_call', 'B', 'echo B'],
      ['tool_confirmation_requested', 'A', 'echo A'],
      ['permission_decision', 'A', 'approved'],
      ['tool_result', 'A', 'A ran'],
      ['tool_result', 'B', 'B ran'],
    ]);
  });

  it('a call is written to the hooks directory only while an extension subscribes to an event that needs it there; a finished call’s file is removed', async () => {
    const dir = process.env.ZUT_HOOKS_DIR!;
    const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('m-')) : []);
    for (const f of files()) fs.rmSync(path.join(dir, f));
    // A tap of tool_call alone: nothing later needs the call.
    const tap = await host(false, ['tool_call']);
    await hook(tap, 'claude', 'PreToolUse', { ...fixture('claude', 'PreToolUse'), session_id: 'claude-nofile' });
    await hook(tap, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), sessionId: 'copilot-nofile' });
    expect(files()).toEqual([]);
    // A result subscriber: a Copilot CLI call (no id from the agent: its result must carry the id made here) is.
    const results = await host(false, ['tool_result']);
    await hook(results, 'claude', 'PreToolUse', { ...fixture('claude', 'PreToolUse'), session_id: 'claude-nofile' });
    expect(files()).toEqual([]);
    await hook(results, 'copilot-cli', 'preToolUse', { ...fixture('copilot-cli', 'preToolUse'), sessionId: 'copilot-file' });
    expect(files()).toHaveLength(1);
    await hook(results, 'copilot-cli', 'postToolUse', { ...fixture('copilot-cli', 'postToolUse'), sessionId: 'copilot-file' });
    expect(files()).toEqual([]);
  });
});
