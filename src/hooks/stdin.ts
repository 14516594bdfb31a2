/**
 * A hook's stdin, read whole up to a limit: the agent writes the event JSON, then closes it — or, as Cline CLI's
 * detached events do, leaves it open: the input is complete as soon as what came parses as a JSON object, and the
 * read ends at the hook's deadline whatever came (the caller then fails the call its agent's way: a PreToolUse
 * denies). Shared by the light entry (src/hook.ts) and the CLI (src/cli/hook.ts), which first takes what the light
 * entry already read and handed over (PRESET_STDIN). No dependency. VS Code-free.
 */
import { PRESET_STDIN } from './names';

/** Reads stdin up to `max` bytes, until it closes, holds a whole JSON object, or `deadline` (ms since epoch); null when longer. */
export function readStdin(max: number, deadline: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stdin = process.stdin;
    const end = (value: string | null) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onEnd);
      // Left open by the agent: let go of it, so the process can end.
      stdin.pause();
      stdin.unref?.();
      resolve(value);
    };
    const text = () => Buffer.concat(chunks).toString('utf8');
    const onData = (b: Buffer) => {
      size += b.length;
      if (size > max) return end(null);
      chunks.push(b);
      // A whole object already (an agent that does not close stdin): no need to wait for the end.
      if (/}\s*$/.test(b.toString('utf8', Math.max(0, b.length - 64)))) {
        const t = text();
        try {
          JSON.parse(t);
          end(t);
        } catch {
          /* not whole yet */
        }
      }
    };
    const onEnd = () => end(text());
    const timer = setTimeout(() => end(text()), Math.max(0, deadline - Date.now()));
    stdin.on('data', onData).once('end', onEnd).once('error', onEnd);
  });
}

/** What the light entry read and handed over (null: over the limit), or undefined when it did not. */
export function presetStdin(): string | null | undefined {
  const preset = (globalThis as Record<symbol, unknown>)[PRESET_STDIN];
  return typeof preset === 'string' || preset === null ? preset : undefined;
}
