/**
 * `zut-host mcp`: an MCP server over stdio exposing the extensions' tools (src/mcp/stdio.ts), with the host of
 * every other verb (common.ts `hostOptions`: zot and e unless `--no-zot` / `--no-e`; the project's own extensions
 * only with `--allow-project`). A client's config line names the flag when the user wants them: their choice.
 */
import { cwdOf, enterProject, EXIT, extensionPids, hostOptions, UsageError, VERSION, type Parsed } from './common';
import { runMcpStdio } from '../mcp/stdio';
import { runMcpViaWindow } from '../mcp/windowRelay';
import type { ExtensionHost } from '../host/api';
import { stopSignals } from './signals';

export async function mcp(p: Parsed): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError('mcp takes no arguments');
  const host = hostOptions(p); // the runtime's `mcp` shell (src/runtime/recipe.ts) adds its provider and restarts
  const cwd = cwdOf(p);
  enterProject(p);
  const o = {
    host,
    cwd,
    version: VERSION,
    verbose: p.values.verbose,
    signals: (stop: (signal: NodeJS.Signals) => void, host: ExtensionHost) => stopSignals(stop, () => extensionPids(host), EXIT.interrupted),
  };
  // zut's agent plugin: the window's host serves it when a window published its relay (src/mcp/windowRelay.ts).
  return p.values.window ? runMcpViaWindow(o) : runMcpStdio(o);
}
