/**
 * Bundled skills in an agent hook's SessionStart answer (Claude Code, VS Code's agent; Copilot CLI ignores this
 * hook's output): the skills of the extensions running for the session's folder, name and description up front, each
 * with its SKILL.md for the agent to read when a task matches (src/host/chat/skills.ts `skillsContext`), after zot's
 * `before_agent_start` system text. VS Code-free.
 */
import type { ExtensionHost } from '../host/api';
import { activeSkills, skillsContext } from '../host/chat/skills';

/** The SessionStart `additionalContext`: the system text (when not blank), then the skills; '' when neither. */
export function sessionStartContext(host: Pick<ExtensionHost, 'extensions'>, system: string): string {
  return [system.trim() ? system : '', skillsContext(activeSkills(host))].filter(Boolean).join('\n\n');
}
