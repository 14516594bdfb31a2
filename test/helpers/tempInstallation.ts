/** A fresh Installation for agent set-up tests: a temporary root with an empty home and workspace (nothing of the user's). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Installation } from '../../src/agentSetup/hookInstall';

/** Made under the system's temp directory; its root is pushed onto `roots` for the caller to remove. */
export function tempInstallation(prefix: string, roots: string[], platform: NodeJS.Platform = process.platform): Installation {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(root);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(workspace);
  return { node: process.execPath, cli: path.join(root, 'dist', 'cli.js'), launcher: path.join(root, 'bin', 'zut-host'), home, workspace, platform };
}
