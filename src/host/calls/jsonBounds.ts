/**
 * Whether a JSON value can be handed to an extension in a frame: nested at most `maxDepth` levels deep and, encoded,
 * at most `maxBytes`. The nesting is walked without recursion (an input nested 100,000 levels deep cannot overflow
 * the stack here), and only a value within the depth is encoded (JSON.stringify recurses). The guard door
 * (toolGuard.ts) uses it to refuse what it could not hand to a guard. VS Code-free.
 */
import { overUtf8Bytes } from '../../protocol/codec';

/** Why `value` does not fit, or undefined when it does. */
export function jsonBoundsError(value: unknown, maxDepth: number, maxBytes: number): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return `the arguments are nested more than ${maxDepth} levels deep`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  let encoded: string | undefined;
  try {
    encoded = JSON.stringify(value);
  } catch (e) {
    return `the arguments cannot be encoded as JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (encoded !== undefined && overUtf8Bytes(encoded, maxBytes)) return `the arguments are over ${maxBytes} bytes encoded`;
  return undefined;
}
