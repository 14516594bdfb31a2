/**
 * The bundled skills of running extensions (`skills` in extension.json, already path-validated by discovery), one
 * catalog for every agent: `@zut` (a hidden preamble and a private `skill` tool), MCP clients (src/mcp/skills.ts:
 * the same `skill` tool, prompts and `skill://` resources) and the agent hooks' SessionStart (`skillsContext`).
 * Progressive disclosure: each skill's name and description are offered up front; its SKILL.md is read only when it
 * is loaded, fresh from disk each time. Only running extensions' skills are offered, so a project extension's skills
 * come with its code (Workspace Trust and consent) and go when it stops. Imports no `vscode`.
 */
import * as path from 'node:path';
import type { HostCatalog } from '../api';
import { readSkillFile } from '../disk/skillFiles';
import { SKILL_FILE } from '../disk/skills';
import type { Skill, ToolResult } from '../types';
import type { LocalTool } from './loop';
import type { ChatMessage, ModelTool } from './model';
import { SKILL_CATALOG_MAX_BYTES } from '../../protocol/limits';

/** A skill of a running extension. */
export interface SkillEntry extends Skill {
  /** The extension that bundles it. */
  ext: string;
  /** Its folder (the directory of its SKILL.md): paths in the skill are relative to it. */
  dir: string;
  /** The extension's directory. */
  extDir: string;
}

/** The host tool that loads a skill (a zut built-in name: no extension can register it). */
export const SKILL_TOOL_NAME = 'skill';

/** Skills of running extensions, first of each name wins (extensions are listed in load order). */
export function activeSkills(host: Pick<HostCatalog, 'extensions'>): SkillEntry[] {
  const seen = new Set<string>();
  const out: SkillEntry[] = [];
  for (const info of host.extensions()) {
    if (info.state !== 'running') continue;
    for (const s of info.skills) {
      if (seen.has(s.name.toLowerCase())) continue;
      seen.add(s.name.toLowerCase());
      out.push({ ...s, ext: info.name, dir: path.dirname(s.path), extDir: info.dir });
    }
  }
  return out;
}

/** The skill named `name` (case-insensitive), or undefined. */
export function findSkill(skills: readonly SkillEntry[], name: string): SkillEntry | undefined {
  return skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

/**
 * One line per skill, `- name (from ext): description` (`extra` adds to a line), until `SKILL_CATALOG_MAX_BYTES`;
 * past it a last line counts the skills left out (the `skill` tool's error for an unknown name lists every name).
 */
function skillLines(skills: readonly SkillEntry[], extra: (s: SkillEntry) => string = () => ''): string[] {
  const out: string[] = [];
  let bytes = 0;
  for (const [i, s] of skills.entries()) {
    const line = `- ${s.name} (from ${s.ext})${s.description ? `: ${s.description}` : ''}${extra(s)}`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > SKILL_CATALOG_MAX_BYTES) {
      out.push(`- … and ${skills.length - i} more skill${skills.length - i > 1 ? 's' : ''} not listed here`);
      break;
    }
    out.push(line);
  }
  return out;
}

/** The `skill` tool as a model sees it: the catalog in its description, the names in its input schema. */
export function skillToolDefinition(skills: readonly SkillEntry[]): ModelTool {
  return {
    name: SKILL_TOOL_NAME,
    description:
      'Load the instructions of a skill bundled with a zut extension. When a task matches a skill below, call this tool ' +
      'with its name before you act, then follow what it returns. Skills:\n' +
      skillLines(skills).join('\n'),
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill to load.', enum: skills.map((s) => s.name) } },
      required: ['name'],
    },
  };
}

/**
 * Loads a skill: the `skill` tool's call. The result is its SKILL.md, after a line naming the skill, its extension
 * and the folder its relative paths start from; a missing or unknown name is an error result listing the skills.
 */
export async function loadSkill(skills: readonly SkillEntry[], args: unknown): Promise<ToolResult> {
  const fail = (text: string): ToolResult => ({ ext: 'zut', content: [{ type: 'text', text }], isError: true });
  const name = typeof args === 'object' && args !== null ? (args as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') return fail('skill: `name` (a string) is required');
  const skill = findSkill(skills, name);
  if (!skill) return fail(`skill: unknown skill "${name}"; available: ${skills.map((s) => s.name).join(', ') || '(none)'}`);
  try {
    return { ext: skill.ext, content: [{ type: 'text', text: await skillText(skill) }], isError: false };
  } catch (e) {
    return fail(`skill: cannot read ${skill.path} (extension ${skill.ext}): ${(e as Error).message}`);
  }
}

/** A skill's SKILL.md as a loaded skill reads: a line saying whose it is and where its files are, then the file. */
export async function skillText(skill: SkillEntry): Promise<string> {
  const read = await readSkillFile(skill, path.basename(skill.path));
  if (read.kind !== 'text') throw new Error(`${SKILL_FILE} is not UTF-8 text`);
  const head = `Skill "${skill.name}" of the zut extension ${skill.ext}. Paths in it are relative to ${skill.dir}.`;
  return `${head}\n\n${read.text}${read.truncated ? '\n[truncated]' : ''}`;
}

/** The private `skill` tool of `@zut`; undefined when there are no skills. */
export function skillTool(skills: SkillEntry[]): LocalTool | undefined {
  if (skills.length === 0) return undefined;
  return { tool: skillToolDefinition(skills), run: (args) => loadSkill(skills, args) };
}

/** The hidden `@zut` preamble listing skills; empty when there are none. */
export function skillsPreamble(skills: SkillEntry[]): ChatMessage[] {
  if (skills.length === 0) return [];
  const text =
    'Skills are available. When one fits the task, call the `skill` tool with its name to load its instructions.\n' +
    skillLines(skills).join('\n');
  return [{ role: 'user', parts: [{ kind: 'text', text }] }];
}

/**
 * The skills as an agent hook's SessionStart context (Claude Code, VS Code's agent): names and descriptions up front
 * and, for each, the SKILL.md to read when the task matches (the agent's own file tool, or the `skill` tool of the
 * zut MCP server when it has one). Empty when there are none; bounded (`SKILL_CATALOG_MAX_BYTES` of lines).
 */
export function skillsContext(skills: readonly SkillEntry[]): string {
  if (skills.length === 0) return '';
  return (
    'Skills of zut extensions are available. When a task matches one, read its SKILL.md (path below) before you act ' +
    'and follow it; paths in a skill are relative to its folder. The zut MCP server\'s `skill` tool returns the same ' +
    'text by name.\n' +
    skillLines(skills, (s) => ` (${s.path})`).join('\n')
  );
}
