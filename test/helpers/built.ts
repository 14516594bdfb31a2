/** The bundles test/helpers/globalSetup.ts built once for the whole run. */
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
