import { describe, expect, it } from 'vitest';
import { globalExtensionsDir, logPathFor, projectExtensionsDir, resolveZutHome, safeFileName } from '../../src/host/disk/paths';

describe('resolveZutHome', () => {
  it('uses ZUT_HOME verbatim on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(resolveZutHome({ ZUT_HOME: '/z', XDG_STATE_HOME: '/x' }, platform, '/home/u')).toBe('/z');
    }
  });

  it('uses $XDG_STATE_HOME/zut on any platform when ZUT_HOME is unset or empty', () => {
    expect(resolveZutHome({ XDG_STATE_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/zut');
    expect(resolveZutHome({ ZUT_HOME: '', XDG_STATE_HOME: '/x' }, 'darwin', '/Users/u')).toBe('/x/zut');
    expect(resolveZutHome({ XDG_STATE_HOME: 'C:\\state', LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\Users\\u')).toBe('C:\\state\\zut');
  });

  it('defaults per platform', () => {
    expect(resolveZutHome({}, 'linux', '/home/u')).toBe('/home/u/.local/state/zut');
    expect(resolveZutHome({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/zut');
    expect(resolveZutHome({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Local\\zut',
    );
    expect(resolveZutHome({ XDG_STATE_HOME: '' }, 'freebsd', '/home/u')).toBe('/home/u/.local/state/zut');
  });

  it('falls back to ~/AppData/Local/zut on Windows without LOCALAPPDATA', () => {
    expect(resolveZutHome({}, 'win32', 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Local\\zut');
  });
});

describe('derived paths', () => {
  it('builds log, global and project paths', () => {
    expect(logPathFor('/z', 'weather')).toBe('/z/logs/ext-weather.log');
    expect(globalExtensionsDir('/z')).toBe('/z/extensions');
    expect(projectExtensionsDir('/w')).toBe('/w/.zut/extensions');
  });

  it('keeps log files inside the logs directory whatever the name', () => {
    expect(logPathFor('/z', '../../etc/passwd')).toBe('/z/logs/ext-.._.._etc_passwd.log');
    expect(logPathFor('/z', 'a\\b\nc')).toBe('/z/logs/ext-a_b_c.log');
    expect(safeFileName('..')).toBe('__');
    expect(safeFileName('')).toBe('_');
    expect(safeFileName('todo-2.x')).toBe('todo-2.x');
  });
});
