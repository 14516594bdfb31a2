/** The bundles test/helpers/globalSetup.ts built once for the whole run. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inject } from 'vitest';

/** The CLI bundle (src/cli.ts as dist/cli.js). */
export function builtCli(): string {
  return inject('zutCli');
}

/** The light agent-hook entry (src/hook.ts as dist/hook.js); it loads the CLI bundle beside it (`cli.js`) to fall back. */
export function builtHook(): string {
  return inject('zutHook');
}

/** The MCP relay bundle (src/mcp/relay.ts as dist/mcp-relay.js). */
export function builtRelay(): string {
  return inject('zutRelay');
}

/**
 * The CLI and the light hook entry side by side in `dir` (made when absent) as an installation has them: `cli.js`
 * and `hook.js` (which falls back to the `cli.js` beside it). Returns `dir`.
 */
export function hookBundlesIn(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(builtCli(), path.join(dir, 'cli.js'));
  fs.copyFileSync(builtHook(), path.join(dir, 'hook.js'));
  return dir;
}
