/**
 * The warm hook host's key (issue 37, finding 6; src/hooks/warmHost.ts): everything that decides which extensions it
 * runs — the folder, the options, each `--ext`, and the extension homes as the environment names them — so a caller
 * never reaches a host that loads other homes. Through dist/hook.js: hookScope.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { warmOptionsOf, warmRendezvous } from '../../src/hooks/warmHost';

describe("the warm host's key (finding 6)", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['ZUT_HOME', 'ZOT_HOME', 'XDG_STATE_HOME', 'HOME', 'ZUT_ALLOW_PROJECT']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  const key = (values: Parameters<typeof warmOptionsOf>[0] = {}) => warmRendezvous('/w/folder', warmOptionsOf(values), '/hooks');

  it('differs with every extension home the host would load from, each --ext, and each option; not with a home that is not loaded', () => {
    delete process.env.ZUT_ALLOW_PROJECT;
    process.env.ZUT_HOME = '/a/zut';
    process.env.ZOT_HOME = '/a/zot';
    process.env.HOME = '/a/home';
    const base = key();
    expect(key()).toBe(base);
    process.env.ZUT_HOME = '/b/zut';
    expect(key()).not.toBe(base);
    delete process.env.ZUT_HOME;
    process.env.XDG_STATE_HOME = '/a';
    expect(key()).toBe(base); // $XDG_STATE_HOME/zut is /a/zut: the same home
    process.env.XDG_STATE_HOME = '/b';
    expect(key()).not.toBe(base);
    process.env.ZUT_HOME = '/a/zut';
    process.env.ZOT_HOME = '/b/zot';
    expect(key()).not.toBe(base);
    const noZot = key({ 'no-zot': true });
    process.env.ZOT_HOME = '/c/zot';
    expect(key({ 'no-zot': true })).toBe(noZot); // zot not loaded: its home decides nothing
    process.env.ZOT_HOME = '/a/zot';
    process.env.HOME = '/b/home'; // e's ~/.e
    expect(key()).not.toBe(base);
    process.env.HOME = '/a/home';
    expect(key()).toBe(base);
    expect(key({ ext: ['/x'] })).not.toBe(base);
    expect(key({ ext: ['/x', '/y'] })).not.toBe(key({ ext: ['/y', '/x'] }));
    expect(new Set([base, key({ 'allow-project': true }), key({ 'no-e': true }), key({ 'no-zot': true })]).size).toBe(4);
  });
});
