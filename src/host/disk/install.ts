/**
 * `zut ext install <path>` / `zut ext remove`: copy a local extension into an extensions directory, staged and
 * validated so a broken copy never becomes an installed extension. Steps so the caller can show what will run (and
 * what would be built) before anything runs: `stageInstall` copies into `<root>/.staging-<random>` (never `.git`)
 * and returns the plan; with a builder, `build` runs it afterwards IN the staged copy (never in the source folder,
 * whose git configuration the build must not run), once the caller showed the plan and it was accepted; `commit`
 * renames the staging directory into place, `discard` removes it. Nothing is built unless asked and nothing is
 * fetched here (git sources: installSources.ts).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { copyContents, CopyRefused, isInside, type CopiedFile } from './copyTree';
import { MANIFEST_FILE, execIsRelativePath, execProblem, readManifest } from './manifest';
import type { Manifest } from '../types';

/** The name and final directory of an installed extension. */
export interface InstalledExtension {
  name: string;
  dir: string;
}

/** What an install puts on disk and will run: shown before it is committed. */
export interface InstallPlan {
  /** What the user named: a folder or a git URL. */
  source: string;
  /** The final directory (`<root>/<name>`). */
  dest: string;
  manifest: Manifest;
  /** Every file of the staged copy, sorted. */
  files: CopiedFile[];
  /** With a builder: the command that builds the executable in the staged copy (shown before it runs). */
  build?: string;
  /** Set once the build ran: the command that ran. */
  built?: string;
}

/** A copy in its staging directory, validated, not yet an installed extension. */
export interface StagedInstall {
  plan: InstallPlan;
  /** The staged copy's directory (`<root>/.staging-<random>`), exactly what `commit` renames into place. */
  staging: string;
  /** Runs the builder in the staged copy and validates the result (plan.built and plan.files updated). */
  build(): Promise<void>;
  /** Renames the staged copy into place; refuses if the destination appeared meanwhile, or a build is pending (and discards). */
  commit(): Promise<InstalledExtension>;
  /** Removes the staged copy. Idempotent. */
  discard(): Promise<void>;
}

/**
 * Builds the staged copy's executable (`--build=go`). `command` says what will run (for the plan, before it runs);
 * `run` runs it with the staged copy as its working directory, `exec` being the manifest's relative `exec`.
 */
export interface Builder {
  command(exec: string): string;
  run(stagedDir: string, exec: string): Promise<void>;
}

export interface StageOptions {
  /** How to name the source in messages and in the plan (a git URL cloned to a temporary folder). Default: its path. */
  label?: string;
  /** The builder of the executable (`--build=go`), run by `build()` in the staged copy; the source need not contain it. */
  build?: Builder;
}

/** Whether anything (a link included) is at `p`. */
export async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Validates an extension directory for installation: a valid manifest and, for `./x` execs, the executable. */
async function validate(dir: string, what: string, execRequired = true): Promise<Manifest> {
  const r = await readManifest(dir);
  if (!r.ok) throw new Error(`install: ${what}: ${r.error}`);
  if (r.manifest.exec !== undefined && execRequired) {
    const problem = await execProblem(dir, r.manifest.exec);
    // Only presence matters here; an executable bit missing is a spawn-time warning, not an install failure.
    if (problem && problem.kind !== 'not-executable') throw new Error(`install: ${what}: ${problem.message}`);
  }
  return r.manifest;
}

const fail = (what: string, e: unknown): Error =>
  e instanceof Error && e.message.startsWith('install:') ? e : new Error(`install: ${what}: ${e instanceof Error ? e.message : String(e)}`);

/**
 * Stages the extension at `src` for `<destRoot>/<name>` (`name` from its manifest). Steps: validate `src`; refuse
 * an existing destination or a destination inside the source; copy every file's content (not `.git`; a link that
 * leaves the folder is refused, naming it: copyTree.ts) into `<destRoot>/.staging-<random>`; validate the staged
 * copy (its executable only once built). Nothing runs here. On any failure the staging directory is removed.
 * Throws an `install: …` error.
 */
export async function stageInstall(src: string, destRoot: string, opts: StageOptions = {}): Promise<StagedInstall> {
  const source = path.resolve(src);
  const what = opts.label ?? source;
  const root = path.resolve(destRoot);
  let st;
  try {
    st = await fs.stat(source);
  } catch (e) {
    throw fail(what, e);
  }
  if (!st.isDirectory()) throw new Error(`install: ${what} is not a directory`);
  const manifest = await validate(source, what, opts.build === undefined);
  if (opts.build && (manifest.exec === undefined || !execIsRelativePath(manifest.exec))) {
    throw new Error(
      `install: ${what}: --build=go needs a relative exec (like "./${manifest.name}") in ${MANIFEST_FILE} to write the binary to; ` +
        `${manifest.exec === undefined ? 'it has none' : `${JSON.stringify(manifest.exec)} is a launcher resolved from PATH`}`,
    );
  }
  const dest = path.join(root, manifest.name);
  if (await exists(dest)) {
    throw new Error(`install: ${dest} already exists; remove it first to reinstall ${JSON.stringify(manifest.name)}`);
  }
  await fs.mkdir(root, { recursive: true });
  if (isInside(await fs.realpath(source), await fs.realpath(root))) throw new Error(`install: ${what}: cannot install into ${root}, which is inside it`);
  const staging = path.join(root, `.staging-${randomBytes(6).toString('hex')}`);
  const discard = () => fs.rm(staging, { recursive: true, force: true });
  try {
    const files = await copyContents(source, staging);
    const builder = opts.build;
    const staged = await validate(staging, `staged copy of ${what}`, builder === undefined);
    if (staged.name !== manifest.name) throw new Error(`install: ${what} changed while it was copied`);
    const exec = staged.exec ?? '';
    const plan: InstallPlan = { source: what, dest, manifest: staged, files, ...(builder && { build: builder.command(exec) }) };
    return {
      plan,
      staging,
      discard,
      async build() {
        if (!builder || plan.built !== undefined) return;
        try {
          await builder.run(staging, exec);
          plan.manifest = await validate(staging, `staged copy of ${what} after the build`);
          plan.files = await listFiles(staging);
          plan.built = plan.build;
        } catch (e) {
          await discard();
          throw fail(what, e);
        }
      },
      async commit() {
        try {
          if (builder && plan.built === undefined) throw new Error('install: the build did not run');
          if (await exists(dest)) throw new Error(`install: ${dest} already exists`);
          await fs.rename(staging, dest);
        } catch (e) {
          await discard();
          throw fail(what, e);
        }
        return { name: staged.name, dir: dest };
      },
    };
  } catch (e) {
    await discard();
    if (e instanceof CopyRefused) throw new Error(`install: ${what}: refused: ${e.message}`);
    throw fail(what, e);
  }
}

/** `stageInstall`, `build` (when given a builder) then `commit`: installs `src` as `<destRoot>/<name>` in one step. */
export async function installExtension(src: string, destRoot: string, opts: StageOptions = {}): Promise<InstalledExtension> {
  const staged = await stageInstall(src, destRoot, opts);
  await staged.build();
  return staged.commit();
}

/** Every regular file under `dir` (relative, `/`-separated, sorted) with its size: the plan after a build. */
async function listFiles(dir: string, rel = ''): Promise<CopiedFile[]> {
  const out: CopiedFile[] = [];
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...(await listFiles(dir, r)));
    else if (e.isFile()) {
      const st = await fs.stat(path.join(dir, r));
      out.push({ path: r, bytes: st.size, executable: (st.mode & 0o111) !== 0 });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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
