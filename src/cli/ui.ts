/**
 * The CLI's HostUi: `notify` and `status` lines go to stderr as they arrive (`-q` silences them), and so do
 * rendered panels (always); a panel that opens gets the `--keys`, or, without them, fails the running call at once with a message
 * naming the panel and the flag.
 */
import type { PanelSpec } from '../protocol';
import type { HostPanels } from '../host/api';
import { NullHostUi, type NoteLevel, type PanelRender } from '../host/hostUi';
import { errLine } from './common';
import type { KeyPress } from './keys';

/** A panel opened while no `--keys` were given. */
export class PanelNeedsKeys extends Error {
  constructor(
    readonly ext: string,
    readonly panelId: string,
    title: string | undefined,
  ) {
    super(
      `extension ${ext} opened panel "${panelId}"${title ? ` (${title})` : ''}, which waits for keys: ` +
        `pass them with --keys (e.g. --keys 'y' or --keys '<enter>') or --keys-file FILE`,
    );
  }
}

interface OpenPanel {
  ext: string;
  title?: string;
  lines?: string[];
  footer?: string;
}

export class CliUi extends NullHostUi {
  private host: HostPanels | undefined;
  private readonly open = new Map<string, OpenPanel>();
  private readonly closeWaiters: (() => void)[] = [];
  private failPanel: ((e: PanelNeedsKeys) => void) | undefined;
  /** Rejects when a panel opens without `--keys` (observe it with `Promise.race`). */
  readonly panelWithoutKeys: Promise<never>;
  /** Panels that were opened during this run. */
  opened = 0;

  constructor(private readonly o: { quiet: boolean; keys?: KeyPress[] }) {
    super();
    this.panelWithoutKeys = new Promise<never>((_, reject) => (this.failPanel = reject));
    this.panelWithoutKeys.catch(() => undefined);
  }

  /** Whether `--keys`/`--keys-file` were given (panels can be answered). */
  get hasKeys(): boolean {
    return this.o.keys !== undefined;
  }

  attach(host: HostPanels): void {
    this.host = host;
  }

  private say(text: string): void {
    if (!this.o.quiet) errLine(text);
  }

  /** A running tool's streamed output (e's `tool.update`), one line per line of it. */
  progress(ext: string, text: string): void {
    for (const l of text.split(/\r?\n/)) if (l.trim() !== '') this.say(`[${ext}] progress: ${l}`);
  }

  override notify(ext: string, level: NoteLevel, message: string): void {
    this.say(`[${ext}] notify ${level}: ${message}`);
  }

  override status(ext: string, key: string, _level: string | undefined, text: string): void {
    this.say(`[${ext}] status ${key}: ${text === '' ? '(cleared)' : text}`);
  }

  override openPanel(ext: string, panel: PanelSpec): void {
    this.opened++;
    this.open.set(panel.id, { ext, title: panel.title, lines: panel.lines, footer: panel.footer });
    this.print(panel.id, 'opened');
    if (!this.o.keys) {
      this.failPanel?.(new PanelNeedsKeys(ext, panel.id, panel.title));
      return;
    }
    for (const k of this.o.keys) this.host?.panelKey(ext, panel.id, k.key, k.text);
  }

  override panelRender(ext: string, r: PanelRender): void {
    const p = this.open.get(r.panel_id);
    if (!p || p.ext !== ext) return;
    if (r.title !== undefined) p.title = r.title;
    if (r.lines !== undefined) p.lines = r.lines;
    if (r.footer !== undefined) p.footer = r.footer;
    this.print(r.panel_id, 'render');
  }

  override panelClose(ext: string, panelId: string): void {
    if (this.open.get(panelId)?.ext !== ext) return;
    this.open.delete(panelId);
    errLine(`[${ext}] panel ${panelId} closed`);
    if (this.open.size === 0) this.closeWaiters.splice(0).forEach((w) => w());
  }

  override clearExtension(ext: string): void {
    for (const [id, p] of this.open) if (p.ext === ext) this.open.delete(id);
    if (this.open.size === 0) this.closeWaiters.splice(0).forEach((w) => w());
  }

  /** The panels still open (ids). */
  openPanels(): string[] {
    return [...this.open.keys()];
  }

  /** Resolves once no panel is open. */
  allClosed(): Promise<void> {
    return this.open.size === 0 ? Promise.resolve() : new Promise((r) => this.closeWaiters.push(r));
  }

  private print(id: string, what: string): void {
    const p = this.open.get(id)!;
    const lines = [`[${p.ext}] panel ${id} ${what}${p.title ? `: ${p.title}` : ''}`, ...(p.lines ?? []).map((l) => `  | ${l}`)];
    if (p.footer) lines.push(`  -- ${p.footer}`);
    for (const l of lines) errLine(l); // panels are printed even with -q: they show what the keys answered
  }
}
