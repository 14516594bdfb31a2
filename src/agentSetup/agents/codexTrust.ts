/**
 * Codex CLI's hook trust, as Codex 0.169.0 keeps it: a hook of `hooks.json` runs only when the user's
 * `config.toml` holds `[hooks.state."<absolute hooks.json path>:<event_snake>:<group>:<handler>"]` with
 * `trusted_hash = "sha256:<hex>"`, the SHA-256 of the key-sorted compact JSON of
 * `{event_name, matcher?, hooks: [{type, command, timeout, async}]}` (event_name snake_case, matcher left out when
 * the group has none, timeout 600 and async false when absent) — checked against `codex app-server`'s `hooks/list`
 * (`currentHash`, `trustStatus`) in test/agents/codex.test.mjs. An untrusted hook is skipped SILENTLY, so the
 * installer records the trust of exactly the entries it wrote, and `check` reports any that is missing or stale.
 * VS Code-free.
 */
import { createHash } from 'node:crypto';
import { isObject } from '../../protocol/json';
import { CODEX_DEFAULT_HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';

/** `PreToolUse` → `pre_tool_use`. */
export const snakeEvent = (event: string): string => event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** Codex's key of one handler's trust. */
export const trustKey = (hooksFile: string, event: string, group: number, handler: number): string => `${hooksFile}:${snakeEvent(event)}:${group}:${handler}`;

/** The table of that trust in config.toml. */
export const trustTable = (key: string): string[] => ['hooks', 'state', key];

const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v;

/** The hash Codex expects for handler `handler` of `group` (an element of `hooks.<event>`), or undefined when it is no command. */
export function trustHash(event: string, group: unknown, handler: number): string | undefined {
  if (!isObject(group) || !Array.isArray(group.hooks)) return undefined;
  const h: unknown = group.hooks[handler];
  if (!isObject(h) || typeof h.command !== 'string') return undefined;
  const identity = {
    event_name: snakeEvent(event),
    ...(group.matcher !== undefined && { matcher: group.matcher }),
    hooks: [{ type: h.type, command: h.command, timeout: h.timeout ?? CODEX_DEFAULT_HOOK_TIMEOUT_SECONDS, async: h.async ?? false }],
  };
  return 'sha256:' + createHash('sha256').update(JSON.stringify(sortKeys(identity))).digest('hex');
}
