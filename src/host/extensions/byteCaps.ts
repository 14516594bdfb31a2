/**
 * Byte caps on what one extension makes the host keep (caps.ts counts entries; this counts bytes): per field —
 * tool and command descriptions, input schemas, note text, status text, widget lines and widgets, panel text — and
 * per extension in all (registrations, status items, widgets and panels alive at once). A field past its cap is cut
 * (a schema, which cannot be cut, refuses its tool); an entry that would take the extension past its total is
 * refused. Each kind is reported by ONE diagnostic per process lifetime, so a flood within every cap keeps memory
 * flat. Diagnostics themselves are cut by `cutDiagnostic`. Numbers: limits.ts.
 */
import { overUtf8Bytes } from '../../protocol/codec';
import {
  MAX_DESCRIPTION_BYTES,
  MAX_DIAGNOSTIC_BYTES,
  MAX_EXT_RETAINED_BYTES,
  MAX_NOTE_BYTES,
  MAX_PANEL_BYTES,
  MAX_PANELS_PER_EXT,
  MAX_SCHEMA_BYTES,
  MAX_STATUS_TEXT_BYTES,
  MAX_WIDGET_BYTES,
  MAX_WIDGET_LINE_BYTES,
} from '../../protocol/limits';

export interface ByteLimits {
  description: number;
  schema: number;
  note: number;
  status: number;
  widgetLine: number;
  widget: number;
  panel: number;
  panels: number;
  total: number;
}

export const DEFAULT_BYTE_LIMITS: ByteLimits = {
  description: MAX_DESCRIPTION_BYTES,
  schema: MAX_SCHEMA_BYTES,
  note: MAX_NOTE_BYTES,
  status: MAX_STATUS_TEXT_BYTES,
  widgetLine: MAX_WIDGET_LINE_BYTES,
  widget: MAX_WIDGET_BYTES,
  panel: MAX_PANEL_BYTES,
  panels: MAX_PANELS_PER_EXT,
  total: MAX_EXT_RETAINED_BYTES,
};

const byteLength = (s: string | undefined): number => (s === undefined ? 0 : Buffer.byteLength(s));

/** `text` cut to at most `max` UTF-8 bytes (on a character boundary) plus `…`; unchanged when it fits. */
export function cutBytes(text: string, max: number): string {
  if (!overUtf8Bytes(text, max)) return text;
  // Only the head is encoded: a 4 MiB text costs `max` bytes here, not 4 MiB.
  return Buffer.from(text.slice(0, max)).subarray(0, max).toString('utf8').replace(/\uFFFD$/, '') + '…';
}

/** A diagnostic cut to `MAX_DIAGNOSTIC_BYTES` (it may quote extension text: a name, an event). */
export function cutDiagnostic(message: string): string {
  return cutBytes(message, MAX_DIAGNOSTIC_BYTES);
}

type Kind = 'description' | 'schema' | 'note' | 'status' | 'widget' | 'panel' | 'panels' | 'total';

/** What a panel shows (`open_panel`, `panel_render`). */
export interface PanelText {
  title?: string;
  lines?: string[];
  footer?: string;
}

const WHAT: Record<Kind, (l: ByteLimits) => string> = {
  description: (l) => `a tool or command description over ${l.description} bytes: cut`,
  schema: (l) => `a tool input schema over ${l.schema} bytes: that register_tool (and any like it) refused`,
  note: (l) => `a note over ${l.note} bytes: cut`,
  status: (l) => `a status text over ${l.status} bytes: cut`,
  widget: (l) => `a widget line over ${l.widgetLine} bytes or a widget over ${l.widget} bytes: cut`,
  panel: (l) => `a panel over ${l.panel} bytes: cut`,
  panels: (l) => `more than ${l.panels} panels open: further open_panel frames refused`,
  total: (l) => `over ${l.total} bytes of registrations, status, widgets and panels kept: further ones refused`,
};

/** One extension's byte ledger for one process lifetime (`reset()` on each spawn). */
export class ByteCaps {
  /** Entry (`t:name`, `c:name`, `s:key`, `w:id`, `p:id`) → the bytes it keeps. */
  private readonly ledger = new Map<string, number>();
  private kept = 0;
  private readonly reported = new Set<Kind>();
  /** Ledger keys of open panels. */
  private readonly open = new Set<string>();

  constructor(
    private readonly report: (message: string) => void,
    readonly limits: ByteLimits = DEFAULT_BYTE_LIMITS,
  ) {}

  /** Bytes kept now (for tests and the bench). */
  get total(): number {
    return this.kept;
  }

  reset(): void {
    this.ledger.clear();
    this.open.clear();
    this.kept = 0;
    this.reported.clear();
  }

  /** A registration's description, cut; undefined (refused) for an oversized schema or past the total. */
  registration(kind: 't' | 'c', name: string, description: string | undefined, schema?: unknown): { description: string | undefined } | undefined {
    const cut = description === undefined ? undefined : this.cut('description', description, this.limits.description);
    let size = byteLength(name) + byteLength(cut);
    if (schema !== undefined) {
      const bytes = Buffer.byteLength(JSON.stringify(schema) ?? '');
      if (bytes > this.limits.schema) return this.refuse('schema');
      size += bytes;
    }
    return this.charge(`${kind}:${name.toLowerCase()}`, size) ? { description: cut } : undefined;
  }

  /** A note's text, cut (notes are kept by the view, 200 per extension: each is bounded here). */
  note(text: string): string {
    return this.cut('note', text, this.limits.note);
  }

  /** A status text, cut; undefined past the total. Empty text removes the key. */
  status(key: string, text: string): string | undefined {
    if (text === '') {
      this.release(`s:${key}`);
      return text;
    }
    const cut = this.cut('status', text, this.limits.status);
    return this.charge(`s:${key}`, byteLength(key) + byteLength(cut)) ? cut : undefined;
  }

  /** A widget's title and lines, cut (each line, then the widget); undefined past the total. */
  widget(id: string, title: string | undefined, lines: string[] | undefined): { title?: string; lines?: string[] } | undefined {
    const out: { title?: string; lines?: string[] } = {};
    if (title !== undefined) out.title = this.cut('widget', title, this.limits.widgetLine);
    const kept = this.lines('widget', lines, this.limits.widget - byteLength(out.title), this.limits.widgetLine);
    if (kept.lines) out.lines = kept.lines;
    return this.charge(`w:${id}`, byteLength(id) + byteLength(out.title) + kept.bytes) ? out : undefined;
  }

  /**
   * A panel's text (title, lines, footer), cut, without the fields it omits (a render keeps their previous value,
   * so its charge never drops below the previous one). `open`: an `open_panel` (at most `MAX_PANELS_PER_EXT` open);
   * a render of a panel not opened here (by a command's answer, or none) is cut but not charged. Undefined past
   * the total or the panel count.
   */
  panel(id: string, p: PanelText, open: boolean): PanelText | undefined {
    const key = `p:${id}`;
    const known = this.open.has(key);
    if (open && !known && this.open.size >= this.limits.panels) return this.refuse('panels');
    const out: PanelText = {};
    if (p.title !== undefined) out.title = this.cut('panel', p.title, this.limits.status);
    if (p.footer !== undefined) out.footer = this.cut('panel', p.footer, this.limits.status);
    const kept = this.lines('panel', p.lines, this.limits.panel - byteLength(out.title) - byteLength(out.footer), this.limits.panel);
    if (kept.lines) out.lines = kept.lines;
    if (!open && !known) return out;
    const bytes = Math.max(this.ledger.get(key) ?? 0, byteLength(id) + byteLength(out.title) + byteLength(out.footer) + kept.bytes);
    if (!this.charge(key, bytes)) return undefined;
    this.open.add(key);
    return out;
  }

  /** An entry is gone (status removed, widget or panel closed): its bytes are free again. */
  release(key: string): void {
    this.kept -= this.ledger.get(key) ?? 0;
    this.ledger.delete(key);
    this.open.delete(key);
  }

  private lines(kind: Kind, lines: string[] | undefined, budget: number, perLine: number): { lines?: string[]; bytes: number } {
    if (!lines) return { bytes: 0 };
    const out: string[] = [];
    let bytes = 0;
    for (const line of lines) {
      const l = this.cut(kind, line, perLine);
      bytes += byteLength(l);
      if (bytes > budget) {
        this.refuse(kind);
        bytes -= byteLength(l);
        break;
      }
      out.push(l);
    }
    return { lines: out, bytes };
  }

  private cut(kind: Kind, text: string, max: number): string {
    const cut = cutBytes(text, max);
    if (cut !== text) this.refuse(kind);
    return cut;
  }

  private charge(key: string, bytes: number): boolean {
    const before = this.ledger.get(key) ?? 0;
    if (this.kept - before + bytes > this.limits.total) return this.refuse('total') ?? false;
    this.ledger.set(key, bytes);
    this.kept += bytes - before;
    return true;
  }

  private refuse(kind: Kind): undefined {
    if (this.reported.has(kind)) return undefined;
    this.reported.add(kind);
    this.report(WHAT[kind](this.limits));
    return undefined;
  }
}
