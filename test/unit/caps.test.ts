import { describe, expect, it } from 'vitest';
import { ExtensionCaps } from '../../src/host/extensions/caps';
import { MAX_NOTES_PER_EXT } from '../../src/protocol/limits';
import type { ExtensionInfo } from '../../src/host/types';
import { extensionContextValue, extensionItem, stateText } from '../../src/ui-model/extensionsModel';
import { NotesModel } from '../../src/ui-model/notesModel';
import { extensionInfo } from '../helpers/extensionInfo';

const small = { commands: 2, tools: 2, status: 2, widgets: 2, widgetLines: 3 };

describe('ExtensionCaps', () => {
  it('refuses past each cap with one report per kind, counts every refusal', () => {
    const reports: string[] = [];
    const caps = new ExtensionCaps((m) => reports.push(m), small);
    expect(caps.allowRegistration('tools', 0, false)).toBe(true);
    expect(caps.allowRegistration('tools', 2, false)).toBe(false);
    expect(caps.allowRegistration('tools', 2, false)).toBe(false);
    expect(caps.allowRegistration('tools', 2, true)).toBe(true); // re-registering a known name is fine
    expect(caps.allowRegistration('commands', 2, false)).toBe(false);
    expect(reports).toEqual(['more than 2 tools registered: further register_tool frames refused', 'more than 2 commands registered: further register_command frames refused']);
    expect(caps.refused.get('tools')).toBe(2);
  });

  it('counts live status keys and widgets: clearing one makes room; long widgets are cut', () => {
    const reports: string[] = [];
    const caps = new ExtensionCaps((m) => reports.push(m), small);
    expect(caps.allowStatus('a', 'x')).toBe(true);
    expect(caps.allowStatus('b', 'x')).toBe(true);
    expect(caps.allowStatus('c', 'x')).toBe(false);
    expect(caps.allowStatus('a', 'y')).toBe(true); // an update of a live key
    expect(caps.allowStatus('a', '')).toBe(true); // removal
    expect(caps.allowStatus('c', 'x')).toBe(true);
    expect(caps.allowWidget('w1', ['1']).ok).toBe(true);
    expect(caps.allowWidget('w2', undefined).ok).toBe(true);
    expect(caps.allowWidget('w3', ['1']).ok).toBe(false);
    caps.widgetCleared('w1');
    expect(caps.allowWidget('w3', ['1', '2', '3', '4', '5'])).toEqual({ ok: true, lines: ['1', '2', '3'] });
    expect(caps.counts()).toEqual({ status: 2, widgets: 2 });
    expect(reports).toHaveLength(3);
    caps.reset();
    expect(caps.counts()).toEqual({ status: 0, widgets: 0 });
  });
});

describe('notes and rows', () => {
  it('the notes view keeps the newest MAX_NOTES_PER_EXT (200) notes per extension', () => {
    const m = new NotesModel();
    for (let i = 0; i < 1000; i++) m.add('x', 'info', `n${i}`);
    expect(m.list('x')).toHaveLength(MAX_NOTES_PER_EXT);
    expect(m.list('x')[0]!.text).toBe('n999');
  });

  const base: ExtensionInfo = extensionInfo({
    name: 'slow', dir: '/p/.zut/extensions/slow', manifestPath: '/p/.zut/extensions/slow/extension.json', state: 'starting', logPath: '/l',
  });

  it('a row waiting for hello says "starting… (12 s)"; consent states have their words and menus', () => {
    expect(stateText({ ...base, startingSince: 1_000 }, 13_500)).toBe('starting… (12 s)');
    expect(extensionItem({ ...base, startingSince: 1_000 }, 13_500).description).toBe('starting… (12 s) · project');
    expect(stateText({ ...base, state: 'consent' })).toBe('waiting for consent');
    expect(extensionContextValue({ ...base, state: 'consent', fingerprint: 'f' })).toBe('zutExt.consent.enabled.project');
    expect(extensionContextValue({ ...base, state: 'running', fingerprint: 'f', pid: 3 })).toBe('zutExt.running.enabled.project.restartable.allowed.live');
    expect(extensionContextValue({ ...base, state: 'disabled', disabledInWorkspace: true })).toBe('zutExt.disabled.wsdisabled.project');
    expect(stateText({ ...base, state: 'disabled', disabledInWorkspace: true })).toBe('disabled in this workspace');
  });
});
