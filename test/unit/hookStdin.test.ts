// A hook whose agent leaves stdin open (Cline CLI's detached events): the input is read as soon as it is a whole JSON
// object, and a hook given half an object answers its agent's failure (a PreToolUse denies) at HOOK_STDIN_MS, not at
// the agent's timeout — through both entries (the light dist/hook.js and the CLI it falls back to).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_STDIN_MS } from '../../src/protocol/limits';
import { hookBundlesIn } from '../helpers/built';
import { tempDir } from '../helpers/temp';

/** Runs `script hook --agent claude --no-warm PreToolUse`, writes `input` and never closes stdin. */
function openStdin(script: string, input: string): Promise<{ stdout: string; code: number | null; ms: number }> {
  const home = tempDir('zut-stdin-home-');
  const started = Date.now();
  const child = spawn(process.execPath, [script, 'hook', '--agent', 'claude', '--no-warm', 'PreToolUse'], { env: { PATH: process.env.PATH, HOME: home, ZUT_HOME: path.join(home, 'zut') }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.write(input);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, code, ms: Date.now() - started })));
}

describe('hook stdin left open by the agent', () => {
  const dir = hookBundlesIn(tempDir('zut-stdin-dist-'));
  const whole = JSON.stringify({ session_id: 's', cwd: tempDir('zut-stdin-ws-'), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });

  for (const entry of ['hook.js', 'cli.js']) {
    it(`${entry}: a whole object is answered without waiting for stdin to close (no guard: no opinion)`, async () => {
      const r = await openStdin(path.join(dir, entry), whole + '\n');
      expect(r).toMatchObject({ stdout: '', code: 0 });
      expect(r.ms).toBeLessThan(HOOK_STDIN_MS);
    });

    it(`${entry}: half an object is denied at the stdin deadline`, async () => {
      const r = await openStdin(path.join(dir, entry), whole.slice(0, 40));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('input is not JSON') });
      expect(r.ms).toBeGreaterThanOrEqual(HOOK_STDIN_MS - 500);
    });
  }
});
