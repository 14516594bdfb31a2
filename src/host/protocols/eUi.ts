/**
 * What an e extension asks of the host (e-extensions.md, "Requests to e", "Messages from your extension"), in the
 * host's vocabulary: display requests become zut notices answered `{}` at once (`ui.notify` → `notify`, `ui.status`
 * → `status`, `ui.widget` → `widget`, `ui.panel` → our panels, `session.send` → `submit`), questions become `ask`
 * requests the host answers through HostUi (QuickPick, modal, InputBox), `tool.update` becomes progress. Everything
 * with no counterpart (`ui.pane`, `ui.editor`, `ui.compose`, model and effort switching, session control) is
 * answered with an error naming it, at once: never a hang. Pure: the caller keeps the panel state.
 */
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';
import type { Question } from '../hostUi';
import { E_PANEL_MAX_LINES, E_PROGRESS_MAX_CHARS, E_STATUS_MAX_COLUMNS, E_WIDGET_MAX_ROWS } from '../../protocol/limits';
import type { ExtMessage, ExtNotice } from './types';
import { answerLine, type EWireId } from './eWire';

/** The id of the one panel an e extension has (e: "Only one panel shows at a time"). */
export const E_PANEL_ID = 'e-panel';

/** Panel state the adapter keeps between `ui.panel` requests. */
export interface EPanelState {
  open: boolean;
  interactive: boolean;
}

const Span = /* @__PURE__ */ lazySchema(() => z.object({ text: z.string() }).loose());
/** A panel or widget line: a string, or spans `{text, token}` (the token is a theme colour: dropped here). */
const Line = /* @__PURE__ */ lazySchema(() => z.union([z.string(), z.array(Span)]).transform((l) => (typeof l === 'string' ? l : l.map((s) => s.text).join(''))));
const nullable = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? null);

// Each built at its first request (lazySchema): none while dist/extension.js loads.
const Params = {
  'ui.notify': /* @__PURE__ */ lazySchema(() => z.object({ message: z.string(), tone: z.enum(['info', 'warning', 'error']).optional() })),
  'ui.show': /* @__PURE__ */ lazySchema(() => z.object({ title: z.string().optional(), body: z.string(), format: z.string().optional() })),
  'ui.status': /* @__PURE__ */ lazySchema(() => z.object({ text: nullable(z.string()), key: z.string().optional() })),
  'ui.activity': /* @__PURE__ */ lazySchema(() => z.object({ text: nullable(z.string()), key: z.string().optional() })),
  'ui.widget': /* @__PURE__ */ lazySchema(() => z.object({ lines: nullable(z.array(Line)), key: z.string().optional() })),
  'ui.panel': /* @__PURE__ */ lazySchema(() => z.object({ title: z.string().optional(), lines: z.array(Line), interactive: z.boolean().optional() }).nullable()),
  'ui.select': /* @__PURE__ */ lazySchema(() =>
    z.object({
      title: z.string(),
      options: z.array(z.union([z.string(), z.object({ label: z.string(), description: z.string().optional(), value: z.unknown().optional() })])),
    }),
  ),
  'ui.confirm': /* @__PURE__ */ lazySchema(() => z.object({ title: z.string(), message: z.string().optional() })),
  'ui.input': /* @__PURE__ */ lazySchema(() => z.object({ title: z.string(), placeholder: z.string().optional(), prefill: z.string().optional(), secret: z.boolean().optional() })),
  'session.send': /* @__PURE__ */ lazySchema(() => z.object({ content: z.string(), internal: z.boolean().optional() })),
} as const;

/** Requests with no counterpart here, and why (the error the extension gets). */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  'ui.pane': 'side panes are not available in VS Code; use ui.panel',
  'ui.editor': 'multi-line answers are not available; use ui.input',
  'ui.compose': 'zut-vscode cannot put text in the chat input; use session.send',
  'session.model': "model switching is not available: the model is the user's choice in VS Code",
  'session.effort': "effort switching is not available: the model is the user's choice in VS Code",
  'session.tools': 'narrowing the toolset is not available in zut-vscode',
  'session.interrupt': 'interrupting a turn is not available in zut-vscode',
  'session.compact': 'compaction is not available in zut-vscode',
  'session.name': 'sessions have no names in zut-vscode',
  'session.info': 'session info is not available in zut-vscode',
};

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** A notice answered `{}`: the display requests. */
function shown(id: EWireId, ...notices: ExtNotice[]): ExtMessage {
  return { kind: 'batch', messages: notices.map((notice) => ({ kind: 'notice', notice })), send: [answerLine(id, { result: {} })] };
}

/** A request refused at once with `error`. */
export function refused(id: EWireId, error: string, log?: string): ExtMessage {
  return { kind: 'batch', messages: log ? [{ kind: 'diagnostic', message: log }] : [], send: [answerLine(id, { error })] };
}

/** The answer to a question the user dismissed (e's shapes: `{cancelled:true}`, `{confirmed:false}`). */
export function dismissed(q: Question): Record<string, unknown> {
  return q.kind === 'confirm' ? { confirmed: false } : { cancelled: true };
}

/** The user's answer in e's result shape: select `{value, label}`, confirm `{confirmed}`, input `{text}`. */
export function answerResult(q: Question, answer: unknown): Record<string, unknown> {
  if (answer === undefined || answer === null) return dismissed(q);
  switch (q.kind) {
    case 'select': {
      const o = answer as { label: string; value: unknown };
      return { value: o.value, label: o.label };
    }
    case 'confirm':
      return { confirmed: answer === true };
    case 'input':
      return { text: String(answer) };
  }
}

/**
 * Maps one request from the extension. `ask` requests come back as `{kind: 'request', method: 'ask'}` with the
 * question (the caller remembers it to shape the answer, `answerResult`); everything else is answered here.
 */
export function mapRequest(id: EWireId, method: string, params: unknown, panel: EPanelState): ExtMessage {
  if (UNSUPPORTED[method]) return refused(id, `${method}: ${UNSUPPORTED[method]}`);
  if (!(method in Params)) return refused(id, `unknown method ${JSON.stringify(method)}`, `refused unknown request ${JSON.stringify(method)}`);
  const schema = Params[method as keyof typeof Params];
  const p = schema.safeParse(params);
  if (!p.success) return refused(id, `${method}: invalid params: ${p.error.issues[0]?.message ?? 'invalid'}`);
  switch (method) {
    case 'ui.notify': {
      const v = p.data as z.infer<(typeof Params)['ui.notify']>;
      return shown(id, { type: 'notify', level: v.tone === 'warning' ? 'warn' : (v.tone ?? 'info'), message: v.message });
    }
    case 'ui.show': {
      const v = p.data as z.infer<(typeof Params)['ui.show']>;
      return shown(id, { type: 'notify', level: 'info', message: v.title ? `${v.title}\n${v.body}` : v.body });
    }
    case 'ui.status':
    case 'ui.activity': {
      const v = p.data as z.infer<(typeof Params)['ui.status']>;
      const base = method === 'ui.status' ? 'status' : 'activity';
      const key = v.key === undefined ? base : `${base}:${v.key}`;
      return shown(id, { type: 'status', key, text: clip(v.text ?? '', E_STATUS_MAX_COLUMNS) });
    }
    case 'ui.widget': {
      const v = p.data as z.infer<(typeof Params)['ui.widget']>;
      const wid = v.key ?? 'widget';
      return v.lines === null ? shown(id, { type: 'widget_clear', id: wid }) : shown(id, { type: 'widget', id: wid, lines: v.lines.slice(0, E_WIDGET_MAX_ROWS) });
    }
    case 'ui.panel':
      return panelRequest(id, p.data as z.infer<(typeof Params)['ui.panel']>, panel);
    case 'ui.select': {
      const v = p.data as z.infer<(typeof Params)['ui.select']>;
      const options = v.options.map((o) => (typeof o === 'string' ? { label: o, value: o } : { label: o.label, ...(o.description !== undefined && { description: o.description }), value: o.value ?? o.label }));
      return { kind: 'request', id: id as string | number, method: 'ask', params: { kind: 'select', title: v.title, options } satisfies Question };
    }
    case 'ui.confirm': {
      const v = p.data as z.infer<(typeof Params)['ui.confirm']>;
      return { kind: 'request', id: id as string | number, method: 'ask', params: { kind: 'confirm', ...v } satisfies Question };
    }
    case 'ui.input': {
      const v = p.data as z.infer<(typeof Params)['ui.input']>;
      return { kind: 'request', id: id as string | number, method: 'ask', params: { kind: 'input', ...v } satisfies Question };
    }
    default: {
      const v = p.data as z.infer<(typeof Params)['session.send']>;
      if (v.internal) return refused(id, 'session.send: internal messages are not available in zut-vscode (a hook.before_turn answer can add context)');
      const text = v.content.trim();
      return text === '' ? refused(id, 'session.send: empty content') : shown(id, { type: 'submit', text });
    }
  }
}

/** `ui.panel`: opens our panel, redraws it while open, `null` closes it. */
function panelRequest(id: EWireId, v: { title?: string; lines: string[]; interactive?: boolean } | null, panel: EPanelState): ExtMessage {
  if (v === null) {
    if (!panel.open) return shown(id);
    panel.open = false;
    return shown(id, { type: 'panel_close', panel_id: E_PANEL_ID });
  }
  const lines = v.lines.slice(0, E_PANEL_MAX_LINES);
  panel.interactive = v.interactive === true;
  const footer = panel.interactive ? 'keys go to the extension · Esc closes' : undefined;
  const fields = { ...(v.title !== undefined && { title: v.title }), lines, ...(footer && { footer }) };
  if (panel.open) return shown(id, { type: 'panel_render', panel_id: E_PANEL_ID, ...fields });
  panel.open = true;
  return shown(id, { type: 'open_panel', panel: { id: E_PANEL_ID, ...fields } });
}

const Notify = /* @__PURE__ */ lazySchema(() => z.object({ message: z.string() }));
const ToolUpdate = /* @__PURE__ */ lazySchema(() => z.object({ id: z.union([z.number(), z.string()]), stream: z.string().optional(), chunk: z.string() }));

/** Maps one notification from the extension (`notify`, `tool.update`); others are logged and ignored. */
export function mapNotification(method: string, params: unknown): ExtMessage {
  if (method === 'notify') {
    const p = Notify.safeParse(params);
    return p.success ? { kind: 'notice', notice: { type: 'notify', level: 'info', message: p.data.message } } : { kind: 'diagnostic', message: 'notify without a message ignored' };
  }
  if (method === 'tool.update') {
    const p = ToolUpdate.safeParse(params);
    if (!p.success) return { kind: 'diagnostic', message: 'tool.update without id and chunk ignored' };
    const text = clip(p.data.stream === 'stderr' ? `stderr: ${p.data.chunk}` : p.data.chunk, E_PROGRESS_MAX_CHARS);
    return { kind: 'progress', id: String(p.data.id), text };
  }
  return { kind: 'diagnostic', message: `ignored notification ${JSON.stringify(method)}` };
}
