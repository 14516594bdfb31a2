/**
 * Per-extension caps on what an extension can make the host keep: commands, tools, status keys, widgets (and
 * lines per widget). Past a cap the frame is refused and ONE diagnostic per kind is reported (not one per frame),
 * so a flood neither grows memory nor the diagnostics list; the extension keeps running. Numbers: limits.ts.
 */
import {
  MAX_COMMANDS_PER_EXT,
  MAX_STATUS_KEYS_PER_EXT,
  MAX_TOOLS_PER_EXT,
  MAX_WIDGET_LINES,
  MAX_WIDGETS_PER_EXT,
} from '../../protocol/limits';

/** What a cap bounds. */
export type CapKind = 'commands' | 'tools' | 'status' | 'widgets' | 'widget-lines';

/** The caps in force (tests may lower them). */
export interface CapLimits {
  commands: number;
  tools: number;
  status: number;
  widgets: number;
  widgetLines: number;
}

export const DEFAULT_CAPS: CapLimits = {
  commands: MAX_COMMANDS_PER_EXT,
  tools: MAX_TOOLS_PER_EXT,
  status: MAX_STATUS_KEYS_PER_EXT,
  widgets: MAX_WIDGETS_PER_EXT,
  widgetLines: MAX_WIDGET_LINES,
};

const WHAT: Record<CapKind, (limit: number) => string> = {
  commands: (n) => `more than ${n} commands registered: further register_command frames refused`,
  tools: (n) => `more than ${n} tools registered: further register_tool frames refused`,
  status: (n) => `more than ${n} status keys: status frames with new keys refused`,
  widgets: (n) => `more than ${n} widgets: widget frames with new ids refused`,
  'widget-lines': (n) => `widget with more than ${n} lines: cut to ${n}`,
};

/**
 * Tracks one extension's live status keys and widget ids and which caps were hit, for one process lifetime
 * (`reset()` on each spawn). Commands and tools are counted by their registry maps (the caller passes sizes).
 */
export class ExtensionCaps {
  private readonly statusKeys = new Set<string>();
  private readonly widgetIds = new Set<string>();
  private readonly reported = new Set<CapKind>();
  /** How many frames each cap refused (or cut), for diagnostics and tests. */
  readonly refused = new Map<CapKind, number>();

  constructor(
    private readonly report: (message: string) => void,
    readonly limits: CapLimits = DEFAULT_CAPS,
  ) {}

  reset(): void {
    this.statusKeys.clear();
    this.widgetIds.clear();
    this.reported.clear();
    this.refused.clear();
  }

  /** Whether a registration may be added to a registry holding `size` names (`known`: the name is already there). */
  allowRegistration(kind: 'commands' | 'tools', size: number, known: boolean): boolean {
    if (known || size < this.limits[kind]) return true;
    this.refuse(kind, this.limits[kind]);
    return false;
  }

  /** A `status` frame: empty text removes the key; a new key past the cap is refused. */
  allowStatus(key: string, text: string): boolean {
    if (text === '') {
      this.statusKeys.delete(key);
      return true;
    }
    if (this.statusKeys.has(key)) return true;
    if (this.statusKeys.size >= this.limits.status) {
      this.refuse('status', this.limits.status);
      return false;
    }
    this.statusKeys.add(key);
    return true;
  }

  /** A `widget` frame: a new id past the cap is refused; returns the lines to keep (cut to the line cap). */
  allowWidget(id: string, lines: string[] | undefined): { ok: boolean; lines?: string[] } {
    if (!this.widgetIds.has(id)) {
      if (this.widgetIds.size >= this.limits.widgets) {
        this.refuse('widgets', this.limits.widgets);
        return { ok: false };
      }
      this.widgetIds.add(id);
    }
    if (lines && lines.length > this.limits.widgetLines) {
      this.refuse('widget-lines', this.limits.widgetLines);
      return { ok: true, lines: lines.slice(0, this.limits.widgetLines) };
    }
    return { ok: true, lines };
  }

  widgetCleared(id: string): void {
    this.widgetIds.delete(id);
  }

  /** Live counts, for tests and the doctor. */
  counts(): { status: number; widgets: number } {
    return { status: this.statusKeys.size, widgets: this.widgetIds.size };
  }

  private refuse(kind: CapKind, limit: number): void {
    this.refused.set(kind, (this.refused.get(kind) ?? 0) + 1);
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.report(WHAT[kind](limit));
  }
}
