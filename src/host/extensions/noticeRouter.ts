/**
 * The UI half of an extension's notices: `notify`, `clear_notes`, `status`, `widget(_clear)`, `alert`, `submit`,
 * `submit_slash` and the panel frames, passed through the extension's caps (caps.ts) to the HostUi port. The
 * registry half (`register_command`, `register_tool`, `subscribe`) is the supervisor's (supervisor.ts). No `vscode`.
 */
import type { ExtNotice } from '../protocols';
import type { HostUi, NoteLevel } from '../hostUi';
import type { ExtensionCaps } from './caps';

/** The notices that only reach the UI. */
export type UiNotice = Exclude<ExtNotice, { type: 'register_command' | 'register_tool' | 'subscribe' }>;

/** Whether `n` is a UI notice (the rest is the registry's). */
export function isUiNotice(n: ExtNotice): n is UiNotice {
  return n.type !== 'register_command' && n.type !== 'register_tool' && n.type !== 'subscribe';
}

/** What routing needs of the extension: its name, the HostUi port, its caps, and its diagnostics. */
export interface NoticeTarget {
  ext: string;
  ui: HostUi;
  caps: Pick<ExtensionCaps, 'allowStatus' | 'allowWidget' | 'widgetCleared'>;
  /** A note in the extension's diagnostics (a refused notice). */
  diagnostic(message: string): void;
}

/** Routes one UI notice of extension `t.ext` to the HostUi port, within its caps. */
export function routeUiNotice(t: NoticeTarget, f: UiNotice): void {
  const { ui, ext, caps } = t;
  switch (f.type) {
    case 'notify':
      return ui.notify(ext, noteLevel(f.level), f.message);
    case 'clear_notes':
      return ui.clearNotes(ext);
    case 'status':
      if (!caps.allowStatus(f.key, f.text ?? '')) return;
      return ui.status(ext, f.key, f.level, f.text ?? '');
    case 'widget': {
      const w = caps.allowWidget(f.id, f.lines);
      if (!w.ok) return;
      return ui.widget(ext, { id: f.id, position: f.position, title: f.title, lines: w.lines });
    }
    case 'widget_clear':
      caps.widgetCleared(f.id);
      return ui.widgetClear(ext, f.id);
    case 'alert':
      return ui.alert(ext, f.kind, f.reason);
    case 'submit': {
      const text = f.text.trim();
      if (text) ui.submit(ext, text);
      return;
    }
    case 'submit_slash': {
      const text = f.text.trim();
      if (text.startsWith('/')) ui.submitSlash(ext, text);
      else t.diagnostic(`submit_slash ignored: text must start with "/"`);
      return;
    }
    case 'open_panel':
      return ui.openPanel(ext, f.panel);
    case 'panel_render':
      return ui.panelRender(ext, { panel_id: f.panel_id, title: f.title, lines: f.lines, footer: f.footer });
    case 'panel_close':
      return ui.panelClose(ext, f.panel_id);
  }
}

/** Maps a `notify` level to a note level (`warning` is accepted as `warn`). */
export function noteLevel(level: string | undefined): NoteLevel {
  switch ((level ?? '').toLowerCase()) {
    case 'success':
      return 'success';
    case 'warn':
    case 'warning':
      return 'warn';
    case 'error':
      return 'error';
    default:
      return 'info';
  }
}
