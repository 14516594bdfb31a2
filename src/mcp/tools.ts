/**
 * zut tools as MCP tools: the catalog (`tools/list`), its signature (to know when `tools/list_changed` is due, and
 * VS Code's cache key), and `tool_result` content → MCP content. When running extensions bundle skills, the host's
 * own `skill` tool is offered beside theirs (its description lists them; src/host/chat/skills.ts). VS Code-free.
 */
import { createHash } from 'node:crypto';
import type { ToolAnnotations } from '../protocol';
import { toolAllowedFor, type ToolOrigin } from '../host/calls/invoke';
import { assignModelNames, type ToolNameMap } from '../host/calls/toolNames';
import { SKILL_TOOL_NAME, skillToolDefinition, type SkillEntry } from '../host/chat/skills';
import type { ToolInfo, ToolResult } from '../host/types';

/** One MCP tool definition (MCP spec: `Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

/** MCP content blocks we produce (MCP spec: `TextContent`, `ImageContent`). */
export type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** The catalog offered now: definitions in a stable order, the name map, and a signature of both. */
export interface McpCatalog {
  tools: McpTool[];
  names: ToolNameMap;
  /**
   * The offered tool behind each model-facing name: a `tools/call` looks its tool up here, once per catalog, not in
   * the host's list per call (the catalog is rebuilt on every change of the extensions, and the guarded path checks
   * the tool again in the registry index).
   */
  byModel: ReadonlyMap<string, ToolInfo>;
  signature: string;
  /** The skills the `skill` tool loads (empty: the tool is not offered). */
  skills: readonly SkillEntry[];
}

/** Which tools a bridge offers (settings: `zut.agentTools.exclude`; the interactive rule of the origin). */
export interface CatalogFilter {
  origin: ToolOrigin;
  /** zut tool names not to offer (case-insensitive). */
  exclude?: () => readonly string[];
}

const excluded = (filter: CatalogFilter, name: string): boolean => (filter.exclude?.() ?? []).some((n) => n.toLowerCase() === name.toLowerCase());

/** Whether `tool` is offered through MCP under `filter`. */
export function offeredThroughMcp(tool: ToolInfo, filter: CatalogFilter): boolean {
  return !excluded(filter, tool.name) && toolAllowedFor(tool, filter.origin);
}

/**
 * The catalog from the host's offered tools (active; deferred ones once activated) and, when `skills` is not empty
 * and `skill` is not excluded, the `skill` tool (read-only: clients that honour the hint load a skill unasked).
 */
export function buildCatalog(tools: readonly ToolInfo[], filter: CatalogFilter, skills: readonly SkillEntry[] = []): McpCatalog {
  const offered = tools.filter((t) => offeredThroughMcp(t, filter));
  const withSkills = skills.length > 0 && !excluded(filter, SKILL_TOOL_NAME) ? skills : [];
  const names = assignModelNames(
    offered.map((t) => t.name),
    withSkills.length ? [SKILL_TOOL_NAME] : [],
  );
  const defs = offered.map((t): McpTool => {
    const def: McpTool = { name: names.toModel(t.name)!, description: t.description ?? '', inputSchema: objectSchema(t.schema) };
    if (t.annotations?.title) def.title = t.annotations.title;
    if (t.annotations && Object.keys(t.annotations).length) def.annotations = t.annotations;
    return def;
  });
  if (withSkills.length) {
    const skill = skillToolDefinition(withSkills);
    defs.push({ ...skill, title: SKILL_TOOL_TITLE, annotations: { title: SKILL_TOOL_TITLE, readOnlyHint: true, openWorldHint: false } });
  }
  defs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const signature = createHash('sha256').update(JSON.stringify(defs)).digest('hex').slice(0, 16);
  const byModel = new Map(offered.map((t) => [names.toModel(t.name)!, t]));
  return { tools: defs, names, byModel, signature, skills: withSkills };
}

/** The `skill` tool's title in MCP clients. */
const SKILL_TOOL_TITLE = 'Load a skill of a zut extension';

/** MCP requires `inputSchema.type === "object"`. */
function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return schema.type === 'object' ? schema : { ...schema, type: 'object' };
}

/** zut text → MCP text, zut image → MCP image, anything else → a text placeholder. */
export function toMcpContent(result: ToolResult): McpContent[] {
  const out: McpContent[] = [];
  for (const b of result.content) {
    if (b.type === 'text') out.push({ type: 'text', text: b.text ?? '' });
    else if (b.type === 'image' && b.data) out.push({ type: 'image', data: b.data, mimeType: b.mime_type ?? 'image/png' });
    else out.push({ type: 'text', text: `[unsupported ${b.type} block]` });
  }
  return out;
}
