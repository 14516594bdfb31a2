import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectsAny, effectiveZutHome, expandHome, readSettings, reloadInputsDiffer, resolveExtensionPaths, RELOAD_KEYS, userScopedGetter, type InspectedSetting } from '../../src/ui-model/settings';

const getter = (values: Record<string, unknown>) => (key: string) => values[key];

describe('readSettings', () => {
  it('uses the defaults when nothing is set', () => {
    const { settings, problems } = readSettings(getter({}));
    expect(settings).toEqual({
      home: '',
      extensionPaths: [],
      toolTimeoutSeconds: 60,
      trace: 'off',
      autoRestart: true,
      alerts: 'notify',
      notesNotifications: 'warnings',
      chatMaxRounds: 32,
      chatEditorTools: 'all',
      agentToolsEnabled: true,
      agentToolsExclude: [],
      agentToolsVia: 'auto',
      startTimeoutSeconds: 60,
      consentMode: 'ask',
      compatZot: true,
      compatE: true,
    });
    expect(problems).toEqual([]);
  });

  it("reads package.json's defaults (what VS Code gives for a setting nobody set) as its own, for every setting", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default: unknown }> } };
    };
    const contributed = Object.fromEntries(Object.entries(pkg.contributes.configuration.properties).map(([k, v]) => [k.replace(/^zut\./, ''), v.default]));
    const asked: string[] = [];
    const fromPackage = readSettings((key) => (asked.push(key), contributed[key]));
    expect(fromPackage).toEqual(readSettings(getter({})));
    expect(fromPackage.problems).toEqual([]);
    expect(asked.sort()).toEqual(Object.keys(contributed).sort());
  });

  it('reads valid values', () => {
    const { settings, problems } = readSettings(
      getter({
        home: ' /tmp/zh ',
        extensionPaths: ['./a', '', '  ', '/b'],
        toolTimeoutSeconds: 5.5,
        trace: 'verbose',
        autoRestart: false,
        alerts: 'off',
        'notes.notifications': 'off',
        'chat.maxRounds': 4,
        'chat.editorTools': [' run_in_terminal '],
        'agentTools.enabled': false,
        'agentTools.exclude': [' secret_tool ', ''],
        'agentTools.via': 'plugin',
        startTimeoutSeconds: 11,
        'projectExtensions.consent': 'trustedWorkspace',
        'compat.zot': false,
        'compat.e': false,
      }),
    );
    expect(settings).toEqual({
      home: '/tmp/zh',
      extensionPaths: ['./a', '/b'],
      toolTimeoutSeconds: 5.5,
      trace: 'verbose',
      autoRestart: false,
      alerts: 'off',
      notesNotifications: 'off',
      chatMaxRounds: 4,
      chatEditorTools: ['run_in_terminal'],
      agentToolsEnabled: false,
      agentToolsExclude: ['secret_tool'],
      agentToolsVia: 'plugin',
      startTimeoutSeconds: 11,
      consentMode: 'trustedWorkspace',
      compatZot: false,
      compatE: false,
    });
    expect(problems).toEqual([]);
  });

  it('falls back to the default for each invalid value and names the setting', () => {
    const { settings, problems } = readSettings(
      getter({ trace: 'loud', toolTimeoutSeconds: -1, extensionPaths: 'x', autoRestart: 'yes', 'chat.maxRounds': 2.5, alerts: 1, 'agentTools.exclude': 'x', 'agentTools.via': 'both', 'projectExtensions.consent': 'never' }),
    );
    expect(settings.consentMode).toBe('ask');
    expect(settings.trace).toBe('off');
    expect(settings.toolTimeoutSeconds).toBe(60);
    expect(settings.extensionPaths).toEqual([]);
    expect(settings.autoRestart).toBe(true);
    expect(settings.chatMaxRounds).toBe(32);
    expect(settings.agentToolsExclude).toEqual([]);
    expect(problems.some((p) => p.startsWith('zut.agentTools.exclude:'))).toBe(true);
    expect(settings.agentToolsVia).toBe('auto');
    expect(problems.some((p) => p.startsWith('zut.agentTools.via:'))).toBe(true);
    expect(settings.alerts).toBe('notify');
    expect(problems).toHaveLength(9);
    expect(problems.find((p) => p.startsWith('zut.trace:'))).toContain('(using "off")');
    expect(problems.find((p) => p.startsWith('zut.chat.maxRounds:'))).toContain('(using 32)');
  });

  it('falls back to "on" for an invalid zut.compat.* value, and both are reload keys', () => {
    const { settings, problems } = readSettings(getter({ 'compat.zot': 'no', 'compat.e': 0 }));
    expect([settings.compatZot, settings.compatE]).toEqual([true, true]);
    expect(problems.map((p) => p.split(':')[0])).toEqual(['zut.compat.zot', 'zut.compat.e']);
    expect(RELOAD_KEYS).toEqual(expect.arrayContaining(['compat.zot', 'compat.e']));
  });

  it('treats null as unset', () => {
    expect(readSettings(getter({ home: null })).problems).toEqual([]);
  });
});

describe('paths', () => {
  const home = '/home/u';
  it('expands ~', () => {
    expect(expandHome('~', home)).toBe(home);
    expect(expandHome('~/x/y', home)).toBe(path.join(home, 'x/y'));
    expect(expandHome('/abs/~', home)).toBe('/abs/~');
    expect(expandHome('~other', home)).toBe('~other');
  });

  it('resolves zut home from the setting or the fallback', () => {
    expect(effectiveZutHome('', ['/w'], () => '/fallback', home)).toBe('/fallback');
    expect(effectiveZutHome('~/zh', ['/w'], () => '/fallback', home)).toBe('/home/u/zh');
    expect(effectiveZutHome('rel', ['/w'], () => '/fallback', home)).toBe('/w/rel');
    expect(effectiveZutHome('rel', [], () => '/fallback', home)).toBe('/home/u/rel');
  });

  it('resolves extension paths against the first folder, de-duplicated', () => {
    expect(resolveExtensionPaths(['./a', '/w/a', '~/b', '/c/../d'], ['/w', '/v'], home)).toEqual(['/w/a', '/home/u/b', '/d']);
    expect(resolveExtensionPaths(['a'], [], home)).toEqual(['/home/u/a']);
  });
});

describe('affectsAny', () => {
  it('matches only the given keys under zut.', () => {
    const changed = new Set(['zut.home']);
    expect(affectsAny((s) => changed.has(s), RELOAD_KEYS)).toBe(true);
    expect(affectsAny((s) => changed.has(s), ['trace'])).toBe(false);
  });
});

describe('reloadInputsDiffer', () => {
  it('is true only when a discovery input changed: an event naming a key set to what it was reloads nothing', () => {
    const base = readSettings(() => undefined).settings;
    expect(reloadInputsDiffer(base, { ...base })).toBe(false);
    expect(reloadInputsDiffer(base, { ...base, extensionPaths: [...base.extensionPaths] })).toBe(false);
    expect(reloadInputsDiffer(base, { ...base, trace: 'verbose' })).toBe(false);
    for (const change of [{ home: '/h' }, { extensionPaths: ['/x'] }, { consentMode: 'trustedWorkspace' as const }, { compatZot: !base.compatZot }, { compatE: !base.compatE }]) {
      expect(reloadInputsDiffer(base, { ...base, ...change }), JSON.stringify(change)).toBe(true);
    }
  });
});

describe('userScopedGetter (issue 20 point 1)', () => {
  /** A configuration as VS Code merges it: folder over workspace over user. */
  const config = (layers: Record<string, InspectedSetting>) => ({
    inspect: (key: string) => layers[key],
    get: (key: string) => {
      const l = layers[key];
      return l?.workspaceFolderValue ?? l?.workspaceValue ?? l?.globalValue;
    },
  });

  it("zut.home and zut.extensionPaths come from the user's settings only; a workspace's or folder's value is reported, not used", () => {
    const ignored: string[] = [];
    const c = config({
      home: { workspaceValue: '.zuthome' },
      extensionPaths: { globalValue: ['/mine/ext'], workspaceFolderValue: ['./tools/ext'] },
      trace: { workspaceValue: 'verbose' },
    });
    const { settings } = readSettings(userScopedGetter(c, ignored));
    expect(settings.home).toBe('');
    expect(settings.extensionPaths).toEqual(['/mine/ext']);
    expect(settings.trace).toBe('verbose'); // the others keep VS Code's merge
    expect(ignored).toEqual(['zut.home', 'zut.extensionPaths']);
  });

  it('the user\'s own values apply, with nothing reported', () => {
    const ignored: string[] = [];
    const { settings } = readSettings(userScopedGetter(config({ home: { globalValue: '~/zh' }, extensionPaths: { globalValue: ['a'] } }), ignored));
    expect([settings.home, settings.extensionPaths, ignored]).toEqual(['~/zh', ['a'], []]);
  });
});
