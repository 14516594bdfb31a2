/**
 * The one recipe for a host: the Manager's options from a shell's few choices. Each shell (the window, the hook
 * hosts, `zut-host mcp`, the CLI's one-shot verbs) says where extensions come from and how it trusts them; the
 * shell's kind fixes what extensions are told of their host (`hello_ack.provider`, `.model`) and whether a crashed
 * one is started again. And the extension directories such a host loads from, which the runtime watches. VS Code-free.
 */
import type { ManagerOptions } from '../host/api';
import { extensionRoots } from '../host/disk/paths';

/** Which shell runs the host. */
export type ShellKind = 'window' | 'hook' | 'mcp' | 'cli';

/** What the kind of shell fixes: told to every extension (`hello_ack`), and the restart policy's switch. */
export interface ShellFacts {
  readonly provider: string;
  readonly model: string;
  /** Undefined: the shell's own choice (the window's `zut.autoRestart`). */
  readonly autoRestart?: boolean;
}

/**
 * What a guard is told when an agent outside a VS Code window calls: by the hook hosts — the per-call one and the warm
 * one, which serves every agent of its folder — and by `zut-host mcp`, which answers Claude Code's `mcp_tool` hooks
 * and serves zut's tools to any MCP client. One value, so a guard never judges a call differently by which of them
 * answered it (a command hook, an `mcp_tool` hook, a tools/call); the agent of each call is in its events
 * (`before_agent_start`'s `provider`: hooks/answer.ts).
 */
const AGENT: Omit<ShellFacts, 'autoRestart'> = { provider: 'agent', model: 'unknown' };

/** Per kind. The window's `@zut` sets its model's vendor and name per request (`setModel`). */
export const SHELL_FACTS: Readonly<Record<ShellKind, ShellFacts>> = {
  window: { provider: '', model: '' },
  hook: { ...AGENT, autoRestart: true },
  mcp: { ...AGENT, autoRestart: true },
  cli: { provider: 'zut-host', model: 'none', autoRestart: false },
};

/** A shell's choices: everything but what its kind fixes (`autoRestart` only where the kind leaves it open). */
export type HostChoices = Omit<ManagerOptions, 'provider' | 'model'>;

/**
 * The Manager's options for a shell of `kind`. The object returned is the one the Manager reads at every (re)load: a
 * shell that changes its choices later (the window's settings) changes this object, then reloads.
 */
export function hostRecipe(kind: ShellKind, choices: HostChoices): ManagerOptions {
  const facts = SHELL_FACTS[kind];
  return { ...choices, provider: facts.provider, model: facts.model, ...(facts.autoRestart !== undefined && { autoRestart: facts.autoRestart }) };
}

/**
 * The directories a host of `o` loads extensions from, as the runtime watches them: the global homes, the folders'
 * project directories while they are trusted (an untrusted project's extensions are not spawned), and `--ext` paths.
 */
export function watchedHomes(o: ManagerOptions): string[] {
  const trusted = o.isTrusted?.() !== false;
  return [...new Set([...extensionRoots({ ...o, folders: trusted ? o.folders : [] }), ...(o.extensionPaths ?? [])])];
}
