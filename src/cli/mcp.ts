/** `zut-host mcp`: an MCP server over stdio exposing the extensions' tools (src/mcp/stdio.ts). */
import * as path from 'node:path';
import { resolveZutHome } from '../host/disk/paths';
import { runMcpStdio } from '../mcp/stdio';
import { timeoutOf, UsageError, VERSION, type Parsed } from './common';

export async function mcp(p: Parsed): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError('mcp takes no arguments');
  return runMcpStdio({
    cwd: path.resolve(p.values.cwd ?? process.cwd()),
    zutHome: resolveZutHome(),
    extensionPaths: (p.values.ext ?? []).map((d) => path.resolve(d)),
    version: VERSION,
    timeoutMs: timeoutOf(p),
    verbose: p.values.verbose,
  });
}
