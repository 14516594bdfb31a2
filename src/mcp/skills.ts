/**
 * Bundled skills over MCP (the catalog: src/host/chat/skills.ts). Each skill of a running extension is
 * - a **prompt** (`prompts/list`, `prompts/get`): the person's slash command (`/mcp.zut.<skill>` in VS Code,
 *   `/mcp__zut__<skill>` in Claude Code) that puts the skill's instructions into the conversation;
 * - **resources** under `skill://<extension>/<skill>/<path>` (SEP-2640's resource mapping, the extension as the
 *   prefix): `resources/list` names each SKILL.md with its description, `resources/read` returns any file of the
 *   skill's folder (a template says so), so a client without file access still reaches what a skill refers to;
 * - and, through the `skill` tool (tools.ts), what the model loads by itself.
 * Names and descriptions are listed up front; contents are read on demand, fresh from disk. VS Code-free.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readSkillFile } from '../host/disk/skillFiles';
import { SKILL_FILE } from '../host/disk/skills';
import { findSkill, skillText, type SkillEntry } from '../host/chat/skills';
import { RPC } from './limits';
import { RpcError } from './rpcError';

/** The scheme of skill resources (SEP-2640). */
const SCHEME = 'skill://';

/** An MCP prompt (MCP spec: `Prompt`). */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
}

/** An MCP resource (MCP spec: `Resource`). */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A signature of what the prompts and resources lists hold (their `list_changed` is due when it changes). */
export function skillsSignature(skills: readonly SkillEntry[]): string {
  const rows = skills.map((s) => [s.ext, s.name, s.description ?? '', s.path]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
}

/** `skill://<extension>/<skill>/<file>`, each segment percent-encoded. */
function skillUri(skill: Pick<SkillEntry, 'ext' | 'name'>, file: string = SKILL_FILE): string {
  return SCHEME + [skill.ext, skill.name, ...file.split('/')].map(encodeURIComponent).join('/');
}

const title = (s: SkillEntry) => `${s.name} (skill of ${s.ext})`;

/** `prompts/list`: one prompt per skill. */
export function listSkillPrompts(skills: readonly SkillEntry[]): { prompts: McpPrompt[] } {
  return { prompts: skills.map((s) => ({ name: s.name, title: title(s), ...(s.description ? { description: s.description } : {}) })) };
}

/** `prompts/get`: the skill's SKILL.md as the user's message. */
export async function getSkillPrompt(skills: readonly SkillEntry[], params: Record<string, unknown>): Promise<object> {
  const name = typeof params.name === 'string' ? params.name : '';
  const skill = findSkill(skills, name);
  if (!skill) throw new RpcError(RPC.invalidParams, `unknown prompt: ${name}`);
  const text = await skillText(skill).catch((e: unknown) => {
    throw new RpcError(RPC.internal, `cannot read ${skill.path} (extension ${skill.ext}): ${(e as Error).message}`);
  });
  return {
    ...(skill.description ? { description: skill.description } : {}),
    messages: [{ role: 'user', content: { type: 'text', text: `Use this skill for my request.\n\n${text}` } }],
  };
}

/** `resources/list`: each skill's SKILL.md. */
export function listSkillResources(skills: readonly SkillEntry[]): { resources: McpResource[] } {
  return {
    resources: skills.map((s) => ({
      uri: skillUri(s),
      name: s.name,
      title: title(s),
      ...(s.description ? { description: s.description } : {}),
      mimeType: 'text/markdown',
    })),
  };
}

/** `resources/templates/list`: any file of a skill's folder. */
export function listSkillResourceTemplates(): { resourceTemplates: object[] } {
  return {
    resourceTemplates: [
      {
        uriTemplate: `${SCHEME}{extension}/{skill}/{+path}`,
        name: 'skill-file',
        title: "A file of a zut extension's skill",
        description: "A file of a skill's folder (SKILL.md, or what it refers to by a relative path).",
      },
    ],
  };
}

/** `resources/read` of a `skill://` URI: the file as text, or base64 bytes; unknown ones are `resourceNotFound`. */
export async function readSkillResource(skills: readonly SkillEntry[], params: Record<string, unknown>): Promise<object> {
  const uri = typeof params.uri === 'string' ? params.uri : '';
  const notFound = (why: string) => new RpcError(RPC.resourceNotFound, `resource not found: ${uri} (${why})`);
  if (!uri.startsWith(SCHEME)) throw notFound('not a skill:// URI');
  let segments: string[];
  try {
    segments = uri.slice(SCHEME.length).split('/').map(decodeURIComponent);
  } catch {
    throw notFound('malformed');
  }
  const [ext, name, ...file] = segments;
  const skill = skills.find((s) => s.ext === ext && s.name === name);
  if (!skill || file.length === 0) throw notFound(skill ? 'no file named' : 'no running extension has that skill');
  const rel = file.join('/');
  // A SKILL.md at the top of its extension shares its folder with the extension's code and state: only it is served.
  if (rel !== path.basename(skill.path) && (await realDir(skill.extDir)) === (await realDir(skill.dir))) {
    throw notFound(`${skill.name} sits at the top of the extension ${skill.ext}: only its ${SKILL_FILE} is served`);
  }
  const read = await readSkillFile(skill, rel).catch((e: unknown) => {
    throw notFound((e as Error).message);
  });
  const mimeType = read.kind === 'bytes' ? 'application/octet-stream' : mimeOf(rel);
  // A cut file says so where a reader sees it (text) or in the resource's metadata (bytes).
  const content =
    read.kind === 'text'
      ? { uri, mimeType, text: read.truncated ? `${read.text}\n[truncated]` : read.text }
      : { uri, mimeType, blob: read.data.toString('base64'), ...(read.truncated ? { _meta: { truncated: true } } : {}) };
  return { contents: [content] };
}

const realDir = (dir: string): Promise<string> => fs.realpath(dir).catch(() => path.resolve(dir));

/** The MIME type of a skill's text file, by its extension. */
function mimeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return ext === '.md' || ext === '.markdown' ? 'text/markdown' : ext === '.json' ? 'application/json' : 'text/plain';
}
