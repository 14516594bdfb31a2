// @ts-check
// The permission prompt of each agent in `-p` mode, seen from its hooks: hand-written entries that log their stdin
// (lib/logHook.mjs) on every event around one Bash call the agent's own rules would ask about (default mode, the
// command not allowed). Records whether and in which order PreToolUse, PermissionRequest / permissionRequest and
// Notification / notification (permission_prompt) fire, what a permission hook's "allow" does, and keeps the payloads
// as contract fixtures (test/agents/fixtures/<agent>/<Event>.json, lib/fixtures.mjs) for the unit tests.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { contractFixture } from './lib/fixtures.mjs';
import { sandboxEach } from './lib/sandbox.mjs';
import { afterToolCall, logHookCommand, readHookLog, runClaude, runCopilot } from './lib/scenario.mjs';

/** How long the model holds its answer after a permission prompt, for Copilot CLI's asynchronous notification hooks. */
const NOTIFICATION_WAIT_MS = 3000;
const touch = (tool, file) => ({ tool, input: { command: `touch ${file}`, description: 'scripted call' } });

describe('Claude Code: PermissionRequest in -p', function () {
  const box = sandboxEach('permissions');

  const EVENTS = ['PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse'];
  /** Claude Code settings with a logging entry on each event; `answers` maps an event to what its hook prints. */
  function settings(log, answers = {}) {
    const entry = (event) => ({ ...(event.endsWith('ToolUse') || event === 'PermissionRequest' ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: logHookCommand(log, event, answers[event]) }] });
    return { hooks: Object.fromEntries(EVENTS.map((e) => [e, [entry(e)]])) };
  }

  it('fires after PreToolUse when Claude Code would ask (default mode); no answer: the call is denied, no Notification', async function () {
    const sb = box();
    const log = path.join(sb.root, 'hooks.log');
    sb.writeJson(path.join(sb.ws, '.claude', 'settings.local.json'), settings(log));
    const made = path.join(sb.ws, 'made');
    const r = await runClaude(sb, [touch('Bash', made), { text: 'done' }]);
    assert.ok(!fs.existsSync(made), 'the call ran without permission');
    const calls = readHookLog(log);
    assert.deepEqual(calls.map((c) => c.event), ['PreToolUse', 'PermissionRequest'], 'the hooks that fired, in order');
    const [pre, ask] = calls.map((c) => c.payload);
    assert.equal(ask.hook_event_name, 'PermissionRequest');
    assert.equal(ask.tool_name, 'Bash');
    assert.deepEqual(ask.tool_input, pre.tool_input);
    assert.equal(ask.tool_use_id, undefined, 'PermissionRequest carries no tool_use_id');
    assert.equal(ask.permission_mode, 'default');
    assert.ok(Array.isArray(ask.permission_suggestions));
    contractFixture('claude', 'PreToolUse', pre, sb.root);
    contractFixture('claude', 'PermissionRequest', ask, sb.root);
    assert.match(afterToolCall(r.main).text, /needs approval/);
    assert.deepEqual(r.result.permission_denials.map((d) => d.tool_name), ['Bash']);
  });

  it('a PermissionRequest hook answering allow lets the call run in -p', async function () {
    const sb = box();
    const log = path.join(sb.root, 'hooks.log');
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
    sb.writeJson(path.join(sb.ws, '.claude', 'settings.local.json'), settings(log, { PermissionRequest: allow }));
    const made = path.join(sb.ws, 'made');
    const r = await runClaude(sb, [touch('Bash', made), { text: 'done' }]);
    assert.ok(fs.existsSync(made), 'the allowed call did not run');
    assert.deepEqual(r.result.permission_denials, []);
    const calls = readHookLog(log);
    assert.deepEqual(calls.map((c) => c.event), ['PreToolUse', 'PermissionRequest', 'PostToolUse']);
    contractFixture('claude', 'PostToolUse', calls[2].payload, sb.root);
  });
});

describe('Copilot CLI: permissionRequest and notification in -p', function () {
  const box = sandboxEach('permissions');

  // Both spellings of each event in one file: camelCase (Copilot CLI's own) and PascalCase ("VS Code compatible").
  const EVENTS = ['preToolUse', 'PreToolUse', 'permissionRequest', 'PermissionRequest', 'notification', 'Notification', 'postToolUse', 'PostToolUse'];
  function hooksFile(log, answers = {}) {
    return { version: 1, hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ type: 'command', bash: logHookCommand(log, e, answers[e]), timeoutSec: 10 }]])) };
  }
  const byEvent = (calls) => Object.fromEntries(calls.map((c) => [c.event, c.payload]));

  it('without --allow-all-tools: preToolUse, then permissionRequest, then notification (permission_prompt); the call is denied', async function () {
    const sb = box();
    const log = path.join(sb.root, 'hooks.log');
    sb.writeJson(path.join(sb.ws, '.github', 'hooks', 'log.json'), hooksFile(log));
    const made = path.join(sb.ws, 'made');
    // The notification hooks are fire-and-forget: the model's next answer waits for them, else the run may end first.
    const r = await runCopilot(sb, [touch('bash', made), { text: 'done', delayMs: NOTIFICATION_WAIT_MS }], { args: ['--trust-folder'] });
    assert.ok(!fs.existsSync(made), 'the call ran without permission');
    assert.match(afterToolCall(r.main).text, /^Permission denied because no interactive user response was available/);
    const calls = readHookLog(log);
    const first = (e) => calls.findIndex((c) => c.event === e);
    assert.deepEqual(new Set(calls.map((c) => c.event)), new Set(['preToolUse', 'PreToolUse', 'permissionRequest', 'PermissionRequest', 'notification', 'Notification']));
    assert.ok(Math.max(first('preToolUse'), first('PreToolUse')) < Math.min(first('permissionRequest'), first('PermissionRequest')), 'permissionRequest before preToolUse');
    assert.ok(Math.max(first('permissionRequest'), first('PermissionRequest')) < Math.min(first('notification'), first('Notification')), 'notification before permissionRequest');
    const p = byEvent(calls);
    assert.equal(p.permissionRequest.toolName, 'bash');
    assert.deepEqual(p.permissionRequest.toolInput, { command: `touch ${made}` }, 'toolInput (the command only, no description)');
    assert.equal(p.notification.notification_type, 'permission_prompt');
    assert.equal(p.notification.hook_event_name, 'Notification');
    // Observed: a PascalCase permissionRequest/notification entry gets the very same camelCase payload.
    assert.deepEqual(Object.keys(p.PermissionRequest).sort(), Object.keys(p.permissionRequest).sort());
    assert.deepEqual(Object.keys(p.Notification).sort(), Object.keys(p.notification).sort());
    // Observed: camelCase preToolUse's toolArgs is an object (not a JSON string) for bash.
    assert.deepEqual(p.preToolUse.toolArgs, { command: `touch ${made}`, description: 'scripted call' });
    for (const e of ['preToolUse', 'PreToolUse', 'permissionRequest', 'notification']) contractFixture('copilot-cli', e, p[e], sb.root);
  });

  it('a permissionRequest hook answering {"behavior":"allow"} lets the call run in -p', async function () {
    const sb = box();
    const log = path.join(sb.root, 'hooks.log');
    sb.writeJson(path.join(sb.ws, '.github', 'hooks', 'log.json'), hooksFile(log, { permissionRequest: { behavior: 'allow' } }));
    const made = path.join(sb.ws, 'made');
    const r = await runCopilot(sb, [touch('bash', made), { text: 'done', delayMs: NOTIFICATION_WAIT_MS }], { args: ['--trust-folder'] });
    assert.ok(fs.existsSync(made), 'the allowed call did not run');
    assert.match(afterToolCall(r.main).text, /completed with exit code 0/);
    const p = byEvent(readHookLog(log));
    assert.equal(p.notification, undefined, 'no permission prompt once a hook allowed');
    for (const e of ['postToolUse', 'PostToolUse']) contractFixture('copilot-cli', e, p[e], sb.root);
  });
});
