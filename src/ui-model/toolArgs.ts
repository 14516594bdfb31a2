/**
 * VS Code-free helpers of "Zut: Call Tool…": checking typed JSON arguments against the shallow part of a
 * tool's schema (`type: object`, `required`, property `type`s), and rendering a tool result as markdown.
 */
import { fencedBlock } from '../host/markdown';
import type { ToolInfo, ToolResult } from '../host/types';
import { isObject } from '../protocol/json';

export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * Parses and checks the arguments typed for a tool. Empty input means `{}`. Only the top level is checked:
 * the extension validates the rest, and a deeper validator would need a JSON Schema dependency.
 */
export function checkToolArgs(text: string, schema: Record<string, unknown>): ArgsCheck {
  const trimmed = text.trim();
  let value: unknown;
  if (trimmed === '') value = {};
  else {
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      return { ok: false, message: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'Tool arguments must be a JSON object, like {"city": "Berlin"}' };
  }
  const obj = value as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const missing = required.filter((r) => !(r in obj));
  if (missing.length > 0) return { ok: false, message: `Missing required ${missing.map((m) => JSON.stringify(m)).join(', ')}` };
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [key, v] of Object.entries(obj)) {
    const prop = props[key];
    if (!isObject(prop) || typeof prop.type !== 'string') continue;
    if (!hasJsonType(v, prop.type)) return { ok: false, message: `${JSON.stringify(key)} must be of type ${prop.type}` };
  }
  return { ok: true, value: obj };
}

/** A placeholder for the arguments box: the required properties with an empty value of their type. */
export function argsPlaceholder(schema: Record<string, unknown>): string {
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  if (required.length === 0) return '{}';
  const props = isObject(schema.properties) ? schema.properties : {};
  const sample: Record<string, unknown> = {};
  for (const r of required) {
    const t = isObject(props[r]) ? props[r].type : undefined;
    sample[r] = t === 'number' || t === 'integer' ? 0 : t === 'boolean' ? false : t === 'array' ? [] : t === 'object' ? {} : '';
  }
  return JSON.stringify(sample);
}


function hasJsonType(v: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    case 'null':
      return v === null;
    default:
      return true;
  }
}

/** A quick-pick row for one tool. */
export function toolPickItems(tools: readonly ToolInfo[]): { label: string; description: string; detail: string; name: string }[] {
  return tools
    .filter((t) => t.active)
    .map((t) => {
      const flags = [t.deferred ? (t.activated ? 'deferred, activated' : 'deferred') : '', t.interactive ? 'interactive' : '']
        .filter(Boolean)
        .join(', ');
      return { label: t.name, description: t.description ?? '', detail: flags ? `${t.ext} (${flags})` : t.ext, name: t.name };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A tool result as a markdown document. Text blocks go in fenced code blocks (extension text is data, never
 * markdown); images are described by type and size, not embedded.
 */
export function toolResultMarkdown(tool: string, args: unknown, result: ToolResult): string {
  const out = [`# Tool ${tool} (${result.ext})${result.isError ? ' — error' : ''}`, '', '## Arguments', '', fence(JSON.stringify(args, null, 2)), '', '## Result', ''];
  if (result.content.length === 0) out.push('(no content)', '');
  for (const block of result.content) {
    if (block.type === 'text') out.push(fence(block.text ?? ''), '');
    else if (block.type === 'image') {
      const bytes = block.data ? Math.floor((block.data.length * 3) / 4) : 0;
      out.push(`- image ${block.mime_type ?? '(no mime type)'}, ~${bytes} bytes`, '');
    } else out.push(`- block of type ${JSON.stringify(block.type)}`, '');
  }
  if (result.activateTools?.length) out.push('## Activated tools', '', fence(result.activateTools.join('\n')), '');
  if (result.details !== undefined) out.push('## Details', '', fence(JSON.stringify(result.details, null, 2)), '');
  return out.join('\n');
}

/** A fenced code block whose fence is longer than any backtick run inside the text. */
export function fence(text: string): string {
  return fencedBlock(text);
}
