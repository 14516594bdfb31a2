/**
 * zut tools as MCP tools: the catalog (`tools/list`), its signature (to know when `tools/list_changed` is due, and
 * VS Code's cache key), and `tool_result` content → MCP content. VS Code-free.
 */
import { createHash } from 'node:crypto';
import type { ToolAnnotations } from '../protocol';
import { toolAllowedFor, type ToolOrigin } from '../host/calls/invoke';
import { assignModelNames, type ToolNameMap } from '../host/calls/toolNames';
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
  signature: string;
}

/** Which tools a bridge offers (settings: `zut.agentTools.exclude`; the interactive rule of the origin). */
export interface CatalogFilter {
  origin: ToolOrigin;
  /** zut tool names not to offer (case-insensitive). */
  exclude?: () => readonly string[];
}

/** Whether `tool` is offered through MCP under `filter`. */
export function offeredThroughMcp(tool: ToolInfo, filter: CatalogFilter): boolean {
  const excluded = new Set((filter.exclude?.() ?? []).map((n) => n.toLowerCase()));
  return !excluded.has(tool.name.toLowerCase()) && toolAllowedFor(tool, filter.origin);
}

/** The catalog from the host's offered tools (active; deferred ones once activated). */
export function buildCatalog(tools: readonly ToolInfo[], filter: CatalogFilter): McpCatalog {
  const offered = tools.filter((t) => offeredThroughMcp(t, filter));
  const names = assignModelNames(offered.map((t) => t.name));
  const defs = offered
    .map((t): McpTool => {
      const def: McpTool = { name: names.toModel(t.name)!, description: t.description ?? '', inputSchema: objectSchema(t.schema) };
      if (t.annotations?.title) def.title = t.annotations.title;
      if (t.annotations && Object.keys(t.annotations).length) def.annotations = t.annotations;
      return def;
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const signature = createHash('sha256').update(JSON.stringify(defs)).digest('hex').slice(0, 16);
  return { tools: defs, names, signature };
}

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
