/**
 * Bundled skills in `@zut` requests: a hidden preamble naming each skill with its description, and a private `skill`
 * tool that returns the chosen SKILL.md. Skills come from running extensions (`ExtensionInfo.skills`, already
 * path-validated by discovery). Imports no `vscode`.
 */
import { readFile } from 'node:fs/promises';
import type { HostCatalog } from '../api';
import type { Skill, ToolResult } from '../types';
import type { LocalTool } from './loop';
import type { ChatMessage } from './model';
import { SKILL_MAX_BYTES } from '../../protocol/limits';


export interface SkillEntry extends Skill {
  ext: string;
}

/** Skills of running extensions, first of each name wins (extensions are listed in load order). */
export function activeSkills(host: HostCatalog): SkillEntry[] {
  const seen = new Set<string>();
  const out: SkillEntry[] = [];
  for (const info of host.extensions()) {
    if (info.state !== 'running') continue;
    for (const s of info.skills) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      out.push({ ...s, ext: info.name });
    }
  }
  return out;
}

/** The hidden preamble listing skills; empty when there are none. */
export function skillsPreamble(skills: SkillEntry[]): ChatMessage[] {
  if (skills.length === 0) return [];
  const lines = skills.map((s) => `- ${s.name} (from ${s.ext})${s.description ? `: ${s.description}` : ''}`);
  const text =
    'Skills are available. When one fits the task, call the `skill` tool with its name to load its instructions.\n' +
    lines.join('\n');
  return [{ role: 'user', parts: [{ kind: 'text', text }] }];
}

/** The private `skill` tool; undefined when there are no skills. */
export function skillTool(skills: SkillEntry[]): LocalTool | undefined {
  if (skills.length === 0) return undefined;
  const byName = new Map(skills.map((s) => [s.name.toLowerCase(), s]));
  const fail = (text: string): ToolResult => ({ ext: 'zut', content: [{ type: 'text', text }], isError: true });
  return {
    tool: {
      name: 'skill',
      description: 'Load the instructions of a bundled skill by name.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', enum: skills.map((s) => s.name) } },
        required: ['name'],
      },
    },
    async run(args) {
      const name = typeof args === 'object' && args !== null ? (args as { name?: unknown }).name : undefined;
      if (typeof name !== 'string') return fail('skill: `name` (a string) is required');
      const skill = byName.get(name.toLowerCase());
      if (!skill) return fail(`skill: unknown skill "${name}"; available: ${skills.map((s) => s.name).join(', ')}`);
      try {
        let text = await readFile(skill.path, 'utf8');
        if (Buffer.byteLength(text) > SKILL_MAX_BYTES)
          text = Buffer.from(text).subarray(0, SKILL_MAX_BYTES).toString('utf8') + '\n[truncated]';
        return { ext: skill.ext, content: [{ type: 'text', text }], isError: false };
      } catch (e) {
        return fail(`skill: cannot read ${skill.path} (extension ${skill.ext}): ${(e as Error).message}`);
      }
    },
  };
}
