/**
 * `zut-host hook [--agent vscode|copilot-cli|claude] EVENT`: an agent's hook command (VS Code's agent, Copilot
 * CLI, Claude Code). Reads the event JSON on stdin, answers through zut's guards and events (src/hooks/answer.ts)
 * in the agent's format on stdout. When a zut-vscode window runs for the input's `cwd` (or a parent), the guards
 * running there answer (src/hooks/client.ts, server.ts). With no window, the warm headless host for the input's
 * project answers — the outermost folder of `cwd` and its parents with project extensions, else `cwd`
 * (src/hooks/projectFolder.ts), and the same extension homes and options (src/hooks/warmHost.ts) — (hookHost.ts; the
 * first call that finds none starts it for the next ones and answers itself), with the extensions of every headless
 * verb (zut's, zot's and e's, unless `--no-zot` / `--no-e`): global extensions always, the project's own only with
 * `--allow-project` or `ZUT_ALLOW_PROJECT=1` (a hook runs on whatever folder the agent works in). With
 * `ZUT_HOOK_WARM=0`, or `--no-warm` for this hook alone (Claude Code's SessionStart beside its mcp_tool hooks:
 * agentSetup/hookInstall.ts), a host of this process's own answers each call (`--verbose` says so).
 * Whatever answers does so within HOOK_BUDGET_MS of the hook's start.
 * A malformed input or an internal failure never crashes: a PreToolUse is denied (fail closed), any other event fails
 * the way the agent treats a failing hook (exit 1, a warning on stderr): src/hooks/failure.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sanitizeText } from '../host/terminalText';
import { HOOK_ANSWER_MARGIN_MS, HOOK_DOOR_MARGIN_MS, HOOK_INPUT_MAX_BYTES, HOOK_STDIN_MS } from '../protocol/limits';
import { askRunningHost } from '../hooks/client';
import { hookFailure as failure } from '../hooks/failure';
import { readHookInput, type HookInput } from '../hooks/input';
import { projectFolder } from '../hooks/projectFolder';
import { answerInTime } from '../hooks/server';
import { launchWarmHost, warmEnabled, warmOptionsOf, warmRendezvous, type WarmOptions } from '../hooks/warmHost';
import { HOOK_AGENTS, hookBudgetMs, isCamelEvent, PRESET_ASKED, type HookAgent, type HookAnswer, type HookCall } from '../hooks/names';
import { hookEventOf } from '../hooks/dialects';
import { presetStdin, readStdin } from '../hooks/stdin';
import { HostRuntime } from '../runtime/runtime';
import { UsageError, write, type Parsed } from './common';
import { hookInstall } from './hookInstall';
import { hookHostCommand, hookHostChoices } from './hookHost';

export async function hook(p: Parsed): Promise<number> {
  const [, eventName, ...extra] = p.positionals;
  if (eventName === 'install' || eventName === 'uninstall') return hookInstall(p, eventName);
  if (eventName === 'host') return hookHostCommand(p);
  if (!eventName || extra.length > 0) throw new UsageError('hook takes one EVENT (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SubagentStop)');
  const agent = (p.values.agent ?? 'vscode') as HookAgent;
  if (!HOOK_AGENTS.includes(agent)) throw new UsageError(`--agent must be one of ${HOOK_AGENTS.join(', ')}`);
  const event = hookEventOf(eventName, agent);
  if (!event) throw new UsageError(`hook: unknown EVENT "${eventName}"`);
  const call: HookCall = { agent, event, camel: isCamelEvent(eventName) };
  let then: (() => void) | undefined;
  const answer = await answer_(p, call, (f) => (then = f)).catch((e: unknown) => failure(call, e instanceof Error ? e.message : String(e)));
  if (answer.stderr) await write(process.stderr, answer.stderr);
  if (answer.stdout) await write(process.stdout, answer.stdout);
  then?.(); // after the answer: nothing of it delays the agent's call
  return answer.exitCode;
}

async function answer_(p: Parsed, call: HookCall, afterAnswer: (f: () => void) => void): Promise<HookAnswer> {
  // The hook's budget runs from its process's start (the light entry that fell back to this bundle is this process).
  const budgetMs = hookBudgetMs();
  const deadline = Date.now() - process.uptime() * 1000 + budgetMs;
  // The light entry (src/hook.ts) that fell back to this bundle has read stdin already.
  const preset = presetStdin();
  const raw = preset !== undefined ? preset : await readStdin(HOOK_INPUT_MAX_BYTES, deadline - budgetMs + HOOK_STDIN_MS);
  if (raw === null) return failure(call, `input over ${HOOK_INPUT_MAX_BYTES} bytes`);
  const input = readHookInput(raw, call);
  if (typeof input === 'string') return failure(call, input);
  const cwd = path.resolve(input.cwd ?? p.values.cwd ?? process.cwd());
  const o: WarmOptions = warmOptionsOf(p.values);
  const project = projectFolder(cwd, o);
  const warm = warmEnabled() && p.values['no-warm'] !== true ? warmRendezvous(project, o) : undefined;
  const askedAlready = (globalThis as Record<symbol, unknown>)[PRESET_ASKED] === true; // by the light entry
  const running = askedAlready ? undefined : await askRunningHost(cwd, call, raw, { deadline, budgetMs, warm });
  if (running) return running;
  // No window, no warm host: answer this one here, then start the warm host for the next calls (it waits until this
  // process has exited before it starts its extensions: the two never compete for the machine).
  const cli = path.join(__dirname, 'cli.js');
  if (warm && fs.existsSync(cli)) afterAnswer(() => launchWarmHost(cli, project, o, process.pid));
  return answerHere(p, call, input, { cwd, project }, o, deadline);
}

/**
 * A host of this process's own for the call (the warm host is off or did not come up): the runtime's `hook` shell with
 * the warm host's choices (hookHost.ts `hookHostChoices`: every headless verb's extensions, zut, zot and e, for the
 * input's project — its own extensions listed but blocked (not spawned) unless the call opted in), stopped after the
 * answer.
 */
async function answerHere(p: Parsed, call: HookCall, input: HookInput, at: { cwd: string; project: string }, o: WarmOptions, deadline: number): Promise<HookAnswer> {
  const runtime = new HostRuntime('hook', hookHostChoices(p, at.project, o));
  try {
    const host = `a headless host for ${at.project} (global extensions${o.allowProject ? " and the project's" : ''})`;
    if (p.values.verbose) process.stderr.write(sanitizeText(`zut-host hook: no window for ${at.cwd}: ${host}`) + '\n');
    // Started within the budget: whoever is still starting at the deadline is named in the PreToolUse's denial.
    // (The door still gets its margin to name who is late: HOOK_DOOR_MARGIN_MS, twice.)
    await runtime.startWithin(deadline - HOOK_ANSWER_MARGIN_MS - 2 * HOOK_DOOR_MARGIN_MS);
    return await answerInTime(runtime.manager, call, input, Math.max(0, deadline - Date.now() - HOOK_ANSWER_MARGIN_MS));
  } finally {
    await runtime.shutdown();
  }
}
