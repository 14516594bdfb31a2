/** Temp directories for tests: `tempDir()` makes one, `cleanupTemps()` (in an afterEach/afterAll) removes them all. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const temps: string[] = [];

/** A fresh directory under the OS temp dir (its real path: macOS's /tmp is a symlink), removed by `cleanupTemps`. */
export function tempDir(prefix = 'zut-test-'): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(d);
  return d;
}

/** Removes every directory `tempDir` made so far. */
export function cleanupTemps(): void {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
