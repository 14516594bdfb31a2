/**
 * The `@zut` system prompt: the skills preamble (a hidden first message: VS Code's chat API has no system role),
 * after zot's `before_agent_start` interceptors (zot-extensions.md: System prompt replacement), which may replace
 * it exactly (`""` removes it). Without interceptors it is the preamble unchanged.
 */
import type { HostCalls } from '../api';
import type { ChatMessage } from './model';
import { skillsPreamble, type SkillEntry } from './skills';

/** Who the prompt is for (the `before_agent_start` request's fields). */
export interface AgentStart {
  session_id: string;
  cwd: string;
  provider: string;
  model: string;
}

/** The hidden messages that open every request of this turn. */
export async function systemPreamble(host: HostCalls, skills: SkillEntry[], start: AgentStart): Promise<ChatMessage[]> {
  const base = skillsPreamble(skills);
  if (!host.hasInterceptors('before_agent_start')) return base;
  const text = base.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.text : '')).join('\n');
  const prompt = await host.interceptBeforeAgentStart({ ...start, system_prompt: text });
  return prompt === '' ? [] : [{ role: 'user', parts: [{ kind: 'text', text: prompt }] }];
}
