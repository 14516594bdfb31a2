/**
 * Gemini CLI's hook dialect (src/hooks/dialects/gemini.ts) and its tools in the foreign-tool table
 * (src/host/calls/foreignTools/gemini.ts), on the payloads Gemini CLI 0.61.0 sent (test/agents/fixtures/gemini,
 * captured by `npm run test:agents`), answered by one host as a window or the warm host answers them: its event names,
 * its deny (`decision: "deny"` at the top level: it ignores Claude Code's shape), its rewrite
 * (`hookSpecificOutput.tool_input`), its context, its blocked prompt, a failure that denies, and the tool result
 * read as the text the model got.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput } from '../../src/hooks/input';
import { HOOK_AGENTS, isCamelEvent } from '../../src/hooks/names';
import { hookEventOf } from '../../src/hooks/dialects';
import { hasOwnPrefix } from '../../src/hooks/tools';
import { foreignCall } from '../../src/host/calls/foreignTools';
import { Manager } from '../../src/host/manager';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, zutHome } from '../helpers/hostFixtures';

const FIXTURES = path.resolve(__dirname, '../agents/fixtures/gemini');
const fixture = (event: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${event}.json`), 'utf8')) as Record<string, unknown>;

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** A host with a watcher of every tool and turn event and, optionally, a guard answering `intercept`. */
async function host(intercept?: Record<string, unknown>): Promise<Manager> {
  const z = zutHome();
  nodeExt(z.exts, { name: 'watcher', tools: [{ name: 'seen', mode: 'events' }], subscribe: { events: ['tool_call', 'tool_result', 'user_prompt_submit', 'turn_end'] } });
  if (intercept) nodeExt(z.exts, { name: 'stopper', subscribe: { intercept: Object.keys(intercept) }, intercept });
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(m);
  await m.start();
  return m;
}

/** Gemini CLI's hook call `eventName` with `payload`, answered by `m`. */
async function hook(m: Manager, eventName: string, payload: Record<string, unknown>) {
  const call = { agent: 'gemini' as const, event: hookEventOf(eventName, 'gemini')!, camel: isCamelEvent(eventName) };
  const input = readHookInput(JSON.stringify(payload), call);
  if (typeof input === 'string') throw new Error(input);
  return answerHook(m, call, input, Date.now() + 10_000, new CallMemory());
}

const seen = async (m: Manager) => (JSON.parse((await m.callTool('seen', {})).content[0].text!) as Record<string, unknown>[]).filter((e) => e.type === 'event');

describe('Gemini CLI hook dialect', () => {
  it('is an agent, and names its events its own way', () => {
    expect(HOOK_AGENTS).toContain('gemini');
    const events = ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart', 'SessionEnd'].map((e) => hookEventOf(e, 'gemini'));
    expect(events).toEqual(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart', 'SessionEnd']);
    expect(hookEventOf('BeforeTool', 'claude')).toBeUndefined();
    expect(hasOwnPrefix('gemini', 'mcp_zut_guard_status')).toBe(true);
    expect(hasOwnPrefix('gemini', 'mcp__zut__guard_status')).toBe(false);
  });

  it('BeforeTool run_shell_command a guard blocks: `decision: "deny"` with the reason at the top level, exit 0; the guard saw bash', async () => {
    const m = await host({ tool_call: { block: true, reason: 'not today' } });
    const a = await hook(m, 'BeforeTool', fixture('BeforeTool'));
    expect(a.exitCode).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ decision: 'deny', reason: 'blocked by stopper: not today' });
    expect((await seen(m)).find((e) => e.event === 'tool_call')).toMatchObject({ tool_name: 'bash', tool_args: { command: 'touch /tmp/zut-agents-sandbox/ws/made' }, editor_tool: 'run_shell_command' });
  });

  it('BeforeTool with no opinion: nothing on stdout (never an allow)', async () => {
    const m = await host();
    expect(await hook(m, 'BeforeTool', fixture('BeforeTool'))).toEqual({ stdout: '', exitCode: 0 });
  });

  it('BeforeTool a guard rewrites: the whole input in `hookSpecificOutput.tool_input`, the other fields kept', async () => {
    const m = await host({ tool_call: { modified_args: { command: 'touch /tmp/zut-agents-sandbox/ws/rewritten' } } });
    const a = await hook(m, 'BeforeTool', fixture('BeforeTool'));
    expect(JSON.parse(a.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'touch /tmp/zut-agents-sandbox/ws/rewritten', description: 'scripted call' } } });
  });

  it('AfterTool: a tool_result of bash whose text is the llmContent the model got', async () => {
    const m = await host();
    expect(await hook(m, 'AfterTool', fixture('AfterTool'))).toEqual({ stdout: '', exitCode: 0 });
    const result = (await seen(m)).find((e) => e.event === 'tool_result');
    expect(result).toMatchObject({ tool_name: 'bash' });
    expect(result?.is_error ?? false).toBe(false);
    expect(JSON.stringify(result)).toContain('Output: (empty)');
    expect(JSON.stringify(result)).not.toContain('returnDisplay');
  });

  it('BeforeAgent: the turn_start context as additionalContext; a blocked prompt as `decision: "deny"`', async () => {
    const withContext = await host({ turn_start: { context: 'mind the tests' } });
    const context = JSON.parse((await hook(withContext, 'BeforeAgent', fixture('BeforeAgent'))).stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(context.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(context.hookSpecificOutput.additionalContext).toBe('[stopper]\nmind the tests');
    await stopManagers();
    const blocking = await host({ turn_start: { block: true, reason: 'no' } });
    expect(JSON.parse((await hook(blocking, 'BeforeAgent', fixture('BeforeAgent'))).stdout)).toEqual({ decision: 'deny', reason: 'blocked by stopper: no' });
  });

  it('a BeforeTool that fails denies on stdout (Gemini CLI lets the call run on exit 1); other events fail with exit 1', () => {
    const pre = hookFailure({ agent: 'gemini', event: 'PreToolUse', camel: false }, 'host gone');
    expect(pre.exitCode).toBe(0);
    expect(JSON.parse(pre.stdout)).toEqual({ decision: 'deny', reason: 'blocked by zut: zut-host hook: host gone' });
    expect(hookFailure({ agent: 'gemini', event: 'PostToolUse', camel: false }, 'x')).toMatchObject({ stdout: '', exitCode: 1 });
  });
});

describe("Gemini CLI's tools as zut's", () => {
  const views = (name: string, input: Record<string, unknown>) => foreignCall('gemini', name, input).views;

  it('run_shell_command is bash; write_file write; read_file read with its line range; replace edit; grep_search grep', () => {
    expect(views('run_shell_command', { command: 'ls', dir_path: 'src' })).toEqual([{ name: 'bash', args: { command: 'ls' }, effect: 'exec' }]);
    expect(views('write_file', { file_path: 'a.txt', content: 'x' })).toEqual([{ name: 'write', args: { path: 'a.txt', content: 'x' }, effect: 'write' }]);
    expect(views('read_file', { file_path: 'a.txt', start_line: 3, end_line: 7 })).toEqual([{ name: 'read', args: { path: 'a.txt', offset: 3, limit: 5 }, effect: 'read' }]);
    expect(views('replace', { file_path: 'a.txt', instruction: 'fix', old_string: 'a', new_string: 'b' })).toEqual([{ name: 'edit', args: { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] }, effect: 'write' }]);
    expect(views('grep_search', { pattern: 'x+', include_pattern: '*.ts' })).toEqual([{ name: 'grep', args: { pattern: 'x+', glob: '*.ts' }, effect: 'read' }]);
    expect(views('web_fetch', { prompt: 'summarize https://example.com' })).toEqual([{ name: 'web_fetch', args: { prompt: 'summarize https://example.com' }, effect: 'network' }]);
  });

  it('rewrites map back onto its input; what it cannot express is refused (the call is then blocked)', () => {
    const read = foreignCall('gemini', 'read_file', { file_path: 'a.txt', start_line: 3, end_line: 7 });
    expect(read.back([{ path: 'b.txt', offset: 2, limit: 2 }])).toEqual({ input: { file_path: 'b.txt', start_line: 2, end_line: 3 } });
    const replace = foreignCall('gemini', 'replace', { file_path: 'a', instruction: 'i', old_string: 'a', new_string: 'b', allow_multiple: true });
    expect(replace.back([{ path: 'a', edits: [{ oldText: 'a', newText: 'c' }] }])).toEqual({ error: 'edit.edits of an allow_multiple replace cannot be rewritten' });
    const shell = foreignCall('gemini', 'run_shell_command', { command: 'ls' });
    expect(shell.back([{ command: 'ls', cwd: '/tmp' }])).toEqual({ error: 'bash.cwd has no counterpart in run_shell_command' });
    expect(foreignCall('gemini', 'run_shell_command', { command: 42 }).unfit).toBe(true);
  });
});
