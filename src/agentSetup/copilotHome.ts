/**
 * Copilot CLI's configuration directory, where its user hooks (`hooks/`) and MCP configuration (`mcp-config.json`)
 * live: `$COPILOT_HOME` when it is an absolute path, else `~/.copilot` (the Copilot SDK's `baseDirectory`: "Sets the
 * COPILOT_HOME environment variable on the spawned runtime. When not set, the runtime defaults to ~/.copilot").
 */
import * as path from 'node:path';
import { agentOnMachine } from './agents/found';

/** The variable that moves Copilot CLI's configuration directory (its default: `~/.copilot`). */
export const COPILOT_HOME_ENV = 'COPILOT_HOME';

/** Copilot CLI's configuration directory for a user whose home is `home`. */
export function copilotHome(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const set = env[COPILOT_HOME_ENV];
  return set && path.isAbsolute(set) ? set : path.join(home, '.copilot');
}

/** Copilot CLI is on this machine: `copilot` on PATH, or its configuration directory there. */
export const copilotCliFound = (home: string): boolean => agentOnMachine('copilot', [path.relative(home, copilotHome(home))], home);
