/**
 * The consent fingerprint (src/host/extensions/fingerprint.ts) on real directories: every file counts (the TS
 * template's sdk/index.js, a file no manifest names), links count by their target's content and a link cycle ends,
 * a FIFO is never opened, a top-level e file counts its siblings' files but not sibling extensions' directories,
 * and past the bounds the extension is refused rather than fingerprinted in part.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNewExtension, SDK_FILES, TS_TRANSFORM_FILE } from '../../src/host/authoring/newExtension';
import { contentFingerprint, type FingerprintTarget } from '../../src/host/extensions/fingerprint';
import { FINGERPRINT_MAX_BYTES } from '../../src/protocol/limits';
import { cleanupTemps, tempDir, writeExt } from '../helpers/hostFixtures';

afterEach(cleanupTemps);

function target(dir: string, more: Partial<FingerprintTarget> = {}): FingerprintTarget {
  return { name: 'x', dir, manifestPath: path.join(dir, 'extension.json'), folders: [], logPath: '/logs/x.log', ...more };
}

async function fp(t: FingerprintTarget): Promise<string> {
  const r = await contentFingerprint(t);
  if (!r.ok) throw new Error(r.error);
  return r.fingerprint;
}

describe('the consent fingerprint', () => {
  it("covers every file of the directory: the TS template's sdk/index.js, and a file nothing names", async () => {
    const sdkDir = tempDir('zut-sdk-');
    for (const f of [...SDK_FILES, TS_TRANSFORM_FILE]) fs.writeFileSync(path.join(sdkDir, f), `// ${f} v1\n`);
    const made = await createNewExtension({ lang: 'ts', name: 'typed', root: tempDir('zut-exts-'), sdkDir });
    const t = target(made.dir, { exec: 'node', args: ['run.js', 'main.ts'] });
    const f1 = await fp(t);
    expect(await fp(t)).toBe(f1);
    fs.writeFileSync(path.join(made.dir, 'sdk', 'index.js'), '// sdk v2: sends your files elsewhere\n');
    const f2 = await fp(t);
    expect(f2).not.toBe(f1);
    fs.writeFileSync(path.join(made.dir, 'notes.txt'), 'anything');
    expect(await fp(t)).not.toBe(f2);
    fs.renameSync(path.join(made.dir, 'notes.txt'), path.join(made.dir, 'notes2.txt'));
    expect(await fp(t)).not.toBe(f2);
  });

  it('follows links by content (a link out of the directory, a link cycle), never opens a FIFO', async () => {
    const root = tempDir();
    const dir = writeExt(root, 'x', { name: 'x', exec: './run.sh' }, { 'run.sh': '#!/bin/sh\n' });
    const outside = path.join(root, 'shared.sh');
    fs.writeFileSync(outside, 'echo 1\n');
    fs.symlinkSync(outside, path.join(dir, 'lib.sh'));
    fs.symlinkSync('..', path.join(dir, 'loop')); // x/loop → the parent, which holds x again
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const f1 = await fp(target(dir));
    fs.writeFileSync(outside, 'echo 2\n');
    expect(await fp(target(dir))).not.toBe(f1);
  });

  it('a named file outside the directory: by content inside a workspace folder, by size/mtime/inode elsewhere', async () => {
    const folder = tempDir('zut-folder-');
    const dir = writeExt(path.join(folder, '.zut', 'extensions'), 'x', { name: 'x', exec: 'sh', args: ['../../../tools/x.sh'] });
    const tool = path.join(folder, 'tools', 'x.sh');
    fs.mkdirSync(path.dirname(tool));
    fs.writeFileSync(tool, 'echo 1\n');
    const inFolder = target(dir, { exec: 'sh', args: ['../../../tools/x.sh'], folders: [folder] });
    const f1 = await fp(inFolder);
    const { atime, mtime } = fs.statSync(tool);
    fs.writeFileSync(tool, 'echo 2\n');
    fs.utimesSync(tool, atime, mtime); // same size and mtime: only the content tells
    expect(await fp(inFolder)).not.toBe(f1);
    const elsewhere = { ...inFolder, folders: [] };
    const g1 = await fp(elsewhere);
    fs.utimesSync(tool, atime, new Date(mtime.getTime() + 5000));
    expect(await fp(elsewhere)).not.toBe(g1);
  });

  it("a top-level e file counts its siblings' files, not sibling extensions' directories", async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'one.sh'), '#!/bin/sh\n. ./helpers.sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(root, 'helpers.sh'), 'x=1\n');
    fs.mkdirSync(path.join(root, 'other'));
    fs.writeFileSync(path.join(root, 'other', 'index.sh'), 'v1');
    const t = target(root, { manifestPath: path.join(root, 'one.sh'), exec: path.join(root, 'one.sh'), shallow: true });
    const f1 = await fp(t);
    fs.writeFileSync(path.join(root, 'other', 'index.sh'), 'v2');
    expect(await fp(t)).toBe(f1);
    fs.writeFileSync(path.join(root, 'helpers.sh'), 'x=2\n');
    expect(await fp(t)).not.toBe(f1);
  });

  it('past the byte bound: refused naming the extension, its directory and its log (the file is never read)', async () => {
    const dir = writeExt(tempDir(), 'x', { name: 'x', exec: './run.sh' }, { 'run.sh': '#!/bin/sh\n' });
    fs.writeFileSync(path.join(dir, 'blob.bin'), '');
    fs.truncateSync(path.join(dir, 'blob.bin'), FINGERPRINT_MAX_BYTES + 1); // sparse: reading it would show
    const r = await contentFingerprint(target(dir));
    expect(r).toEqual({ ok: false, error: expect.stringContaining(`x (${dir}) not started: its files hold more than 64 MiB`) as unknown });
    expect(!r.ok && r.error).toContain('Log: /logs/x.log');
    const small = await contentFingerprint(target(dir), { maxEntries: 2, maxBytes: FINGERPRINT_MAX_BYTES * 2 });
    expect(!small.ok && small.error).toContain('more than 2 entries');
  });
});
