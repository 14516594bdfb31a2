import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { execIsRelativePath, readManifest, resolveExec, setManifestEnabled } from '../../src/host/disk/manifest';

let tmp: string;
beforeEach(async () => {
  tmp = tempDir('zut-manifest-');
});
afterEach(cleanupTemps);

async function ext(files: Record<string, string>, mode?: Record<string, number>): Promise<string> {
  const dir = path.join(tmp, 'ext');
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content, { mode: mode?.[rel] ?? 0o644 });
  }
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

const manifest = (m: unknown) => ({ 'extension.json': JSON.stringify(m) });

describe('readManifest', () => {
  it('reads every field and defaults args, skills and enabled', async () => {
    const dir = await ext({
      'extension.json': JSON.stringify({
        name: 'weather',
        version: '1.0.0',
        exec: './weather',
        args: ['--mode', 'daemon'],
        language: 'go',
        description: 'current weather',
        skills: ['skills'],
        enabled: false,
        homepage: 'unknown fields are tolerated',
      }),
      weather: '#!/bin/sh\n',
    }, { weather: 0o755 });
    const r = await readManifest(dir);
    expect(r).toEqual({
      ok: true,
      themeOnly: false,
      diagnostics: [],
      manifest: {
        name: 'weather',
        version: '1.0.0',
        exec: './weather',
        args: ['--mode', 'daemon'],
        language: 'go',
        description: 'current weather',
        skills: ['skills'],
        enabled: false,
      },
    });
    const min = await readManifest(await ext(manifest({ name: 'w', exec: 'node', args: null })));
    expect(min).toEqual({ ok: true, themeOnly: false, diagnostics: [], manifest: { name: 'w', exec: 'node', args: [], skills: [], enabled: true } });
  });

  it('reports a missing manifest as "read manifest"', async () => {
    const r = await readManifest(await ext({}));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^read manifest: ENOENT: no such file or directory, open '.*extension\.json'$/);
  });

  it('reports an unreadable manifest (a directory) as "read manifest"', async () => {
    const dir = await ext({});
    await fs.mkdir(path.join(dir, 'extension.json'));
    const r = await readManifest(dir);
    expect(!r.ok && r.error).toMatch(/^read manifest: .*extension\.json: not a regular file \(refused\)$/);
  });

  it('reports invalid JSON and non-objects as "parse manifest"', async () => {
    let r = await readManifest(await ext({ 'extension.json': '{"name": "x",' }));
    expect(!r.ok && r.error).toMatch(/^parse manifest: .*extension\.json: .*JSON/);
    r = await readManifest(await ext({ 'extension.json': '["x"]' }));
    expect(!r.ok && r.error).toMatch(/^parse manifest: .*: expected a JSON object, got array$/);
  });

  it('names the field with the wrong type', async () => {
    const cases: [unknown, string][] = [
      [{ name: 5, exec: 'x' }, 'field "name": expected string, got number'],
      [{ name: 'a', version: 1, exec: 'x' }, 'field "version": expected string, got number'],
      [{ name: 'a', exec: ['x'] }, 'field "exec": expected string, got array'],
      [{ name: 'a', exec: 'x', args: '--flag' }, 'field "args": expected array, got string'],
      [{ name: 'a', exec: 'x', args: ['ok', 2] }, 'field "args[1]": expected string, got number'],
      [{ name: 'a', exec: 'x', language: {} }, 'field "language": expected string, got object'],
      [{ name: 'a', exec: 'x', description: true }, 'field "description": expected string, got boolean'],
      [{ name: 'a', exec: 'x', skills: 'skills' }, 'field "skills": expected array, got string'],
      [{ name: 'a', exec: 'x', enabled: 'yes' }, 'field "enabled": expected boolean, got string'],
    ];
    for (const [m, msg] of cases) {
      const r = await readManifest(await ext(manifest(m)));
      expect(!r.ok && r.error, JSON.stringify(m)).toMatch(new RegExp(`^parse manifest: .*extension\\.json: ${msg.replace(/[[\]]/g, '\\$&')}$`));
    }
  });

  it('requires a name', async () => {
    for (const m of [{ exec: 'x' }, { name: '', exec: 'x' }, { name: '  ', exec: 'x' }, { name: null, exec: 'x' }]) {
      expect(await readManifest(await ext(manifest(m)))).toEqual({ ok: false, error: 'manifest: name is required' });
    }
  });

  it('refuses names that could leave a directory', async () => {
    for (const name of ['../evil', 'a/b', 'a\\b', '..', 'a\nb']) {
      const r = await readManifest(await ext(manifest({ name, exec: 'x' })));
      expect(!r.ok && r.error).toMatch(/^manifest: invalid name .*must not contain path separators/);
    }
  });

  it('requires exec unless the extension ships a theme', async () => {
    expect(await readManifest(await ext(manifest({ name: 'a' })))).toEqual({ ok: false, error: 'manifest: exec is required' });
    expect(await readManifest(await ext(manifest({ name: 'a', exec: '', skills: ['s'] })))).toEqual({
      ok: false,
      error: 'manifest: exec is required',
    });
  });

  it('accepts theme-only extensions with theme.json or themes/theme.json (skills allowed)', async () => {
    const a = await readManifest(await ext({ ...manifest({ name: 'a' }), 'theme.json': '{}' }));
    expect(a).toMatchObject({ ok: true, themeOnly: true, manifest: { name: 'a' } });
    await fs.rm(path.join(tmp, 'ext'), { recursive: true });
    const b = await readManifest(await ext({ ...manifest({ name: 'b', skills: ['skills'] }), 'themes/theme.json': '{}' }));
    expect(b).toMatchObject({ ok: true, themeOnly: true, manifest: { name: 'b', skills: ['skills'] } });
    await fs.rm(path.join(tmp, 'ext'), { recursive: true });
    // A theme next to an exec is a normal protocol extension that also has a theme.
    const c = await readManifest(await ext({ ...manifest({ name: 'c', exec: 'node' }), 'theme.json': '{}' }));
    expect(c).toMatchObject({ ok: true, themeOnly: false });
  });

  it('warns (not fails) about a missing or non-executable relative exec', async () => {
    let r = await readManifest(await ext(manifest({ name: 'a', exec: './bin/a' })));
    expect(r.ok && r.diagnostics).toEqual([expect.stringMatching(/^exec "\.\/bin\/a" not found in /)]);
    await fs.rm(path.join(tmp, 'ext'), { recursive: true });
    r = await readManifest(await ext({ ...manifest({ name: 'a', exec: './a.py' }), 'a.py': '' }, { 'a.py': 0o644 }));
    expect(r.ok && r.diagnostics).toEqual(['exec "./a.py" is not executable (chmod +x it)']);
  });
});

describe('setManifestEnabled', () => {
  it('rewrites only enabled, every other byte as written (fields, order, layout), the mode kept', async () => {
    const written = '{\n  "name": "a",\n  "enabled": true,\n  "exec": "./a",\n  "x-custom": {"k": [1, 2]}\n}\n';
    const dir = await ext({ 'extension.json': written });
    await fs.chmod(path.join(dir, 'extension.json'), 0o600);
    await setManifestEnabled(dir, false);
    const text = await fs.readFile(path.join(dir, 'extension.json'), 'utf8');
    expect(text).toBe(written.replace('"enabled": true', '"enabled": false'));
    expect((await fs.stat(path.join(dir, 'extension.json'))).mode & 0o777).toBe(0o600);
    await setManifestEnabled(dir, true);
    expect(JSON.parse(await fs.readFile(path.join(dir, 'extension.json'), 'utf8'))).toEqual({
      name: 'a',
      enabled: true,
      exec: './a',
      'x-custom': { k: [1, 2] },
    });
    expect((await fs.readdir(dir)).sort()).toEqual(['extension.json']); // no temp file left behind
  });

  it('appends enabled when absent', async () => {
    const dir = await ext(manifest({ name: 'a', exec: 'x' }));
    await setManifestEnabled(dir, false);
    expect(Object.keys(JSON.parse(await fs.readFile(path.join(dir, 'extension.json'), 'utf8')))).toEqual(['name', 'exec', 'enabled']);
    const r = await readManifest(dir);
    expect(r.ok && r.manifest.enabled).toBe(false);
  });

  it('writes through a symlinked manifest, keeping the link', async () => {
    const dir = await ext({ 'real.json': JSON.stringify({ name: 'a', exec: 'x' }) });
    await fs.symlink('real.json', path.join(dir, 'extension.json'));
    await setManifestEnabled(dir, false);
    expect((await fs.lstat(path.join(dir, 'extension.json'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(dir, 'real.json'), 'utf8')).enabled).toBe(false);
  });

  it('fails with zut errors on a missing or broken manifest and leaves it untouched', async () => {
    const dir = await ext({});
    await expect(setManifestEnabled(dir, false)).rejects.toThrow(/^read manifest: /);
    await fs.writeFile(path.join(dir, 'extension.json'), '{broken');
    await expect(setManifestEnabled(dir, false)).rejects.toThrow(/^parse manifest: /);
    expect(await fs.readFile(path.join(dir, 'extension.json'), 'utf8')).toBe('{broken');
  });
});

describe('exec: one rule for a relative path', () => {
  const dir = path.join(path.sep, 'exts', 'hello');
  it('a path with a separator is relative to the extension directory; a bare name and an absolute path are not', () => {
    const cases: [string, boolean][] = [
      ['./hello', true], ['../shared/run', true], ['bin/hello', true], ['bin\\hello', true],
      ['node', false], ['python3', false], ['/usr/bin/node', false], ['C:\\tools\\run.exe', false],
    ];
    for (const [exec, relative] of cases) expect(execIsRelativePath(exec), exec).toBe(relative);
  });

  it('resolveExec (what is spawned) follows it', () => {
    expect(resolveExec(dir, './hello')).toBe(path.join(dir, 'hello'));
    expect(resolveExec(dir, 'bin/hello')).toBe(path.join(dir, 'bin', 'hello'));
    expect(resolveExec(dir, '../shared/run')).toBe(path.join(path.dirname(dir), 'shared', 'run'));
    expect(resolveExec(dir, 'node')).toBe('node');
    expect(resolveExec(dir, '/usr/bin/node')).toBe('/usr/bin/node');
  });
});
