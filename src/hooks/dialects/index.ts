/**
 * The agents zut answers hooks for, one dialect each (types.ts): adding an agent is a file here and a line in
 * DIALECTS (and its name in names.ts HookAgent). Light: the hook's fast entry loads this. VS Code-free.
 */
import { CANONICAL_EVENTS, type HookAgent, type HookEvent } from '../names';
import { CLAUDE } from './claude';
import { CLINE } from './cline';
import { CODEX } from './codex';
import { COPILOT_CLI } from './copilotCli';
import { CURSOR } from './cursor';
import { GEMINI } from './gemini';
import { OPENCODE } from './opencode';
import { QWEN } from './qwen';
import type { HookDialect } from './types';
import { VSCODE } from './vscodeAgent';

export type { HookDialect, HookRewrite } from './types';

const DIALECTS: Readonly<Record<HookAgent, HookDialect>> = {
  vscode: VSCODE,
  'copilot-cli': COPILOT_CLI,
  claude: CLAUDE,
  gemini: GEMINI,
  opencode: OPENCODE,
  cursor: CURSOR,
  codex: CODEX,
  cline: CLINE,
  qwen: QWEN,
};

/** The dialect of `agent`. */
export function dialectOf(agent: HookAgent): HookDialect {
  return DIALECTS[agent];
}

const own = (o: Readonly<Record<string, HookEvent>> | undefined, k: string) => (o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** Our name of the event `agent` names `name` (its own spelling, else ours in any case), or undefined when we do not handle it. */
export function hookEventOf(name: string, agent: HookAgent): HookEvent | undefined {
  const k = name.toLowerCase();
  return own(DIALECTS[agent].eventNames, k) ?? own(CANONICAL_EVENTS, k);
}
