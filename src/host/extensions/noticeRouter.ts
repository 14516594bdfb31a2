/**
 * The UI half of an extension's notices: `notify`, `clear_notes`, `status`, `widget(_clear)`, `alert`, `submit`,
 * `submit_slash` and the panel frames, passed through the extension's caps (caps.ts: counts; byteCaps.ts: bytes,
 * cutting long text) to the HostUi port. The
 * registry half (`register_command`, `register_tool`, `subscribe`) is the supervisor's (supervisor.ts). No `vscode`.
 */
import type { ExtNotice } from '../protocols';
import type { HostUi, NoteLevel } from '../hostUi';
import type { ByteCaps } from './byteCaps';
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
  bytes: Pick<ByteCaps, 'note' | 'status' | 'widget' | 'panel' | 'release'>;
  /** A note in the extension's diagnostics (a refused notice). */
  diagnostic(message: string): void;
}

/** Routes one UI notice of extension `t.ext` to the HostUi port, within its caps. */
export function routeUiNotice(t: NoticeTarget, f: UiNotice): void {
  const { ui, ext, caps, bytes } = t;
  switch (f.type) {
    case 'notify':
      return ui.notify(ext, noteLevel(f.level), bytes.note(f.message));
    case 'clear_notes':
      return ui.clearNotes(ext);
    case 'status': {
      if (!caps.allowStatus(f.key, f.text ?? '')) return;
      const text = bytes.status(f.key, f.text ?? '');
      return text === undefined ? undefined : ui.status(ext, f.key, f.level, text);
    }
    case 'widget': {
      const w = caps.allowWidget(f.id, f.lines);
      const b = w.ok && bytes.widget(f.id, f.title, w.lines);
      if (!b) return;
      return ui.widget(ext, { id: f.id, position: f.position, ...b });
    }
    case 'widget_clear':
      caps.widgetCleared(f.id);
      bytes.release(`w:${f.id}`);
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
    case 'open_panel': {
      const b = bytes.panel(f.panel.id, f.panel, true);
      return b && ui.openPanel(ext, { id: f.panel.id, lines: undefined, ...b });
    }
    case 'panel_render': {
      const b = bytes.panel(f.panel_id, f, false);
      return b && ui.panelRender(ext, { panel_id: f.panel_id, ...b });
    }
    case 'panel_close':
      bytes.release(`p:${f.panel_id}`);
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
