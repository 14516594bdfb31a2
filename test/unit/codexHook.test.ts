/**
 * Codex CLI's hook dialect and tools (src/hooks/dialects/codex.ts, src/host/calls/foreignTools/codex.ts) on the
 * payloads Codex CLI 0.169.0 wrote (test/agents/fixtures/codex, captured by test/agents/codex.test.mjs): its event
 * names, the input as zut reads it, a guard's block answered in Codex's deny form, a rewrite answered as a deny that
 * carries the rewritten call, a failure denied, and its shell and patch tools as zut's `bash` and `write`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { CODEX, codexRewriteReason } from '../../src/hooks/dialects/codex';
import { hookEventOf } from '../../src/hooks/dialects';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput } from '../../src/hooks/input';
import { HOOK_AGENTS, isCamelEvent, type HookCall } from '../../src/hooks/names';
import { foreignCall } from '../../src/host/calls/foreignTools';
import { Manager } from '../../src/host/manager';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, zutHome } from '../helpers/hostFixtures';

const FIXTURES = path.resolve(__dirname, '../agents/fixtures/codex');
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown> & { tool_input: Record<string, unknown> };

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

const callOf = (eventName: string): HookCall => ({ agent: 'codex', event: hookEventOf(eventName, 'codex')!, camel: isCamelEvent(eventName) });

async function guarded(intercept: Record<string, unknown>): Promise<Manager> {
  const z = zutHome();
  nodeExt(z.exts, { name: 'stopper', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: intercept } });
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(m);
  await m.start();
  return m;
}

async function answer(m: Manager, name: string) {
  const call = callOf(name.split('.')[0]);
  const input = readHookInput(JSON.stringify(fixture(name)), call);
  if (typeof input === 'string') throw new Error(input);
  return answerHook(m, call, input, Date.now() + 10_000, new CallMemory());
}

describe('Codex CLI hook dialect', () => {
  it('is an agent of `zut-host hook --agent`, with every event Codex sends', () => {
    expect(HOOK_AGENTS).toContain('codex');
    for (const e of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']) expect(hookEventOf(e, 'codex')).toBe(e);
  });

  it("reads Codex's PreToolUse payload: the tool, its input, the session, the folder", () => {
    const input = readHookInput(JSON.stringify(fixture('PreToolUse')), callOf('PreToolUse'));
    if (typeof input === 'string') throw new Error(input);
    expect(input.toolName).toBe('Bash');
    expect(input.toolInput).toEqual({ command: 'echo hi' });
    expect(input.sessionId).toBe(fixture('PreToolUse').session_id);
    expect(input.cwd).toBe('/tmp/zut-agents-sandbox/ws');
  });

  it("a guard's block is Codex's deny: hookSpecificOutput.permissionDecision with the reason", async () => {
    const m = await guarded({ block: true, reason: 'not today' });
    const a = await answer(m, 'PreToolUse');
    expect(a.exitCode).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by stopper: not today' } });
  });

  it("a guard's rewrite is a deny whose reason carries the rewritten command — never updatedInput (no allow)", async () => {
    const m = await guarded({ modified_args: { command: 'echo bye' } });
    const a = JSON.parse((await answer(m, 'PreToolUse')).stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(a.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(a.hookSpecificOutput).not.toHaveProperty('updatedInput');
    expect(a.hookSpecificOutput.permissionDecisionReason).toBe('zut: the guard stopper rewrote this Bash call (not run); issue it as rewritten: echo bye');
    expect(codexRewriteReason({ updated: { x: 1 }, toolName: 'apply_patch', by: ['a', 'b'] })).toMatch(/guard a, b rewrote this apply_patch call .*: \{"x":1\}$/);
  });

  it('no opinion is nothing; a failure denies; context and a blocked prompt in the forms Codex reads', async () => {
    const m = await guarded({});
    expect(await answer(m, 'PreToolUse')).toEqual({ stdout: '', exitCode: 0 });
    const failed = hookFailure(callOf('PreToolUse'), 'boom');
    expect(JSON.parse(failed.stdout).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by zut: zut-host hook: boom' });
    expect(JSON.parse(CODEX.context(callOf('UserPromptSubmit'), 'UserPromptSubmit', 'ctx').stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' } });
    expect(JSON.parse(CODEX.blockPrompt(callOf('UserPromptSubmit'), 'no').stdout)).toEqual({ decision: 'block', reason: 'no' });
  });
});

describe("Codex CLI's tools as guards see them", () => {
  it('Bash {command} is zut bash; a rewrite maps back onto command', () => {
    const c = foreignCall('codex', 'Bash', fixture('PreToolUse').tool_input);
    expect(c.views).toEqual([{ name: 'bash', args: { command: 'echo hi' }, effect: 'exec' }]);
    expect(c.back([{ command: 'echo bye' }])).toEqual({ input: { command: 'echo bye' } });
  });

  it('apply_patch {command: patch} is one write per added file', () => {
    const c = foreignCall('codex', 'apply_patch', fixture('PreToolUse.apply_patch').tool_input);
    expect(c.mapped).toBe(true);
    expect(c.views.map((v) => [v.name, v.args])).toEqual([['write', { path: 'hello.txt', content: 'hi' }]]);
  });

  it("zut's own MCP tools are mcp__zut__<tool>", () => {
    expect(CODEX.mcpToolPrefixes).toEqual(['mcp__zut__']);
  });
});
