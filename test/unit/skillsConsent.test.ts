/**
 * A project extension's bundled skills follow the same trust and consent as its code (issue 31), through the real
 * Manager and a real child: none is offered while it waits for consent; once allowed, its skills are; a changed
 * SKILL.md (a file the VS Code watcher watches: manifestSignature.ts `watchedFiles`) restarts it, and the changed
 * content waits for a new answer before any agent is offered it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activeSkills } from '../../src/host/chat/skills';
import { watchedFiles } from '../../src/host/disk/manifestSignature';
import { MemoryChoices, cleanupTemps, managerFixture, stopManagers, writeExt } from '../helpers/hostFixtures';

afterEach(async () => {
  await stopManagers();
  cleanupTemps();
});

const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name: 'teach', version: '1.0.0', capabilities: [] });
const RUN = `#!/bin/sh\nprintf '%s\\n' '${hello}' '{"type":"ready"}'\nwhile IFS= read -r l; do case "$l" in *'"shutdown"'*) exit 0;; esac; done\n`;
const skill = (description: string) => `---\nname: tips\ndescription: ${description}\n---\nDo it like this.\n`;

describe("a project extension's skills", () => {
  it('are offered only once its code may run; a changed SKILL.md restarts it and waits for consent again', async () => {
    const choices = new MemoryChoices();
    const s = managerFixture({ hostVersion: '1.0.0', autoRestart: false, consent: { mode: () => 'ask', choices } }, 'zut-skill-consent-');
    const m = s.make();
    const dir = writeExt(s.projectExts, 'teach', { name: 'teach', exec: './run.sh', skills: ['skills'] }, { 'run.sh': RUN, 'skills/tips/SKILL.md': skill('first tips') });
    const info = () => m.extensions().find((e) => e.name === 'teach')!;
    await m.start();
    expect(info().state).toBe('consent');
    expect(activeSkills(m)).toEqual([]);
    await m.answerConsent(['teach'], 'allow');
    expect(activeSkills(m)).toMatchObject([{ name: 'tips', description: 'first tips', ext: 'teach' }]);

    const file = fs.realpathSync(path.join(dir, 'skills', 'tips', 'SKILL.md'));
    expect(watchedFiles(info())).toContain(file);
    fs.writeFileSync(file, skill('changed tips'));
    expect(await m.applyChanges([file])).toEqual({ reloaded: false, restarted: ['teach'] });
    expect(info().state).toBe('consent');
    expect(activeSkills(m)).toEqual([]);
    await m.answerConsent(['teach'], 'allow');
    expect(activeSkills(m)).toMatchObject([{ name: 'tips', description: 'changed tips' }]);
  });
});
