/**
 * Issue 38: the first calls of a session, with no window and no warm host yet. The first hook answers by itself and
 * starts the warm host; the agent's next event comes a moment later, while that host starts — and is answered by
 * another hook's own host or by the warm host whose extensions are not up yet. Either way the event reaches its
 * extensions: a Claude Code PermissionRequest right after its PreToolUse is a `tool_confirmation_requested` at a
 * subscriber (20 of 20 rounds, a fresh hooks directory each), and the first UserPromptSubmit after a cold
 * SessionStart carries the guard's `turn_start` context, a tap hearing `user_prompt_submit` and `turn_start`. Real
 * bundles (dist/hook.js beside dist/cli.js) spawned through a shell as agents spawn hooks, on the payloads Claude
 * Code sent (test/agents/fixtures), against the hook guard (fixtures/hooks/guard.mjs: it logs every event it gets).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';
import { until } from '../helpers/until';

const FIXTURES = path.resolve(__dirname, '../agents/fixtures/claude');
const fixture = (event: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${event}.json`), 'utf8')) as Record<string, unknown>;
/** How long an event may take to reach the guard's log once its hook has answered (it is sent before the answer). */
const LOGGED_MS = 3_000;

let tmp: string;
let bin: string;
let zutHome: string;
let ws: string;
/** Every round's hooks directory, so afterAll stops any warm host a failed round left. */
const rounds: { hooks: string; log: string }[] = [];

beforeAll(() => {
  tmp = tempDir('zut-first-');
  bin = hookBundlesIn(path.join(tmp, 'bin'));
  zutHome = path.join(tmp, 'zut-home');
  const guard = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(guard, { recursive: true });
  fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
  ws = path.join(tmp, 'ws');
  fs.mkdirSync(ws);
});

afterAll(async () => {
  for (const r of rounds) await zutHost(r, ['hook', 'host', 'stop']);
  cleanupTemps();
});

/** A fresh hooks directory and guard log: no warm host, no call memory. */
function round(name: string, late?: number): { hooks: string; log: string; late?: number } {
  const r = { hooks: path.join(tmp, name, 'hooks'), log: path.join(tmp, name, 'guard.log'), late };
  fs.mkdirSync(path.dirname(r.hooks), { recursive: true });
  rounds.push(r);
  return r;
}
const env = (r: { hooks: string; log: string; late?: number }): NodeJS.ProcessEnv => ({
  ...process.env,
  GUARD_LATE_MS: String(r.late ?? 0),
  HOME: tmp,
  ZUT_HOME: zutHome,
  ZOT_HOME: path.join(tmp, 'no-zot'),
  ZUT_HOOKS_DIR: r.hooks,
  GUARD_LOG: r.log,
  ZUT_HOOK_WARM: '1',
});
const zutHost = (r: { hooks: string; log: string }, args: string[]) => runProcess(process.execPath, [path.join(bin, 'cli.js'), ...args], { env: env(r), timeoutMs: 60_000 });
const hook = (r: { hooks: string; log: string }, event: string, input: object) =>
  runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook --agent claude ${event}`, [], { shell: true, cwd: ws, env: env(r), stdin: JSON.stringify(input), timeoutMs: 60_000 });
const logged = (r: { log: string }): Record<string, unknown>[] =>
  (fs.existsSync(r.log) ? fs.readFileSync(r.log, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
/** The warm host this round's first hook started, once it listens; then stopped, its guard with it. */
async function stopWarmHost(r: { hooks: string; log: string }): Promise<void> {
  await until(async () => (JSON.parse((await zutHost(r, ['hook', 'host', 'status', '--json'])).stdout) as unknown[]).length > 0, 15_000, 'the warm host');
  expect((await zutHost(r, ['hook', 'host', 'stop'])).stdout).toContain('Stopped 1 warm hook host');
}

describe('the first calls of a session, while the warm host starts (issue 38)', () => {
  it('a PermissionRequest right after its cold PreToolUse is a tool_confirmation_requested at the subscriber, 20 rounds of 20', async () => {
    const missed: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = round(`perm-${i}`);
      const session = { session_id: `perm-session-${i}`, cwd: ws };
      const pre = { ...fixture('PreToolUse'), ...session, tool_use_id: `toolu_cold_${i}` };
      expect(await hook(r, 'PreToolUse', pre)).toMatchObject({ code: 0, stdout: '' });
      expect(await hook(r, 'PermissionRequest', { ...fixture('PermissionRequest'), ...session })).toMatchObject({ code: 0, stdout: '' });
      const asked = () => logged(r).find((l) => l.kind === 'event' && l.event === 'tool_confirmation_requested');
      const event = await until(asked, LOGGED_MS, 'tool_confirmation_requested').catch(() => undefined);
      if (!event) missed.push(i);
      else expect(event).toMatchObject({ tool_id: pre.tool_use_id, tool_name: 'bash', tool_preview: 'touch /tmp/zut-agents-sandbox/ws/made' });
      await stopWarmHost(r);
    }
    expect(missed).toEqual([]);
  }, 300_000);

  it("the first UserPromptSubmit after a cold SessionStart carries the guard's turn_start context, and a tap hears user_prompt_submit and turn_start — back to back, and at the warm host just listening with its guard still loading", async () => {
    for (const [i, when] of [[0, 'back to back'], [1, 'back to back'], [2, 'warm host listening'], [3, 'warm host listening']] as const) {
      // The guard says hello 600 ms after its start (loading its libraries): the warm host's is not up at its first call.
      const r = round(`prompt-${i}`, 600);
      const session = { session_id: `prompt-session-${i}`, cwd: ws };
      expect(await hook(r, 'SessionStart', { ...session, hook_event_name: 'SessionStart', source: 'startup' })).toMatchObject({ code: 0 });
      // The warm host removes its start lock once it listens (hookHost.ts).
      const listening = () => fs.existsSync(r.hooks) && fs.readdirSync(r.hooks).some((n) => /^h-.*\.json$/.test(n)) && !fs.readdirSync(r.hooks).some((n) => n.endsWith('.lock'));
      if (when === 'warm host listening') await until(listening, 15_000, 'the warm host listening');
      const a = await hook(r, 'UserPromptSubmit', { ...session, hook_event_name: 'UserPromptSubmit', prompt: `first prompt ${i}` });
      expect({ when, code: a.code, stdout: a.stdout ? (JSON.parse(a.stdout) as unknown) : a.stdout }).toEqual({
        when,
        code: 0,
        stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: '[hook-guard]\nguard context' } },
      });
      const heard = () => logged(r).filter((l) => l.kind === 'event' && (l.event === 'user_prompt_submit' || l.event === 'turn_start')).map((l) => l.event);
      expect({ when, heard: await until(() => (heard().length >= 2 ? heard() : undefined), LOGGED_MS, 'the tap hearing the prompt').catch(() => heard()) }).toEqual({ when, heard: ['user_prompt_submit', 'turn_start'] });
      await stopWarmHost(r);
    }
  }, 300_000);
});
