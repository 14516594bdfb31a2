/**
 * `zut-host hook [--agent vscode|copilot-cli|claude] EVENT`: an agent's hook command (VS Code's agent, Copilot
 * CLI, Claude Code). Reads the event JSON on stdin, answers through zut's guards and events (src/hooks/answer.ts)
 * in the agent's format on stdout. When a zut-vscode window runs for the input's `cwd`, the guards running there
 * answer (src/hooks/client.ts, server.ts). With no window, the warm headless host for the input's `cwd` answers
 * (hookHost.ts; started by the first call that needs it, src/hooks/warmHost.ts), with the extensions of every
 * headless verb (zut's, zot's and e's, unless `--no-zot` / `--no-e`): global extensions always, project extensions
 * only with `--allow-project` or `ZUT_ALLOW_PROJECT=1` (a hook runs on whatever folder the agent works in). With
 * `ZUT_HOOK_WARM=0`, or when it does not come up, a host of this process's own answers (`--verbose` says so).
 * Whatever answers does so within HOOK_BUDGET_MS of the hook's start.
 * A malformed input or an internal failure never crashes: a PreToolUse is denied (fail closed), any other event fails
 * the way the agent treats a failing hook (exit 1, a warning on stderr): src/hooks/failure.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Manager } from '../host/manager';
import { NullHostUi } from '../host/hostUi';
import { sanitizeText } from '../host/disk/doctor';
import { HOOK_ANSWER_MARGIN_MS, HOOK_INPUT_MAX_BYTES } from '../protocol/limits';
import { askHost, askRunningHost } from '../hooks/client';
import { hookFailure as failure, lateAnswer } from '../hooks/failure';
import { readHookInput, type HookInput } from '../hooks/input';
import { readRendezvous } from '../hooks/rendezvous';
import { answerInTime } from '../hooks/server';
import { startWarmHost, warmEnabled, warmRendezvous, type WarmOptions } from '../hooks/warmHost';
import { HOOK_AGENTS, hookBudgetMs, hookEventOf, isCamelEvent, type HookAgent, type HookAnswer, type HookCall } from '../hooks/names';
import { presetStdin, readStdin } from '../hooks/stdin';
import { hostOptions, UsageError, write, type Parsed } from './common';
import { hookInstall } from './hookInstall';
import { hookHost } from './hookHost';
import { allowProject } from './project';

export async function hook(p: Parsed): Promise<number> {
  const [, eventName, ...extra] = p.positionals;
  if (eventName === 'install' || eventName === 'uninstall') return hookInstall(p, eventName);
  if (eventName === 'host') return hookHost(p);
  if (!eventName || extra.length > 0) throw new UsageError('hook takes one EVENT (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SubagentStop)');
  const agent = (p.values.agent ?? 'vscode') as HookAgent;
  if (!HOOK_AGENTS.includes(agent)) throw new UsageError(`--agent must be one of ${HOOK_AGENTS.join(', ')}`);
  const event = hookEventOf(eventName);
  if (!event) throw new UsageError(`hook: unknown EVENT "${eventName}"`);
  const call: HookCall = { agent, event, camel: isCamelEvent(eventName) };
  const answer = await answer_(p, call).catch((e: unknown) => failure(call, e instanceof Error ? e.message : String(e)));
  if (answer.stderr) await write(process.stderr, answer.stderr);
  if (answer.stdout) await write(process.stdout, answer.stdout);
  return answer.exitCode;
}

async function answer_(p: Parsed, call: HookCall): Promise<HookAnswer> {
  // The hook's budget runs from its process's start (the light entry that fell back to this bundle is this process).
  const budgetMs = hookBudgetMs();
  const deadline = Date.now() - process.uptime() * 1000 + budgetMs;
  // The light entry (src/hook.ts) that fell back to this bundle has read stdin already.
  const preset = presetStdin();
  const raw = preset !== undefined ? preset : await readStdin(HOOK_INPUT_MAX_BYTES);
  if (raw === null) return failure(call, `input over ${HOOK_INPUT_MAX_BYTES} bytes`);
  const input = readHookInput(raw);
  if (typeof input === 'string') return failure(call, input);
  const cwd = path.resolve(input.cwd ?? p.values.cwd ?? process.cwd());
  const o: WarmOptions = { allowProject: allowProject(p.values), noZot: !!p.values['no-zot'], noE: !!p.values['no-e'] };
  const warm = warmEnabled() ? warmRendezvous(cwd, o) : undefined;
  const running = await askRunningHost(cwd, call, raw, { deadline, budgetMs, warm });
  if (running) return running;
  // No window, no warm host: start the warm host and ask it; if it does not come up, answer here.
  const cli = path.join(__dirname, 'cli.js');
  const started = warm && fs.existsSync(cli) ? await startWarmHost(cli, cwd, o, deadline) : undefined;
  const r = started ? readRendezvous(started) : undefined;
  if (started && r) {
    const a = await askHost(started, r, call, raw, deadline);
    if (a === 'late') return lateAnswer(call, `the warm hook host (pid ${r.pid})`, budgetMs);
    if (a !== 'unreachable') return a;
  }
  return answerHere(p, call, input, cwd, o, deadline);
}

/**
 * A host of this process's own for the call (the warm host is off or did not come up): every headless verb's
 * extensions (zut, zot, e: hostOptions) for the input's folder — its own extensions listed but blocked (not spawned)
 * unless the call opted in — stopped after the answer.
 */
async function answerHere(p: Parsed, call: HookCall, input: HookInput, cwd: string, o: WarmOptions, deadline: number): Promise<HookAnswer> {
  const manager = new Manager({ ...hostOptions(p), folders: [cwd], ui: new NullHostUi(), provider: call.agent, model: 'unknown', isTrusted: () => o.allowProject });
  try {
    if (p.values.verbose) process.stderr.write(sanitizeText(`zut-host hook: no window for ${cwd}: a headless host (global extensions${o.allowProject ? " and the project's" : ''})`) + '\n');
    // Started within the budget: whoever is still starting at the deadline is named in the PreToolUse's denial.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([manager.start().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now() - HOOK_ANSWER_MARGIN_MS))))]);
    clearTimeout(timer);
    return await answerInTime(manager, call, input, Math.max(0, deadline - Date.now() - HOOK_ANSWER_MARGIN_MS));
  } finally {
    await manager.stop();
    manager.dispose();
  }
}
