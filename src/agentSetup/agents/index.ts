/**
 * The agents set up through rows (types.ts): one file each, one line here. VS Code-free.
 */
import type { HookAgent } from '../../hooks/names';
import { CLINE_ROW } from './cline';
import { CODEX_ROW } from './codex';
import { CURSOR_ROW } from './cursor';
import { GEMINI_ROW } from './gemini';
import { OPENCODE_ROW } from './opencode';
import { QWEN_ROW } from './qwen';
import type { AgentSetupRow } from './types';

export type { AgentSetupRow, SetupCheck, SetupStep } from './types';

export const SETUP_ROWS: readonly AgentSetupRow[] = [GEMINI_ROW, OPENCODE_ROW, CURSOR_ROW, CODEX_ROW, CLINE_ROW, QWEN_ROW];

/** The row of `agent`, if it is set up through one. */
export function setupRowOf(agent: HookAgent): AgentSetupRow | undefined {
  return SETUP_ROWS.find((r) => r.agent === agent);
}
