/**
 * Agent hooks answered by a real host (src/hooks/answer.ts over a Manager running the example `briefing` extension and
 * the e fixture `enode`), with the agents' documented payloads: SessionStart offers the running extensions' skills
 * (name, description and the SKILL.md to read) as `additionalContext` where the agent reads it (Claude Code, VS
 * Code; not Copilot CLI's camelCase sessionStart, whose output is ignored); UserPromptSubmit hands the prompt to e's
 * `hook.before_turn`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHook } from '../../src/hooks/answer';
import { CallMemory } from '../../src/hooks/callMemory';
import { isOwnMcpName } from '../../src/hooks/tools';
import { readHookInput, type HookInput } from '../../src/hooks/input';
import type { HookAgent, HookCall, HookEvent } from '../../src/hooks/names';
import { Manager } from '../../src/host/manager';
import { RecordingUi, cleanupTemps, keepManager, stopManagers, tempDir, zutHome } from '../helpers/hostFixtures';
import { copyExample, killAll } from '../helpers/stdioDriver';

afterEach(async () => {
  await stopManagers();
  await killAll();
  cleanupTemps();
});

const E_FIXTURES = path.resolve(__dirname, '../fixtures/e');

/** A Manager running the briefing example (and enode, the e guard with a before_turn hook). */
async function host() {
  const briefing = copyExample('briefing');
  const eHome = tempDir('e-home-');
  fs.mkdirSync(path.join(eHome, 'extensions'));
  fs.symlinkSync(path.join(E_FIXTURES, 'enode'), path.join(eHome, 'extensions', 'enode'));
  const m = new Manager({ folders: [tempDir('hook-project-')], zutHome: zutHome().home, extensionPaths: [briefing], e: { home: eHome }, ui: new RecordingUi(), hostVersion: '9' });
  keepManager(m);
  await m.start();
  return { m, skillFile: fs.realpathSync(path.join(briefing, 'skills', 'weather-briefing', 'SKILL.md')) };
}

function input(o: object): HookInput {
  const r = readHookInput(JSON.stringify(o), { agent: 'vscode', event: 'SessionStart', camel: false });
  if (typeof r === 'string') throw new Error(r);
  return r;
}
const call = (agent: HookAgent, event: HookEvent, camel = false): HookCall => ({ agent, event, camel });
const context = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;

describe('agent hooks: skills and prompts', () => {
  it('SessionStart: the skills as additionalContext (Claude Code, VS Code), each with its SKILL.md; Copilot CLI camelCase gets nothing', async () => {
    const { m, skillFile } = await host();
    const start = { hook_event_name: 'SessionStart', session_id: 's1', cwd: '/tmp', source: 'startup' };
    for (const agent of ['claude', 'vscode'] as const) {
      const a = await answerHook(m, call(agent, 'SessionStart'), input(start), Date.now() + 10_000, new CallMemory());
      expect(a.exitCode).toBe(0);
      const text = context(a.stdout);
      expect(text).toMatch(/^Skills of zut extensions are available\. When a task matches one, read its SKILL\.md/);
      expect(text).toContain(`- weather-briefing (from briefing): Write a short travel weather briefing for one or more cities with the weather extension's tools. Use when someone asks what weather to expect on a trip or what to pack for it. (${skillFile})`);
      expect(text).not.toContain('# Weather briefing'); // the body is read on demand, never up front
    }
    // Copilot CLI's sessionStart output is not processed (GitHub's CLI hooks reference): nothing is printed.
    expect(await answerHook(m, call('copilot-cli', 'SessionStart', true), input({ sessionId: 's2', cwd: '/tmp', source: 'new', timestamp: 1 }), Date.now() + 10_000, new CallMemory())).toEqual({ stdout: '', exitCode: 0 });
  });

  it('SessionStart with no skill running prints nothing (an empty context is no context)', async () => {
    const { m } = await host();
    await m.stopExtension('briefing');
    expect(await answerHook(m, call('claude', 'SessionStart'), input({ hook_event_name: 'SessionStart', session_id: 's3', cwd: '/tmp' }), Date.now() + 10_000, new CallMemory())).toEqual({ stdout: '', exitCode: 0 });
  });

  it("UserPromptSubmit: e's hook.before_turn is sent the agent's prompt (issue 31: it was empty)", async () => {
    const { m } = await host();
    const a = await answerHook(m, call('claude', 'UserPromptSubmit'), input({ hook_event_name: 'UserPromptSubmit', session_id: 's4', cwd: '/tmp', prompt: 'pack for Reykjavik?' }), Date.now() + 10_000, new CallMemory());
    expect(context(a.stdout)).toBe('[enode]\nAnswer in one line. The user asked: pack for Reykjavik?');
  });

  it("the host's skill tool through zut's MCP server is ours while an extension bundles skills (the hook skips it)", () => {
    expect(isOwnMcpName('claude', 'mcp__zut__skill', [], ['skill'])).toBe(true);
    expect(isOwnMcpName('copilot-cli', 'zut-skill', [], ['skill'])).toBe(true);
    expect(isOwnMcpName('claude', 'mcp__zut__skill', [], [])).toBe(false);
    expect(isOwnMcpName('claude', 'mcp__other__skill', [], ['skill'])).toBe(false);
  });
});
