/**
 * Soak of the hook call memory (issue 38): 10,000 PreToolUse calls and their PostToolUse through the answering side
 * (a HookServer over a real Manager, its local socket asked as hooks ask it: src/hooks/client.ts), Claude Code's
 * (with ids) and Copilot CLI's (none), two in flight at a time, across 300 agent sessions, with a subscriber of
 * every event that needs a call on disk (the hook guard: tool_result, tool_confirmation_requested,
 * permission_decision). One call in ten is blocked by the guard (never remembered); one in seven never gets its
 * PostToolUse (an interrupted call: its file stays until the bounds remove it). The hooks directory never holds
 * more than HOOK_MEMORY_FILES call files, at every sample and at the end — and does hold some: they are written.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askRunningHost } from '../../src/hooks/client';
import type { HookCall } from '../../src/hooks/names';
import { HookServer } from '../../src/hooks/server';
import { NullHostUi } from '../../src/host/hostUi';
import { Manager } from '../../src/host/manager';
import { HOOK_MEMORY_FILES } from '../../src/protocol/limits';

const SCALE = Number(process.env.ZUT_STRESS_SCALE ?? 1);
const CALLS = Math.max(1000, Math.round(10_000 * SCALE));
const SESSIONS = 300;
/** Every this many calls, the directory is counted. */
const SAMPLE_EVERY = 100;

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-call-memory-soak-')));
const hooks = path.join(tmp, 'hooks');
const ws = path.join(tmp, 'ws');
const was = { hooks: process.env.ZUT_HOOKS_DIR, log: process.env.GUARD_LOG };

afterAll(() => {
  process.env.ZUT_HOOKS_DIR = was.hooks;
  process.env.GUARD_LOG = was.log;
  if (was.hooks === undefined) delete process.env.ZUT_HOOKS_DIR;
  if (was.log === undefined) delete process.env.GUARD_LOG;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const callFiles = () => fs.readdirSync(hooks).filter((n) => /^m-.*\.json$/.test(n)).length;

describe('the hook call memory over 10,000 calls', () => {
  it('keeps the hooks directory within HOOK_MEMORY_FILES call files', async () => {
    process.env.ZUT_HOOKS_DIR = hooks;
    process.env.GUARD_LOG = '/dev/null';
    fs.mkdirSync(ws, { recursive: true });
    const guard = path.join(tmp, 'home', 'extensions', 'hook-guard');
    fs.mkdirSync(guard, { recursive: true });
    fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, '../unit/fixtures/hooks/guard.mjs')] }));
    const manager = new Manager({ folders: [ws], zutHome: path.join(tmp, 'home'), ui: new NullHostUi(), hostVersion: 't', provider: 'hook', model: 'unknown' });
    await manager.start();
    const server = await HookServer.listen(manager, [ws], { dir: hooks });
    if (typeof server === 'string') throw new Error(server);
    try {
      const ask = async (call: HookCall, input: object) => {
        const a = await askRunningHost(ws, call, JSON.stringify(input), { deadline: Date.now() + 25_000, budgetMs: 25_000 });
        if (!a || a.exitCode !== 0) throw new Error(`${call.event}: ${JSON.stringify(a)}`);
        return a;
      };
      /** Call `i`'s PreToolUse, and the PostToolUse that follows it (undefined: blocked, or interrupted). */
      const pre = async (i: number): Promise<(() => Promise<unknown>) | undefined> => {
        const command = i % 10 === 0 ? 'rm -rf /' : `echo ${i}`;
        const args = { command, description: `call ${i}` };
        const claude = i % 2 === 0;
        const session = `session-${i % SESSIONS}`;
        const a = claude
          ? await ask({ agent: 'claude', event: 'PreToolUse', camel: false }, { session_id: session, cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: args, tool_use_id: `toolu_${i}` })
          : await ask({ agent: 'copilot-cli', event: 'PreToolUse', camel: true }, { sessionId: session, cwd: ws, toolName: 'bash', toolArgs: args });
        if (i % 10 === 0) {
          expect(a.stdout).toContain('blocked by hook-guard: no rm -rf here');
          return undefined;
        }
        expect(a.stdout).toBe('');
        if (i % 7 === 0) return undefined;
        return () =>
          claude
            ? ask({ agent: 'claude', event: 'PostToolUse', camel: false }, { session_id: session, cwd: ws, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: args, tool_use_id: `toolu_${i}`, tool_response: { stdout: `${i}\n` } })
            : ask({ agent: 'copilot-cli', event: 'PostToolUse', camel: true }, { sessionId: session, cwd: ws, toolName: 'bash', toolArgs: args, toolResult: { resultType: 'success', textResultForLlm: `${i}\n` } });
      };
      let most = 0;
      for (let i = 0; i < CALLS; i += 2) {
        // Two in flight: both called, then the later one's result first.
        const a = await pre(i);
        const b = await pre(i + 1);
        await b?.();
        await a?.();
        if (i % SAMPLE_EVERY === 0) most = Math.max(most, callFiles());
      }
      const left = callFiles();
      expect(Math.max(most, left)).toBeLessThanOrEqual(HOOK_MEMORY_FILES);
      expect(left).toBeGreaterThan(0); // the interrupted calls' files: written, then bounded
      console.log(`hook call memory soak: ${CALLS} calls, at most ${most} call files at a sample, ${left} at the end (bound ${HOOK_MEMORY_FILES})`);
    } finally {
      server.dispose();
      await manager.stop();
      manager.dispose();
    }
  }, 600_000);
});
