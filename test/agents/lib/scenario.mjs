// @ts-check
// One agent run of a scenario: a scripted model started for it, the real agent run once in the sandbox's workspace
// (`-p`, JSON output) against it, the model closed; the run must end by itself (exit 0, before its deadline) and,
// unless the scenario says otherwise, nothing may have tried to leave the machine. Also the hook commands scenarios
// write by hand (lib/logHook.mjs) and readers for what the model received.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeEnv, claudeResult, copilotEnv, copilotEvents, ensureAgents, prepareCopilotHome, runAgent } from './agents.mjs';
import { startModel } from './model.mjs';

const LOG_HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'logHook.mjs');
/** The prompt every run gives (the scripted model ignores it). */
export const PROMPT = 'Do what the test says.';

/** A word in POSIX sh single quotes. */
export const shQuote = (/** @type {string} */ s) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * A hook command that appends what it gets to `log` (one JSON line per call, see logHook.mjs) and prints `answer`.
 * @param {string} log @param {string} event @param {unknown} [answer]
 */
export function logHookCommand(log, event, answer) {
  const words = [process.execPath, LOG_HOOK, log, event, ...(answer === undefined ? [] : [JSON.stringify(answer)])];
  return words.map(shQuote).join(' ');
}

/**
 * The calls a logHook.mjs log holds, in order.
 * @param {string} log @returns {{ event: string, at: number, pid: number, payload: any }[]}
 */
export function readHookLog(log) {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/**
 * @typedef {import('./sandbox.mjs').Sandbox} Sandbox
 * @typedef {import('./model.mjs').Step} Step
 */

/**
 * One run's options: `prompt` instead of PROMPT, `args` after the agent's own (`-p …`), `env` over the offline
 * environment, `unset` variables of that environment to leave out, `telemetry` to leave out Copilot CLI's
 * --disable-client-telemetry, `escapes` when the run may try to leave the machine (the rig's own check).
 * @typedef {{ prompt?: string, args?: string[], env?: NodeJS.ProcessEnv, unset?: string[], telemetry?: boolean, escapes?: boolean }} RunOptions
 */

async function run(kind, sb, script, o) {
  const agents = ensureAgents();
  const model = await startModel(script);
  if (kind === 'copilot' && !fs.existsSync(path.join(sb.home, '.cache', 'copilot', 'pkg'))) prepareCopilotHome(sb.home);
  try {
    const env = (kind === 'claude' ? claudeEnv : copilotEnv)(sb.home, model, { ...sb.zutEnv, ...o.env });
    for (const k of o.unset ?? []) delete env[k];
    const own = kind === 'copilot' && !o.telemetry ? ['--disable-client-telemetry'] : [];
    const args = ['-p', o.prompt ?? PROMPT, '--output-format', 'json', ...own, ...(o.args ?? [])];
    const r = await runAgent(kind === 'claude' ? agents.claude : agents.copilot, args, { cwd: sb.ws, env });
    const said = `${kind} ${args.join(' ')}\nexit ${r.code} ${r.signal ?? ''} after ${r.ms} ms\nstderr: ${r.stderr.slice(-2000)}\nstdout: ${r.stdout.slice(-2000)}`;
    assert.ok(!r.timedOut, `the agent did not finish within its deadline:\n${said}`);
    assert.equal(r.code, 0, `the agent failed:\n${said}`);
    if (!o.escapes) assert.deepEqual(model.escapes, [], 'something tried to leave the machine through the proxy');
    return { run: r, main: model.main(), requests: model.requests, escapes: model.escapes };
  } finally {
    await model.close();
  }
}

/**
 * Claude Code, once (`claude -p … --output-format json`).
 * @param {Sandbox} sb @param {Step[]} script @param {RunOptions} [o]
 */
export async function runClaude(sb, script, o = {}) {
  const r = await run('claude', sb, script, o);
  return { ...r, result: claudeResult(r.run.stdout) };
}

/**
 * Copilot CLI, once (`copilot -p … --output-format json --disable-client-telemetry`).
 * @param {Sandbox} sb @param {Step[]} script @param {RunOptions} [o]
 */
export async function runCopilot(sb, script, o = {}) {
  const r = await run('copilot', sb, script, o);
  return { ...r, events: copilotEvents(r.run.stdout) };
}

/**
 * What the model got back for its tool call: the main-loop request after the one that asked for it (its messages
 * from the tool_result on, system reminders included), and that tool_result.
 * @param {{ body: any }[]} main @param {number} [step]
 */
export function afterToolCall(main, step = 0) {
  const next = main[step + 1];
  assert.ok(next, `the agent never came back to the model after its tool call (${main.length} main-loop requests)`);
  const messages = next.body.messages;
  const at = messages.findLastIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));
  assert.ok(at >= 0, 'the next request carries no tool_result');
  const result = messages[at].content.find((b) => b.type === 'tool_result');
  const text = typeof result.content === 'string' ? result.content : result.content.map((b) => b.text ?? '').join('');
  return { result, text, /** Everything from the tool_result on, as JSON text. */ after: JSON.stringify(messages.slice(at)), messages: messages.slice(at) };
}

/**
 * What a failing scenario's message shows: what the model got back, what the guard judged, the agent's stderr.
 * @param {Sandbox} sb @param {{ main: { body: any }[], run: { stderr: string } }} r
 */
export function evidence(sb, r) {
  const next = r.main[1] ? JSON.stringify(r.main[1].body.messages.slice(-2)).slice(0, 1500) : '(no request after the tool call)';
  const guard = sb.guardSaw().map((l) => `${l.pid} ${l.kind} ${l.event ?? ''} ${l.tool_name ?? ''} ${l.session?.id ?? ''}`.trim());
  return `\nthe model got: ${next}\nthe guard saw:\n  ${guard.join('\n  ')}\nstderr: ${r.run.stderr.slice(-1000)}`;
}
