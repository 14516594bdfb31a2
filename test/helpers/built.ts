/** The bundles test/helpers/globalSetup.ts built once for the whole run. */
import { inject } from 'vitest';

/** The CLI bundle (src/cli.ts as dist/cli.js). */
export function builtCli(): string {
  return inject('zutCli');
}

/** The MCP relay bundle (src/mcp/relay.ts as dist/mcp-relay.js). */
export function builtRelay(): string {
  return inject('zutRelay');
}
