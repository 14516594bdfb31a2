import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { loadSkills, parseFrontmatter } from '../../src/host/disk/skills';
import { readSkillFile } from '../../src/host/disk/skillFiles';

let tmp: string;
let dir: string;
beforeEach(async () => {
  tmp = tempDir('zut-skills-');
  dir = path.join(tmp, 'ext');
  await fs.mkdir(dir);
});
afterEach(cleanupTemps);

async function write(rel: string, content: string): Promise<string> {
  const p = path.join(dir, rel);
  await fs.mkdir(path.dirname(p), { recursive: true });
  await fs.writeFile(p, content);
  return p;
}

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: "${description}"\n---\n# body\n`;

describe('parseFrontmatter', () => {
  it('reads key: value lines between --- fences, stripping quotes', () => {
    expect(parseFrontmatter('---\nname: deploy\ndescription: \'Ship it: now\'\nbad line\n---\nname: body')).toEqual({
      name: 'deploy',
      description: 'Ship it: now',
    });
  });
  it('ignores text without frontmatter or without a closing fence', () => {
    expect(parseFrontmatter('name: x\n')).toEqual({});
    expect(parseFrontmatter('---\nname: x\n')).toEqual({});
  });
});

describe('loadSkills', () => {
  it('loads a skills directory of <name>/SKILL.md, sorted, names defaulting to the directory', async () => {
    const b = await write('skills/beta/SKILL.md', skill('beta-skill', 'B'));
    const a = await write('skills/alpha/SKILL.md', '# no frontmatter\n');
    await write('skills/notes.txt', 'ignored');
    await fs.mkdir(path.join(dir, 'skills', 'empty'));
    const r = await loadSkills(dir, ['skills']);
    expect(r).toEqual({
      diagnostics: [],
      skills: [
        { name: 'alpha', path: a },
        { name: 'beta-skill', description: 'B', path: b },
      ],
    });
  });

  it('loads a direct SKILL.md and a directory that is itself a skill', async () => {
    const direct = await write('one/SKILL.md', skill('first', 'one'));
    const own = await write('two/SKILL.md', '---\ndescription: two\n---\n');
    const r = await loadSkills(dir, ['one/SKILL.md', './two']);
    expect(r).toEqual({
      diagnostics: [],
      skills: [
        { name: 'first', description: 'one', path: direct },
        { name: 'two', description: 'two', path: own },
      ],
    });
  });

  it('rejects absolute paths, .. escapes and missing paths, keeping the good ones', async () => {
    await fs.mkdir(path.join(tmp, 'outside', 'evil'), { recursive: true });
    await fs.writeFile(path.join(tmp, 'outside', 'evil', 'SKILL.md'), skill('evil', 'x'));
    const good = await write('skills/ok/SKILL.md', skill('ok', 'fine'));
    const r = await loadSkills(dir, [path.join(tmp, 'outside'), '../outside', 'skills/../../outside/evil/SKILL.md', 'nope', 'skills']);
    expect(r.skills).toEqual([{ name: 'ok', description: 'fine', path: good }]);
    expect(r.diagnostics).toEqual([
      `skills: ${JSON.stringify(path.join(tmp, 'outside'))}: path must be relative to the extension directory`,
      'skills: "../outside": path escapes the extension directory',
      'skills: "skills/../../outside/evil/SKILL.md": path escapes the extension directory',
      'skills: "nope": not found',
    ]);
  });

  it('rejects a declared path that is a symlink leaving the directory', async () => {
    await fs.mkdir(path.join(tmp, 'outside', 'evil'), { recursive: true });
    await fs.writeFile(path.join(tmp, 'outside', 'evil', 'SKILL.md'), skill('evil', 'x'));
    await fs.symlink(path.join(tmp, 'outside'), path.join(dir, 'skills'));
    const r = await loadSkills(dir, ['skills']);
    expect(r).toEqual({ skills: [], diagnostics: ['skills: "skills": resolves outside the extension directory (symlink)'] });
  });

  it('rejects a skill subdirectory symlinked outside, even inside a valid skills dir', async () => {
    await fs.mkdir(path.join(tmp, 'outside', 'evil'), { recursive: true });
    await fs.writeFile(path.join(tmp, 'outside', 'evil', 'SKILL.md'), skill('evil', 'x'));
    const ok = await write('skills/ok/SKILL.md', skill('ok', 'fine'));
    await fs.symlink(path.join(tmp, 'outside', 'evil'), path.join(dir, 'skills', 'evil'));
    const r = await loadSkills(dir, ['skills']);
    expect(r.skills).toEqual([{ name: 'ok', description: 'fine', path: ok }]);
    expect(r.diagnostics).toEqual([`skills: "skills": ${path.join('skills', 'evil', 'SKILL.md')} resolves outside the extension directory`]);
  });

  it('accepts symlinks that stay inside, and an extension dir that is itself reached through a symlink', async () => {
    const real = await write('real/x/SKILL.md', skill('x', 'inside'));
    await fs.symlink(path.join(dir, 'real'), path.join(dir, 'skills'));
    await fs.symlink(dir, path.join(tmp, 'link'));
    const r = await loadSkills(path.join(tmp, 'link'), ['skills']);
    expect(r).toEqual({ diagnostics: [], skills: [{ name: 'x', description: 'inside', path: real }] });
  });

  it('reports a path with no SKILL.md, a non-SKILL.md file and duplicate names', async () => {
    await write('empty/readme.md', '');
    await write('notes.md', '');
    const first = await write('a/one/SKILL.md', skill('dup', '1'));
    await write('b/two/SKILL.md', skill('dup', '2'));
    const r = await loadSkills(dir, ['empty', 'notes.md', 'a', 'b']);
    expect(r.skills).toEqual([{ name: 'dup', description: '1', path: first }]);
    expect(r.diagnostics).toEqual([
      'skills: "empty": no SKILL.md found',
      'skills: "notes.md": not a SKILL.md file',
      expect.stringMatching(/^skills: duplicate skill name "dup" in .*b\/two\/SKILL\.md \(keeping .*a\/one\/SKILL\.md\)$/),
    ]);
  });
});

describe('readSkillFile', () => {
  const at = (rel: string) => ({ dir: path.join(dir, rel), extDir: dir });

  it('reads a file of the skill folder as text; a file past the limit is cut on a character boundary and says so', async () => {
    await write('skills/s/SKILL.md', '# é\n');
    expect(await readSkillFile(at('skills/s'), 'SKILL.md')).toEqual({ kind: 'text', text: '# é\n', truncated: false });
    // "abé" is 4 bytes: a 3-byte limit falls inside é, which is dropped rather than half-decoded.
    await write('skills/s/cut.md', 'abé');
    expect(await readSkillFile(at('skills/s'), 'cut.md', 3)).toEqual({ kind: 'text', text: 'ab', truncated: true });
    expect(await readSkillFile(at('skills/s'), 'cut.md', 4)).toEqual({ kind: 'text', text: 'abé', truncated: false });
    await fs.writeFile(path.join(dir, 'skills/s/logo.bin'), Buffer.from([0xff, 0x00, 0xfe]));
    expect(await readSkillFile(at('skills/s'), 'logo.bin')).toEqual({ kind: 'bytes', data: Buffer.from([0xff, 0x00, 0xfe]), truncated: false });
  });

  it('refuses paths out of the folder, symlinks leading out, directories and FIFOs (before reading a byte)', async () => {
    const folder = path.join(dir, 'skills/s');
    await write('skills/s/SKILL.md', 'x');
    await write('secret.txt', 'token');
    await fs.symlink(path.join(dir, 'secret.txt'), path.join(folder, 'link.txt'));
    await fs.mkdir(path.join(folder, 'sub'));
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    for (const [rel, why] of [
      ['../../secret.txt', /not a path inside the skill folder/],
      [path.join(dir, 'secret.txt'), /not a path inside the skill folder/],
      ['link.txt', /not a file inside the skill folder/],
      ['sub', /not a regular file/],
      ['pipe', /not a regular file/],
      ['missing.md', /not found/],
    ] as const) {
      await expect(readSkillFile({ dir: folder, extDir: dir }, rel), rel).rejects.toThrow(why);
    }
  });

  it('checks the folders as they resolve at each read: a skill folder turned into a link out of its extension is refused', async () => {
    await write('skills/s/SKILL.md', 'x');
    expect(await readSkillFile(at('skills/s'), 'SKILL.md')).toMatchObject({ text: 'x' });
    const elsewhere = path.join(tmp, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.writeFile(path.join(elsewhere, 'SKILL.md'), 'not the skill');
    await fs.writeFile(path.join(elsewhere, 'id_rsa'), 'key');
    await fs.rm(path.join(dir, 'skills/s'), { recursive: true });
    await fs.symlink(elsewhere, path.join(dir, 'skills/s'));
    for (const rel of ['SKILL.md', 'id_rsa']) {
      await expect(readSkillFile(at('skills/s'), rel), rel).rejects.toThrow(/the skill folder now resolves to .*, outside its extension/);
    }
    // A link that stays inside the extension is still a folder of it.
    await write('other/SKILL.md', 'inside');
    await fs.rm(path.join(dir, 'skills/s'));
    await fs.symlink(path.join(dir, 'other'), path.join(dir, 'skills/s'));
    expect(await readSkillFile(at('skills/s'), 'SKILL.md')).toMatchObject({ text: 'inside' });
    await fs.rm(dir, { recursive: true });
    await expect(readSkillFile(at('skills/s'), 'SKILL.md')).rejects.toThrow(/the skill folder or its extension is gone/);
  });
});
