/** host/disk/trash.ts `moveToTrash` with the caller's own trash (VS Code's "Remove"): used, or the fallback folder. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moveToTrash } from '../../src/host/disk/trash';
import { cleanupTemps, tempDir } from '../helpers/temp';

afterAll(cleanupTemps);

function extension(root: string): string {
  const dir = path.join(root, 'one');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'extension.json'), '{}');
  return dir;
}

describe('moveToTrash with the caller\'s trash', () => {
  it('hands the folder to that trash', async () => {
    const root = tempDir();
    const dir = extension(root);
    const handed: string[] = [];
    const r = await moveToTrash(dir, { zutHome: path.join(root, 'home'), trash: (t) => Promise.resolve(void handed.push(t)) });
    expect(r).toEqual({ kind: 'trash', path: dir });
    expect(handed).toEqual([dir]);
  });

  it('moves it into <zutHome>/trash when that trash fails, and refuses a folder without extension.json', async () => {
    const root = tempDir();
    const dir = extension(root);
    const r = await moveToTrash(dir, { zutHome: path.join(root, 'home'), trash: () => Promise.reject(new Error('no trash here')) });
    expect(r.kind).toBe('fallback');
    expect(path.dirname(r.path)).toBe(path.join(root, 'home', 'trash'));
    expect(fs.existsSync(path.join(r.path, 'extension.json'))).toBe(true);
    expect(fs.existsSync(dir)).toBe(false);
    fs.mkdirSync(path.join(root, 'plain'));
    await expect(moveToTrash(path.join(root, 'plain'), { zutHome: root, trash: () => Promise.resolve() })).rejects.toThrow(/has no extension\.json/);
  });
});
