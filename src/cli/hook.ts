/**
 * `zut-host hook [--agent vscode|copilot-cli|claude] EVENT`: an agent's hook command (VS Code's agent, Copilot
 * CLI, Claude Code). Reads the event JSON on stdin, answers through zut's guards and events (src/hooks/answer.ts)
 * in the agent's format on stdout. When a zut-vscode window runs for the input's `cwd`, the guards running there
 * answer (src/hooks/client.ts, server.ts). With no window to ask, it runs a headless host for the input's `cwd` with
 * the extensions of every headless verb (zut's, zot's and e's, unless `--no-zot` / `--no-e`): global extensions
 * always, project extensions only with `--allow-project` or `ZUT_ALLOW_PROJECT=1` (a hook runs on whatever folder
 * the agent works in), and says so on stderr when `--verbose`.
 * A malformed input or an internal failure never crashes: a PreToolUse is denied (fail closed), any other event fails
 * the way the agent treats a failing hook (exit 1, a warning on stderr): src/hooks/failure.ts.
 */
import * as path from 'node:path';
import { Manager } from '../host/manager';
import { NullHostUi } from '../host/hostUi';
import { sanitizeText } from '../host/disk/doctor';
import { HOOK_INPUT_MAX_BYTES } from '../protocol/limits';
import { answerHook } from '../hooks/answer';
import { askRunningHost } from '../hooks/client';
import { hookFailure as failure } from '../hooks/failure';
import { readHookInput } from '../hooks/input';
import { HOOK_AGENTS, hookEventOf, isCamelEvent, type HookAgent, type HookAnswer, type HookCall } from '../hooks/names';
import { presetStdin, readStdin } from '../hooks/stdin';
import { hostOptions, UsageError, write, type Parsed } from './common';
import { hookInstall } from './hookInstall';

/** Whether project extensions of the hook's folder may run (an explicit opt-in). */
function allowProject(p: Parsed): boolean {
  return p.values['allow-project'] === true || process.env.ZUT_ALLOW_PROJECT === '1';
}

export async function hook(p: Parsed): Promise<number> {
  const [, eventName, ...extra] = p.positionals;
  if (eventName === 'install' || eventName === 'uninstall') return hookInstall(p, eventName);
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
  // The light entry (src/hook.ts) that fell back to this bundle has read stdin already.
  const preset = presetStdin();
  const raw = preset !== undefined ? preset : await readStdin(HOOK_INPUT_MAX_BYTES);
  if (raw === null) return failure(call, `input over ${HOOK_INPUT_MAX_BYTES} bytes`);
  const input = readHookInput(raw);
  if (typeof input === 'string') return failure(call, input);
  const cwd = path.resolve(input.cwd ?? p.values.cwd ?? process.cwd());
  const running = await askRunningHost(cwd, call, raw);
  if (running) return running;
  const trusted = allowProject(p);
  // Every headless verb's extensions (zut, zot, e: hostOptions), for the input's folder; its own extensions are
  // listed but blocked (not spawned) unless the call opted in.
  const manager = new Manager({ ...hostOptions(p), folders: [cwd], ui: new NullHostUi(), provider: call.agent, model: 'unknown', isTrusted: () => trusted });
  try {
    if (p.values.verbose) process.stderr.write(sanitizeText(`zut-host hook: no window for ${cwd}: a headless host (global extensions${trusted ? ' and the project\'s' : ''})`) + '\n');
    await manager.start();
    return await answerHook(manager, call, input);
  } finally {
    await manager.stop();
    manager.dispose();
  }
}
