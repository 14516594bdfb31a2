/**
 * `zut ext install <path>` / `zut ext remove`: copy a local extension into an extensions directory, staged and
 * validated so a broken copy never becomes an installed extension. Nothing is built and nothing is fetched.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MANIFEST_FILE, execProblem, readManifest } from './manifest';

/** The name and final directory of an installed extension. */
export interface InstalledExtension {
  name: string;
  dir: string;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Validates an extension directory for installation: a valid manifest and, for `./x` execs, the executable. */
async function validate(dir: string, what: string): Promise<string> {
  const r = await readManifest(dir);
  if (!r.ok) throw new Error(`install: ${what}: ${r.error}`);
  if (r.manifest.exec !== undefined) {
    const problem = await execProblem(dir, r.manifest.exec);
    // Only presence matters here; an executable bit missing is a spawn-time warning, not an install failure.
    if (problem && problem.kind !== 'not-executable') throw new Error(`install: ${what}: ${problem.message}`);
  }
  return r.manifest.name;
}

/**
 * Installs the extension at `src` as `<destRoot>/<name>` (`name` from its manifest). Steps: validate `src`;
 * refuse an existing destination; copy everything except `.git` directories into `<destRoot>/.staging-<random>`
 * (symlinks copied verbatim, modes kept); validate the staged copy; rename it into place. On any failure the
 * staging directory is removed. Throws an `install: …` error naming the problem.
 */
export async function installExtension(src: string, destRoot: string): Promise<InstalledExtension> {
  const source = path.resolve(src);
  const root = path.resolve(destRoot);
  let st;
  try {
    st = await fs.stat(source);
  } catch (e) {
    throw new Error(`install: ${source}: ${(e as Error).message}`);
  }
  if (!st.isDirectory()) throw new Error(`install: ${source} is not a directory`);
  const name = await validate(source, source);
  const dest = path.join(root, name);
  if (await exists(dest)) {
    throw new Error(`install: ${dest} already exists; remove it first to reinstall ${JSON.stringify(name)}`);
  }
  await fs.mkdir(root, { recursive: true });
  const staging = path.join(root, `.staging-${randomBytes(6).toString('hex')}`);
  try {
    await fs.cp(source, staging, {
      recursive: true,
      errorOnExist: true,
      force: false,
      verbatimSymlinks: true,
      preserveTimestamps: true,
      filter: (p) => path.basename(p) !== '.git',
    });
    const stagedName = await validate(staging, `staged copy of ${source}`);
    if (stagedName !== name) throw new Error(`install: ${source} changed while it was copied`);
    if (await exists(dest)) throw new Error(`install: ${dest} already exists`);
    await fs.rename(staging, dest);
  } catch (e) {
    await fs.rm(staging, { recursive: true, force: true });
    throw e instanceof Error && e.message.startsWith('install:') ? e : new Error(`install: ${source}: ${(e as Error).message}`);
  }
  return { name, dir: dest };
}

/**
 * Deletes an installed extension directory, state included. Refuses a directory without `extension.json` (never
 * deletes something that is not an extension). A symlinked extension directory loses only the link.
 */
export async function removeExtension(dir: string): Promise<void> {
  const target = path.resolve(dir);
  let st;
  try {
    st = await fs.lstat(target);
  } catch (e) {
    throw new Error(`remove: ${target}: ${(e as Error).message}`);
  }
  if (!(await exists(path.join(target, MANIFEST_FILE)))) {
    throw new Error(`remove: ${target} has no ${MANIFEST_FILE}; not removing it`);
  }
  if (st.isSymbolicLink()) await fs.unlink(target);
  else await fs.rm(target, { recursive: true, force: true });
}
