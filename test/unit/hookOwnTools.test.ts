/**
 * The hook's "ours" rule while the host's extensions are still starting (a warm host that has just come up): a tool
 * named as zut's MCP server's is skipped only once the host knows it serves it, so the answer waits for the
 * extensions within the budget; a tool it does not serve is guarded (test:agents found zut's own MCP tool judged
 * twice, by the MCP server's host and by a just-started warm host that did not list it yet).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { readHookInput } from '../../src/hooks/input';
import { Manager } from '../../src/host/manager';
import { NODE_FIXTURE, RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, writeExt, zutHome } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** Not yet started: a guard that blocks every call, and `slow`, serving `status`, which says hello after 1.5 s. */
function slowHost(): Manager {
  const z = zutHome();
  nodeExt(z.exts, { name: 'stopper', subscribe: { intercept: ['tool_call'] }, intercept: { tool_call: { block: true, reason: 'not today' } } });
  const cfg = JSON.stringify({ name: 'slow', tools: [{ name: 'status' }] });
  writeExt(z.exts, 'slow', { name: 'slow', version: '1.0.0', exec: 'sh', args: ['-c', 'sleep 1.5; exec "$0" "$@"', process.execPath, NODE_FIXTURE, cfg] });
  const m = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
  keepManager(m);
  return m;
}

/** Copilot CLI's preToolUse for `toolName` (its spelling of an MCP tool: `<server>-<tool>`). */
async function preToolUse(m: Manager, toolName: string) {
  const input = readHookInput(JSON.stringify({ sessionId: 's1', timestamp: 1, cwd: '/', toolName, toolArgs: {} }), { agent: 'copilot-cli', event: 'PreToolUse', camel: true });
  if (typeof input === 'string') throw new Error(input);
  return answerHook(m, { agent: 'copilot-cli', event: 'PreToolUse', camel: true }, input, Date.now() + 10_000, new CallMemory());
}

describe('hook: zut\'s own MCP tools on a host still starting', () => {
  it('zut-status, served by an extension that is not up yet, is skipped once it is (no answer: judged on the MCP path)', async () => {
    const m = slowHost();
    const started = m.start();
    expect(m.allTools().map((t) => t.name)).toEqual([]);
    expect(await preToolUse(m, 'zut-status')).toEqual({ stdout: '', exitCode: 0 });
    expect(m.allTools().map((t) => t.name)).toEqual(['status']);
    await started;
  });

  it('zut-other, which no extension serves, is guarded like any tool once they are up (the guard denies it)', async () => {
    const m = slowHost();
    const started = m.start();
    const answer = await preToolUse(m, 'zut-other');
    expect(JSON.parse(answer.stdout)).toMatchObject({ permissionDecision: 'deny' });
    expect(answer.stdout).toContain('blocked by stopper: not today');
    await started;
  });
});
