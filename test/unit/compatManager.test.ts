/**
 * zot and e extensions through the Manager (issue 13): the same trust and consent gates as zut's project
 * extensions, shadowing by zut's copy shown in the doctor report and the Extensions view row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagerOptions } from '../../src/host/api';
import { buildDoctorReport, doctorText } from '../../src/host/disk/doctor';
import { Manager } from '../../src/host/manager';
import { extensionContextValue, extensionItem } from '../../src/ui-model/extensionsModel';
import { MemoryChoices, RecordingUi, cleanupTemps, shExt, tempDir, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

/** A top-level e extension file (never started by these tests: they check the gates that come first). */
function eFile(root: string, file: string): string {
  fs.mkdirSync(root, { recursive: true });
  const p = path.join(root, file);
  fs.writeFileSync(p, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return p;
}

/** "A complete extension in shell", verbatim from e-extensions.md. */
const PING_SH = `#!/bin/sh
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9][0-9]*\\).*/\\1/p')
  case "$line" in
    *'"initialize"'*)
      printf '{"id":%s,"result":{"name":"ping","version":"1","commands":[{"name":"ping","description":"are you there"}]}}\\n' "$id" ;;
    *'"command"'*)
      printf '{"id":%s,"result":{"notice":"pong"}}\\n' "$id" ;;
    *'"shutdown"'*) exit 0 ;;
  esac
done
`;

function setup(opts: Partial<ManagerOptions> = {}) {
  const z = zutHome();
  const zot = tempDir('zot-home-');
  const eHome = tempDir('e-home-');
  const project = tempDir('zut-project-');
  const m = new Manager({
    folders: [project],
    zutHome: z.home,
    zot: { home: zot },
    e: { home: eHome },
    ui: new RecordingUi(),
    hostVersion: '9.9.9',
    ...opts,
  });
  keepManager(m);
  const state = (name: string, eco?: string) => m.extensions().find((e) => e.name === name && e.ecosystem === eco)?.state;
  return {
    m,
    state,
    zutExts: z.exts,
    zotExts: path.join(zot, 'extensions'),
    eExts: path.join(eHome, 'extensions'),
    projZot: path.join(project, '.zot', 'extensions'),
    projE: path.join(project, '.e', 'extensions'),
  };
}

describe('sibling ecosystems through the Manager', () => {
  it('an untrusted workspace blocks project zot and e extensions; a global zot extension runs', async () => {
    const s = setup({ isTrusted: () => false });
    shExt(s.projZot, 'localzot');
    eFile(s.projE, 'locale.mjs');
    shExt(s.zotExts, 'globalzot');
    await s.m.start();
    expect([s.state('localzot', 'zot'), s.state('locale', 'e'), s.state('globalzot', 'zot')]).toEqual(['blocked', 'blocked', 'running']);
    expect(s.m.extensions().find((e) => e.name === 'locale')!.pid).toBeUndefined();
  });

  it('consent "ask": project zot and e extensions wait (nothing spawned); each top-level e file is asked for on its own', async () => {
    const choices = new MemoryChoices();
    const s = setup({ consent: { mode: () => 'ask', choices } });
    shExt(s.projZot, 'pz');
    eFile(s.projE, 'one.sh');
    eFile(s.projE, 'two.sh');
    shExt(s.zotExts, 'gz');
    const asked: string[][] = [];
    s.m.onDidRequestConsent((infos) => asked.push(infos.map((i) => i.name)));
    await s.m.start();
    expect([s.state('pz', 'zot'), s.state('one', 'e'), s.state('two', 'e'), s.state('gz', 'zot')]).toEqual(['consent', 'consent', 'consent', 'running']);
    expect(asked).toEqual([['pz', 'one', 'two']]);
    expect(s.m.extensions().filter((e) => e.state === 'consent').every((e) => e.pid === undefined)).toBe(true);

    await s.m.answerConsent(['pz'], 'allow');
    expect(s.state('pz', 'zot')).toBe('running');
    await s.m.answerConsent(['one'], 'deny');
    expect([s.state('one', 'e'), s.state('two', 'e')]).toEqual(['denied', 'consent']);
    // Remembered per entry file, not per the directory the two files share.
    expect([...choices.values.keys()].filter((k) => k.startsWith('zut.consent:')).sort()).toEqual(
      [`zut.consent:${path.join(s.projZot, 'pz')}`, `zut.consent:${path.join(s.projE, 'one.sh')}`].sort(),
    );
  });

  it("a zot or e copy of a zut extension's name is shadowed: doctor and the Extensions view row say so", async () => {
    const s = setup();
    shExt(s.zutExts, 'todo');
    shExt(s.projZot, 'todo');
    eFile(s.eExts, 'todo.py');
    await s.m.start();
    const infos = s.m.extensions();
    expect(infos.map((e) => [e.name, e.ecosystem, e.state, e.shadowedBy])).toEqual([
      ['todo', undefined, 'running', undefined],
      ['todo', 'zot', 'shadowed', path.join(s.zutExts, 'todo')],
      ['todo', 'e', 'shadowed', path.join(s.zutExts, 'todo')],
    ]);
    const text = doctorText(buildDoctorReport(infos));
    expect(text).toContain(`todo [project, zot] shadowed\n  dir: ${path.join(s.projZot, 'todo')}\n  shadowed by: ${path.join(s.zutExts, 'todo')}`);
    expect(text).toContain(`todo [global, e] shadowed\n  dir: ${s.eExts}\n  entry: ${path.join(s.eExts, 'todo.py')}\n  shadowed by: ${path.join(s.zutExts, 'todo')}`);
    const row = extensionItem(infos[2]!);
    expect(row.description).toBe('shadowed · global · e');
    expect(row.tooltip).toContain(`Entry point: ${path.join(s.eExts, 'todo.py')}`);
    expect(row.tooltip).toContain(`Shadowed by: ${path.join(s.zutExts, 'todo')}`);
    expect(row.id).not.toBe(extensionItem({ ...infos[2]!, manifestPath: path.join(s.eExts, 'other.py') }).id);
    expect(extensionContextValue(infos[2]!)).toMatch(/\.nomanifest$/);
    expect(extensionItem(infos[1]!).description).toBe('shadowed · project · zot');
  });

  it("the spec's ping.sh runs as a top-level e file; a change to it restarts it (the watcher path)", async () => {
    const s = setup();
    const ping = path.join(s.eExts, 'ping.sh');
    fs.mkdirSync(s.eExts, { recursive: true });
    fs.writeFileSync(ping, PING_SH, { mode: 0o755 });
    const before = (Date.now() - 10_000.5) / 1000; // copied in before the host started (sub-second, as on ext4)
    fs.utimesSync(ping, before, before);
    await s.m.start();
    expect(await s.m.invokeCommand('ping', '')).toMatchObject({ ext: 'ping', action: 'display', display: 'pong' });
    const pid = s.m.extensions()[0]!.pid;
    // A late watcher event for the file as it was when the process started: nothing to restart.
    expect(await s.m.applyChanges([ping])).toEqual({ reloaded: false, restarted: [] });
    expect(s.m.extensions()[0]!.pid).toBe(pid);
    fs.appendFileSync(ping, '# edited\n');
    expect(await s.m.applyChanges([ping])).toEqual({ reloaded: false, restarted: ['ping'] });
    expect(s.m.extensions()[0]).toMatchObject({ state: 'running' });
    expect(s.m.extensions()[0]!.pid).not.toBe(pid);
  });

  it('an e extension has no manifest to enable or disable', async () => {
    const s = setup();
    eFile(s.eExts, 'solo.sh');
    await s.m.start();
    await expect(s.m.setEnabled('solo', false)).rejects.toThrow(/solo is an e extension .*no manifest to enable or disable/);
  });
});
