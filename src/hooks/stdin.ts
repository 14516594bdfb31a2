/**
 * A hook's stdin, read whole up to a limit (the agent writes the event JSON, then closes it). Shared by the light
 * entry (src/hook.ts) and the CLI (src/cli/hook.ts), which first takes what the light entry already read and handed
 * over (PRESET_STDIN). No dependency. VS Code-free.
 */
import { PRESET_STDIN } from './names';

/** Reads stdin up to `max` bytes; null when it is longer. */
export async function readStdin(max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    const b = c as Buffer;
    size += b.length;
    if (size > max) return null;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What the light entry read and handed over (null: over the limit), or undefined when it did not. */
export function presetStdin(): string | null | undefined {
  const preset = (globalThis as Record<symbol, unknown>)[PRESET_STDIN];
  return typeof preset === 'string' || preset === null ? preset : undefined;
}
