/**
 * Command and tool registries. Names are matched case-insensitively; among running extensions, the first in
 * load order that registered a name owns it (so ownership is stable whatever order frames arrive in, and a
 * crashed owner's names pass to the next registrant). Built-in tool names are refused.
 */
import type { ToolAnnotations } from '../../protocol';
import type { ExtNotice } from '../protocols';
import type { ByteCaps } from './byteCaps';
import type { ExtensionCaps } from './caps';
import type { CommandInfo, ToolInfo } from '../types';

/** Tool names zut reserves for built-ins: extensions can never claim them. */
const RESERVED_TOOL_NAMES = new Set([
  'read', 'write', 'edit', 'bash', 'python', 'worktree', 'grep', 'ast', 'lsp', 'web_search', 'web_open', 'web_find',
  'web_click', 'schedule', 'update_goal', 'plan', 'skill',
]);

export interface RegisteredCommand {
  name: string;
  description?: string;
}

export interface RegisteredTool {
  name: string;
  description?: string;
  schema: Record<string, unknown>;
  deferred: boolean;
  interactive: boolean;
  /** `register_tool.annotations` (hints for MCP clients), when sent. */
  annotations?: ToolAnnotations;
}

/** What the registry needs to know of one extension. */
export interface Registrant {
  name: string;
  live: boolean;
  commands: Map<string, RegisteredCommand>;
  tools: Map<string, RegisteredTool>;
}

/** The index of the live registrants' commands and tools; `by` is the registrant that owns one. */
export interface RegistryIndex<R extends Registrant = Registrant> {
  commands: CommandInfo[];
  tools: ToolInfo[];
  commandOwner: Map<string, { ext: string; name: string; by: R }>;
  toolOwner: Map<string, { ext: string; tool: RegisteredTool; by: R }>;
  /** Per extension: conflict diagnostics. */
  conflicts: Map<string, string[]>;
}

/** Builds the index from registrants in load order. `activated`: deferred tools named in `activate_tools`. */
export function buildIndex<R extends Registrant>(registrants: R[], activated: Set<string>): RegistryIndex<R> {
  const commandOwner: RegistryIndex<R>['commandOwner'] = new Map();
  const toolOwner: RegistryIndex<R>['toolOwner'] = new Map();
  const conflicts = new Map<string, string[]>();
  const commands: CommandInfo[] = [];
  const tools: ToolInfo[] = [];
  const note = (ext: string, msg: string) => {
    const l = conflicts.get(ext) ?? [];
    l.push(msg);
    conflicts.set(ext, l);
  };
  for (const r of registrants) {
    if (!r.live) continue;
    for (const c of r.commands.values()) {
      const key = c.name.toLowerCase();
      const owner = commandOwner.get(key);
      const active = !owner;
      if (owner) note(r.name, `command /${c.name} conflicts with /${owner.name} from extension "${owner.ext}" (first registration wins)`);
      else commandOwner.set(key, { ext: r.name, name: c.name, by: r });
      commands.push({ name: c.name, description: c.description, ext: r.name, active });
    }
    for (const t of r.tools.values()) {
      const key = t.name.toLowerCase();
      const owner = toolOwner.get(key);
      const active = !owner;
      if (owner) note(r.name, `tool ${t.name} conflicts with ${owner.tool.name} from extension "${owner.ext}" (first registration wins)`);
      else toolOwner.set(key, { ext: r.name, tool: t, by: r });
      tools.push({ ...t, ext: r.name, active, activated: activated.has(key) });
    }
  }
  return { commands, tools, commandOwner, toolOwner, conflicts };
}

/** Normalises a tool schema: an object schema, `{type:"object"}` when absent or not an object. */
function normaliseSchema(schema: unknown): Record<string, unknown> {
  if (schema && typeof schema === 'object' && !Array.isArray(schema)) return schema as Record<string, unknown>;
  return { type: 'object', properties: {} };
}

/**
 * Files one `register_command` / `register_tool` in `r`'s own registry, within its caps (counts, then bytes); a
 * reserved tool name is refused with a diagnostic. Returns whether anything was registered.
 */
export function register(
  r: Pick<Registrant, 'commands' | 'tools'>,
  f: Extract<ExtNotice, { type: 'register_command' | 'register_tool' }>,
  caps: Pick<ExtensionCaps, 'allowRegistration'>,
  bytes: Pick<ByteCaps, 'registration'>,
  diagnostic: (message: string) => void,
): boolean {
  const key = f.name.toLowerCase();
  if (f.type === 'register_command') {
    if (!caps.allowRegistration('commands', r.commands.size, r.commands.has(key))) return false;
    const b = bytes.registration('c', f.name, f.description);
    if (b) r.commands.set(key, { name: f.name, description: b.description });
    return !!b;
  }
  if (RESERVED_TOOL_NAMES.has(key)) {
    diagnostic(`tool ${f.name} refused: the name is reserved for a built-in tool`);
    return false;
  }
  if (!caps.allowRegistration('tools', r.tools.size, r.tools.has(key))) return false;
  const schema = normaliseSchema(f.schema);
  // Byte caps (byteCaps.ts): the description cut, an oversized schema or the extension's total refuses it.
  const b = bytes.registration('t', f.name, f.description, schema);
  if (!b) return false;
  r.tools.set(key, {
    name: f.name,
    description: b.description,
    schema,
    deferred: f.deferred ?? false,
    interactive: f.interactive ?? false,
    ...(f.annotations ? { annotations: f.annotations } : {}),
  });
  return true;
}
