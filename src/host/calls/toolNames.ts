/**
 * Model-facing tool names. VS Code (`LanguageModelChatTool`, `vscode.lm.tools`) and MCP clients accept tool names
 * matching `^[A-Za-z0-9_-]{1,64}$`; zut accepts any non-empty name. A zut name that already fits is used as is;
 * any other gets a stable sanitised name (the same whatever else is registered, unless two names collide) while
 * the extension keeps receiving its own name. `@zut` and the MCP bridge use this one rule.
 */
import { createHash } from 'node:crypto';
import { MODEL_TOOL_NAME_MAX } from '../../protocol/limits';

/** Tool names VS Code and MCP accept (ours: the intersection of both clients' rules). */
export const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest model-facing name (the 64 of `MODEL_TOOL_NAME`; defined in limits.ts). */
export { MODEL_TOOL_NAME_MAX };
/** Hex digits of the name hash appended to a sanitised name (8; 16 on a collision). */
const HASH_DIGITS = [8, 16] as const;

/** Whether `name` can be offered to a model as it is. */
export function isModelToolName(name: string): boolean {
  return MODEL_TOOL_NAME.test(name);
}

/**
 * The sanitised model-facing form of a zut name: invalid characters → `_`, cut to fit, then `_` and the first
 * `digits` hex digits of the SHA-256 of the original name (so `a b` and `a!b` stay apart).
 */
export function sanitiseToolName(name: string, digits: number = HASH_DIGITS[0]): string {
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, digits);
  const base = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const room = MODEL_TOOL_NAME_MAX - hash.length - 1;
  return base ? `${base.slice(0, room)}_${hash}` : `tool_${hash}`;
}

/** A two-way map between zut tool names and the names a model sees. */
export interface ToolNameMap {
  /** zut name → model-facing name. */
  toModel(name: string): string | undefined;
  /** model-facing name → zut name (the extension's own spelling). */
  toZut(modelName: string): string | undefined;
}

/**
 * Assigns model-facing names to `names` (zut names, unique case-insensitively as the registry keeps them).
 * `reserved`: model names already taken (host tools such as `skill`); a zut tool never gets one of them.
 * Valid names claim themselves first; sanitised names follow in sorted order, so the result does not depend on
 * registration order. A collision (a valid name equal to a sanitised one, or two equal hashes) takes the longer
 * hash, then a counter.
 */
export function assignModelNames(names: readonly string[], reserved: Iterable<string> = []): ToolNameMap {
  const taken = new Set<string>([...reserved].map((n) => n.toLowerCase()));
  const toModel = new Map<string, string>();
  const claim = (zut: string, model: string) => {
    taken.add(model.toLowerCase());
    toModel.set(zut, model);
  };
  for (const n of names) if (isModelToolName(n) && !taken.has(n.toLowerCase())) claim(n, n);
  const rest = names.filter((n) => !toModel.has(n)).sort();
  for (const n of rest) {
    let model = HASH_DIGITS.map((d) => sanitiseToolName(n, d)).find((m) => !taken.has(m.toLowerCase()));
    for (let i = 2; !model; i++) {
      const suffix = `_${i}`;
      const candidate = sanitiseToolName(n, HASH_DIGITS[1]).slice(0, MODEL_TOOL_NAME_MAX - suffix.length) + suffix;
      if (!taken.has(candidate.toLowerCase())) model = candidate;
    }
    claim(n, model);
  }
  const toZut = new Map([...toModel].map(([z, m]) => [m, z]));
  return { toModel: (n) => toModel.get(n), toZut: (m) => toZut.get(m) };
}
