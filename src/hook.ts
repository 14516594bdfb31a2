#!/usr/bin/env node
/**
 * `dist/hook.js`: the light entry an agent's hook command runs (`node dist/hook.js hook [--agent A] EVENT`, the same
 * argv as `zut-host`'s). An agent spawns it for every tool call, so it loads only what the fast path needs — the
 * argument check, the rendezvous file and the socket to the running window (src/hooks/client.ts) or the warm host of
 * the input's project (src/hooks/projectFolder.ts, warmHost.ts): no zod, no host.
 * Whenever that path does not answer — no host for the input's folder, a stale rendezvous, a refused token —
 * and for everything else (`hook install`, a usage error, input that is not a JSON object, input over the limit),
 * it loads the CLI bundle beside it (dist/cli.js), which runs as `zut-host` with the same argv and the stdin read
 * here (handed over in the PRESET_STDIN global): the same answers, the same exit codes.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { askRunningHost } from './hooks/client';
import { projectFolder } from './hooks/projectFolder';
import { warmEnabled, warmOptionsOf, warmRendezvous, type WarmOptions } from './hooks/warmHost';
import { quietBrokenPipes } from './hooks/brokenPipe';
import { HOOK_AGENTS, hookBudgetMs, isCamelEvent, PRESET_ASKED, PRESET_STDIN, type HookAgent, type HookAnswer, type HookCall } from './hooks/names';
import { dialectOf, hookEventOf } from './hooks/dialects';
import { readStdin } from './hooks/stdin';
import { isObject } from './protocol/json';
import { HOOK_INPUT_MAX_BYTES, HOOK_STDIN_MS } from './protocol/limits';

/** When this hook started: its budget (names.ts hookBudgetMs) runs from here. */
const START = Date.now();

/** The options `zut-host hook EVENT` takes; any other argument goes to the CLI as it is. */
const OPTIONS = {
  agent: { type: 'string' },
  'allow-project': { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  cwd: { type: 'string' },
  'no-zot': { type: 'boolean' },
  'no-e': { type: 'boolean' },
  ext: { type: 'string', short: 'e', multiple: true },
  'no-warm': { type: 'boolean' },
} as const;

/** The call named by `argv`, when it is a plain `hook [options] EVENT` the fast path can answer. */
function callOf(argv: string[]): { call: HookCall; cwd?: string; warm: WarmOptions; noWarm: boolean } | undefined {
  let p;
  try {
    p = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const [sub, eventName, ...extra] = p.positionals;
  const agent = (p.values.agent ?? 'vscode') as HookAgent;
  const event = eventName === undefined ? undefined : HOOK_AGENTS.includes(agent) ? hookEventOf(eventName, agent) : undefined;
  if (sub !== 'hook' || !event || extra.length > 0 || !HOOK_AGENTS.includes(agent)) return undefined;
  return { call: { agent, event, camel: isCamelEvent(eventName) }, cwd: p.values.cwd, warm: warmOptionsOf(p.values), noWarm: p.values['no-warm'] === true };
}

/** The folder the input names (`cwd`, in the agent's dialect), as the CLI resolves it; undefined when the input is not a JSON object with a string or no `cwd`. */
function folderOf(raw: string, call: HookCall, cwdOption: string | undefined): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(json)) return undefined;
  const normalize = dialectOf(call.agent).normalize;
  const cwd = (normalize ? normalize(json, call) : json).cwd;
  if (cwd !== undefined && typeof cwd !== 'string') return undefined;
  return path.resolve(cwd ?? cwdOption ?? process.cwd());
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Runs the CLI bundle beside this one with the same argv (it exits by itself); `stdin`: what was read of it here. */
function fallBack(stdin?: string | null): void {
  if (stdin !== undefined) (globalThis as Record<symbol, unknown>)[PRESET_STDIN] = stdin;
  createRequire(__filename)(path.join(__dirname, 'cli.js'));
}

/**
 * A running host's answer: a window for the input's folder or a parent, else the warm host of its project; undefined
 * when none answered — then the CLI answers this one by itself and starts the warm host for the next calls (unless it
 * is off).
 */
async function ask(folder: string, call: HookCall, raw: string, o: WarmOptions, noWarm: boolean): Promise<HookAnswer | undefined> {
  const budgetMs = hookBudgetMs();
  const deadline = START + budgetMs;
  const warm = warmEnabled() && !noWarm ? warmRendezvous(projectFolder(folder, o), o) : undefined;
  // (It never rejects: any socket trouble is "not reached", and the CLI answers by itself.)
  return askRunningHost(folder, call, raw, { deadline, budgetMs, warm });
}

async function main(): Promise<void> {
  quietBrokenPipes();
  const parsed = callOf(process.argv.slice(2));
  if (!parsed) return fallBack();
  const raw = await readStdin(HOOK_INPUT_MAX_BYTES, START + HOOK_STDIN_MS);
  const folder = raw === null ? undefined : folderOf(raw, parsed.call, parsed.cwd);
  const answer = raw === null || folder === undefined ? undefined : await ask(folder, parsed.call, raw, parsed.warm, parsed.noWarm);
  if (!answer) {
    // The CLI answers by itself and starts the warm host; it need not ask the hosts again.
    if (raw !== null && folder !== undefined) (globalThis as Record<symbol, unknown>)[PRESET_ASKED] = true;
    return fallBack(raw);
  }
  if (answer.stderr) await write(process.stderr, answer.stderr);
  if (answer.stdout) await write(process.stdout, answer.stdout);
  process.exit(answer.exitCode);
}

void main();
