/**
 * An agent's hook dialect: how one agent spells its events and our MCP tools, what its hook input looks like, and
 * how it reads a deny, a rewrite, context and a blocked prompt. Each agent is one row (a file of this directory,
 * listed in index.ts), so answer.ts and failure.ts never ask which agent they answer. Light (the hook's fast entry
 * loads it): no zod, nothing of the host. VS Code-free.
 */
import type { HookAgent, HookAnswer, HookCall, HookEvent } from '../names';

/** A guard's rewrite of the agent's tool call, as the dialect answers it. */
export interface HookRewrite {
  /** The input to run, in the agent's form (a JSON string when the agent gave one). */
  updated: unknown;
  /** The agent's tool name. */
  toolName: string;
  /** The guards that rewrote it. */
  by: readonly string[];
}

export interface HookDialect {
  readonly agent: HookAgent;
  /** Event names as this agent spells them (lowercase) → ours, beyond the shared ones (names.ts). */
  readonly eventNames?: Readonly<Record<string, HookEvent>>;
  /** How this agent names a tool of zut's MCP server (`zut`) in its hook input: the prefixes before the tool's name. */
  readonly mcpToolPrefixes: readonly string[];
  /**
   * The agent's raw hook JSON in the field names input.ts reads (`tool_name`, `tool_input`, `session_id`, …), for
   * an agent whose payload names them otherwise; absent: read as it comes.
   */
  normalize?(json: Record<string, unknown>, call: HookCall): Record<string, unknown>;
  /** A PreToolUse denied (also what a hook that failed answers there: fail closed). */
  deny(call: HookCall, reason: string): HookAnswer;
  /** A PreToolUse the guards rewrote; an agent that cannot take a rewrite without widening its own rules denies it. */
  rewrite(call: HookCall, r: HookRewrite): HookAnswer;
  /** Text for the model at SessionStart or UserPromptSubmit ('' stdout when the agent takes none). */
  context(call: HookCall, event: 'SessionStart' | 'UserPromptSubmit', text: string): HookAnswer;
  /** A UserPromptSubmit a guard blocked. */
  blockPrompt(call: HookCall, reason: string): HookAnswer;
}

export const NOTHING: HookAnswer = { stdout: '', exitCode: 0 };
export const json = (o: unknown): HookAnswer => ({ stdout: JSON.stringify(o) + '\n', exitCode: 0 });

/** What the model is told with a rewrite, so the result does not read as the original call's. */
export const rewriteNote = (r: HookRewrite): string =>
  `zut: the input of this ${r.toolName} call was rewritten by the guard ${r.by.join(', ')} before it ran; the result is that of the rewritten call.`;

/** Claude Code's `hookSpecificOutput` form (VS Code's and several other agents' too). */
export const specific = (hookEventName: string, fields: Record<string, unknown>): HookAnswer => json({ hookSpecificOutput: { hookEventName, ...fields } });
