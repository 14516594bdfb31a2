/**
 * The UI half of an extension's notices (noticeRouter.ts): each reaches the HostUi port under the extension's name,
 * within its caps; refused ones become diagnostics; the registry half is not the router's.
 */
import { describe, expect, it } from 'vitest';
import { ByteCaps } from '../../src/host/extensions/byteCaps';
import { DEFAULT_CAPS, ExtensionCaps, type CapLimits } from '../../src/host/extensions/caps';
import { isUiNotice, noteLevel, routeUiNotice, type UiNotice } from '../../src/host/extensions/noticeRouter';
import { RecordingUi } from '../helpers/hostFixtures';

function router(caps: Partial<CapLimits> = {}) {
  const ui = new RecordingUi();
  const diagnostics: string[] = [];
  const c = new ExtensionCaps((m) => diagnostics.push(m), { ...DEFAULT_CAPS, ...caps });
  const bytes = new ByteCaps((m) => diagnostics.push(m));
  const target = { ext: 'ext', ui, caps: c, bytes, diagnostic: (m: string) => void diagnostics.push(m) };
  return { ui, diagnostics, r: { route: (f: UiNotice) => routeUiNotice(target, f) } };
}

describe('routeUiNotice', () => {
  it('routes each UI notice to its HostUi call, under the extension name', () => {
    const { ui, r, diagnostics } = router();
    r.route({ type: 'notify', level: 'warning', message: 'm' });
    r.route({ type: 'clear_notes' });
    r.route({ type: 'status', key: 'k', text: 't' });
    r.route({ type: 'widget', id: 'w', lines: ['a'] });
    r.route({ type: 'widget_clear', id: 'w' });
    r.route({ type: 'alert', kind: 'done' });
    r.route({ type: 'submit', text: '  hi  ' });
    r.route({ type: 'submit', text: '   ' });
    r.route({ type: 'submit_slash', text: ' /go ' });
    r.route({ type: 'submit_slash', text: 'go' });
    r.route({ type: 'open_panel', panel: { id: 'p', title: 'P', lines: [] } } as never);
    r.route({ type: 'panel_render', panel_id: 'p', lines: ['x'] });
    r.route({ type: 'panel_close', panel_id: 'p' });
    expect(ui.calls.map((c) => c.method)).toEqual([
      'notify', 'clearNotes', 'status', 'widget', 'widgetClear', 'alert', 'submit', 'submitSlash', 'openPanel', 'panelRender', 'panelClose',
    ]);
    expect(ui.calls.every((c) => c.ext === 'ext')).toBe(true);
    expect(ui.of('notify')[0]!.args).toEqual(['warn', 'm']);
    expect(ui.of('submit')[0]!.args).toEqual(['hi']);
    expect(ui.of('submitSlash')[0]!.args).toEqual(['/go']);
    expect(diagnostics).toEqual(['submit_slash ignored: text must start with "/"']);
  });

  it('applies the caps: widgets and status keys over the limit are refused with a diagnostic', () => {
    const { ui, r, diagnostics } = router({ widgets: 1, status: 1 });
    r.route({ type: 'widget', id: 'a', lines: [] });
    r.route({ type: 'widget', id: 'b', lines: [] });
    r.route({ type: 'status', key: 'x', text: '1' });
    r.route({ type: 'status', key: 'y', text: '2' });
    expect(ui.of('widget')).toHaveLength(1);
    expect(ui.of('status')).toHaveLength(1);
    expect(diagnostics).toHaveLength(2);
  });

  it('leaves registrations and subscriptions to the supervisor; notify levels map to note levels', () => {
    expect(isUiNotice({ type: 'register_command', name: 'c' })).toBe(false);
    expect(isUiNotice({ type: 'subscribe', events: [], intercept: [] })).toBe(false);
    expect(isUiNotice({ type: 'clear_notes' })).toBe(true);
    expect(['success', 'WARN', 'error', 'x', undefined].map(noteLevel)).toEqual(['success', 'warn', 'error', 'info', 'info']);
  });
});
