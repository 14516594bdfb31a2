// @ts-check
// Claude Code 2.1.328's `onFailure` on a command hook entry (not in the v2.1.239 docs; found in the 2.1.328 binary):
// "block" makes a hook that fails — exits other than 0/2, times out, cannot start — block the tool call as exit 2
// would; without it (default "continue") the call goes ahead. Hand-written PreToolUse entries on Bash, the model asks
// `touch <ws>/ran` with --allowedTools Bash (so only the hook can stop it). This decides whether zut's installer
// writes `"onFailure": "block"` into Claude Code's entries.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, logHookCommand, readHookLog, runClaude } from './lib/scenario.mjs';

/** The hook entries' timeout in the timeout cases (seconds; the command sleeps longer). */
const HOOK_TIMEOUT_S = 2;

/**
 * Runs Bash `touch <ws>/ran` under one PreToolUse entry (the settings file holds only it); says whether it ran and
 * what the model got back.
 * @param {import('./lib/sandbox.mjs').Sandbox} sb @param {Record<string, unknown>} entry
 */
async function underHook(sb, entry) {
  sb.writeJson(path.join(sb.ws, '.claude', 'settings.local.json'), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...entry }] }] } });
  const ran = path.join(sb.ws, 'ran');
  fs.rmSync(ran, { force: true });
  const r = await runClaude(sb, [{ tool: 'Bash', input: { command: `touch ${ran}`, description: 'scripted call' } }, { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
  return { ran: fs.existsSync(ran), back: afterToolCall(r.main), result: r.result };
}

/** The three failures: exit 1, past the entry's timeout, a command that cannot start. */
const FAILURES = [
  { name: 'a hook that exits 1', entry: { command: 'exit 1' }, says: '[exit 1]: failed' },
  { name: `a hook that sleeps past its ${HOOK_TIMEOUT_S} s timeout`, entry: { command: 'sleep 30', timeout: HOOK_TIMEOUT_S }, says: '[sleep 30]: timed out' },
  { name: 'a hook that cannot start', entry: { command: '/nonexistent/zut-hook' }, says: '[/nonexistent/zut-hook]: failed' },
];

describe('Claude Code: onFailure on a command hook', function () {
  const box = sandboxEach('onfailure');

  for (const f of FAILURES) {
    it(`${f.name}, "onFailure": "block": the tool does not run`, async function () {
      const sb = box();
      const o = await underHook(sb, { ...f.entry, onFailure: 'block' });
      assert.equal(o.ran, false, 'the tool ran');
      assert.equal(o.back.result.is_error, true);
      // Observed e.g. `PreToolUse:Bash hook error: [exit 1]: failed; blocking because onFailure is "block"\nNo stderr output`.
      assert.ok(o.back.text.startsWith(`PreToolUse:Bash hook error: ${f.says}; blocking because onFailure is "block"`), `tool_result: ${o.back.text}`);
      assert.deepEqual(o.result.permission_denials.map((d) => d.tool_name), ['Bash']);
    });

    it(`${f.name}, no onFailure: the tool runs (the failure does not block)`, async function () {
      const sb = box();
      const o = await underHook(sb, f.entry);
      assert.equal(o.ran, true, 'the tool did not run');
      assert.equal(o.back.result.is_error, false);
    });
  }

  it('JSON output that fails validation blocks with "block" (and runs without it); text that is not JSON is not a failure', async function () {
    const sb = box();
    const invalid = { command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'bogus' } })}'` };
    const blocked = await underHook(sb, { ...invalid, onFailure: 'block' });
    assert.equal(blocked.ran, false);
    assert.match(blocked.back.text, /Hook JSON output validation failed/);
    assert.equal((await underHook(sb, invalid)).ran, true);
    assert.equal((await underHook(sb, { command: "echo '{not json'", onFailure: 'block' })).ran, true, '`{not json` on stdout blocked');
  });

  it('an onFailure value Claude Code does not know drops EVERY hook of that settings file, silently', async function () {
    const sb = box();
    // What an installer must never write: one bad value and the file's other entries (the user's too) stop running.
    const log = path.join(sb.root, 'hooks.log');
    sb.writeJson(path.join(sb.ws, '.claude', 'settings.local.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2', onFailure: 'sometimes' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: logHookCommand(log, 'PreToolUse') }] },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: logHookCommand(log, 'PostToolUse') }] }],
      },
    });
    const ran = path.join(sb.ws, 'ran');
    const r = await runClaude(sb, [{ tool: 'Bash', input: { command: `touch ${ran}`, description: 'scripted call' } }, { text: 'done' }], { args: ['--allowedTools', 'Bash'] });
    assert.equal(fs.existsSync(ran), true, 'the exit-2 hook blocked: the entry was read after all');
    assert.deepEqual(readHookLog(log), [], 'the valid entries of the same file ran');
    assert.equal(r.run.stderr, '', 'Claude Code said something about the bad file');
  });

  it('control: an unknown key on an entry is ignored (the entry runs: exit 2 blocks)', async function () {
    const sb = box();
    const o = await underHook(sb, { command: 'echo no >&2; exit 2', zutUnknownKey: true });
    assert.equal(o.ran, false);
    assert.match(o.back.text, /hook error: \[echo no >&2; exit 2\]: no/);
  });
});
