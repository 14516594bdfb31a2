/**
 * An e extension's manifest (its answer to `initialize`; e-extensions.md, "initialize") → the host's registrations:
 * tools (`parameters` is the input schema), commands, lifecycle events and hooks. What the host has no place for
 * (typed startup flags, shortcuts, render/input/tool_result/compact_summary/startup hooks, events without a zut
 * counterpart) becomes a diagnostic naming it, so the doctor report says what will never be called.
 */
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';
import type { LifecycleEvent } from '../types';
import type { ExtMessage } from './types';

const Named = /* @__PURE__ */ lazySchema(() => z.object({ name: z.string().min(1), description: z.string().optional() }));

/** The manifest's zod schema. Everything but `name` is optional (spec); unknown fields are ignored. */
const EManifestSchema = /* @__PURE__ */ lazySchema(() => z.object({
  name: z.string().min(1),
  version: z.string().optional(),
  tools: z.array(Named.extend({ parameters: z.record(z.string(), z.unknown()).optional(), label: z.unknown().optional() })).optional(),
  commands: z.array(Named.extend({ arguments: z.string().optional(), completions: z.boolean().optional() })).optional(),
  flags: z.array(z.object({ name: z.string() }).loose()).optional(),
  hooks: z.array(z.string()).optional(),
  renders: z.array(z.string()).optional(),
  events: z.array(z.string()).optional(),
  shortcuts: z.array(z.object({ key: z.string() }).loose()).optional(),
}));

/** Hooks the host calls, and the zut interception each one rides on. */
const E_HOOKS: Readonly<Record<string, string>> = { tool_call: 'tool_call', before_turn: 'turn_start' };
/** The zut events an e extension may intercept: those its hooks ride on. */
export const E_INTERCEPTABLE: ReadonlySet<string> = new Set(Object.values(E_HOOKS));

/** e event → the zut lifecycle events that produce it (host → extension: `eventFromZut`). */
const E_EVENTS: Readonly<Record<string, readonly string[]>> = {
  session_start: ['session_start', 'session_opened', 'session_switched', 'session_forked'],
  turn_start: ['turn_start'],
  turn_end: ['turn_end'],
  tool_start: ['tool_call'],
  compact_end: ['session_compacted'],
};

/** What registering a manifest gives: the registration messages, the hooks it gets, and what cannot map. */
export interface ERegistration {
  name: string;
  version?: string;
  /** `register_tool`, `register_command`, then one `subscribe`: handled like a zut extension's frames. */
  messages: ExtMessage[];
  /** e hooks the host will call (`tool_call`, `before_turn`). */
  hooks: Set<string>;
  /** e events it wants (a manifest without `events` is version 1 and receives `turn_end` alone). */
  events: Set<string>;
  diagnostics: string[];
}

function issueText(error: z.ZodError): string {
  const i = error.issues[0]!;
  return `${i.path.length ? `field "${i.path.join('.')}": ` : ''}${i.message}`;
}

/** Validates the `initialize` result and maps it. A bad manifest is an error naming the field. */
export function registerManifest(result: unknown): { ok: true; reg: ERegistration } | { ok: false; error: string } {
  const parsed = EManifestSchema.safeParse(result);
  if (!parsed.success) return { ok: false, error: `invalid initialize result (the manifest): ${issueText(parsed.error)}` };
  const m = parsed.data;
  const diagnostics: string[] = [];
  const messages: ExtMessage[] = [];
  for (const t of m.tools ?? []) {
    const schema = t.parameters ?? { type: 'object', properties: {} };
    messages.push({ kind: 'notice', notice: { type: 'register_tool', name: t.name, ...(t.description !== undefined && { description: t.description }), schema } });
  }
  for (const c of m.commands ?? []) {
    const description = [c.description, c.arguments && `(arguments: ${c.arguments})`].filter(Boolean).join(' ');
    messages.push({ kind: 'notice', notice: { type: 'register_command', name: c.name, ...(description && { description }) } });
  }
  const hooks = new Set<string>();
  for (const h of m.hooks ?? []) {
    if (E_HOOKS[h]) hooks.add(h);
    else diagnostics.push(`hook "${h}" has no counterpart in zut-vscode: it is never called`);
  }
  const events = new Set<string>();
  for (const e of m.events ?? ['turn_end']) {
    if (E_EVENTS[e]) events.add(e);
    else diagnostics.push(`event "${e}" has no counterpart in zut-vscode: it is never sent`);
  }
  if (m.flags?.length) diagnostics.push('flags: VS Code starts no e binary with arguments; the flags notification is never sent');
  if (m.shortcuts?.length) diagnostics.push(`shortcuts (${m.shortcuts.map((s) => s.key).join(', ')}) are not bound: run its commands from the Command Palette or /`);
  if (m.renders?.length) diagnostics.push('renders: hook.render is never called (VS Code renders chat itself)');
  if (m.commands?.some((c) => c.completions)) diagnostics.push('command completions are not offered (command.complete is never sent)');
  messages.push({
    kind: 'notice',
    notice: { type: 'subscribe', events: [...events].flatMap((e) => E_EVENTS[e]!), intercept: [...hooks].map((h) => E_HOOKS[h]!) },
  });
  return { ok: true, reg: { name: m.name, ...(m.version !== undefined && { version: m.version }), messages, hooks, events, diagnostics } };
}

/**
 * A zut lifecycle event as e's `event` notification params (`{name, extra}`), or undefined when the extension did
 * not ask for the e event it becomes. Fields zut does not know are sent empty (`turn_start.prompt`).
 */
export function eventFromZut(e: LifecycleEvent, wanted: ReadonlySet<string>): { name: string; extra: Record<string, unknown> } | undefined {
  const pick = (name: string, extra: Record<string, unknown>) => (wanted.has(name) ? { name, extra } : undefined);
  switch (e.event) {
    case 'session_start':
    case 'session_opened':
    case 'session_switched':
    case 'session_forked': {
      const reason = e.event === 'session_start' ? 'startup' : e.event === 'session_forked' ? 'fork' : 'resume';
      return pick('session_start', { reason, path: e.session?.path ?? '' });
    }
    case 'turn_start':
      return pick('turn_start', { prompt: e.text ?? '', ...(e.step !== undefined && { step: e.step }) });
    case 'turn_end':
      return pick('turn_end', { aborted: e.stop === 'aborted' || e.stop === 'cancelled' || e.stop === 'canceled' });
    case 'tool_call':
      return pick('tool_start', { id: e.tool_id ?? '', name: e.tool_name ?? '', arguments: e.tool_args ?? {}, ...foreignFields(e) });
    case 'session_compacted':
      return pick('compact_end', { summary: '' });
    default:
      return undefined;
  }
}

/** Ours (additive, as on zut's frames): the real tool behind the name (`editor_tool`) and what it does (`effect`). */
export function foreignFields(p: { [field: string]: unknown }): { editor_tool?: string; effect?: string } {
  const f: { editor_tool?: string; effect?: string } = {};
  if (typeof p.editor_tool === 'string') f.editor_tool = p.editor_tool;
  if (typeof p.effect === 'string') f.effect = p.effect;
  return f;
}
