/**
 * `zut-host ext install [--dir DIR] [--build=go [--yes]] [--dry-run] PATH|GIT-URL`: zut's `zut ext install`. A
 * folder is copied, a URL is cloned (`git clone --depth 1`); both are staged and validated, and what the extension
 * will run (manifest exec/args) and its files are printed before the staged copy becomes the installed one.
 * `--dry-run` stops there, having run nothing. Never builds unless `--build=go` (local folders only, as zut): the plan
 * says the build command first, the build runs only once it is accepted (asked on a terminal; `--yes` otherwise),
 * in the staged copy, its output shown on stderr. Ctrl+C ends git/go, removes the staged copy and exits 130.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { stageInstall, type StagedInstall } from '../host/disk/install';
import { formatBytes, planText } from '../host/disk/installPlan';
import { goBuilder, InstallAborted, isGitUrl, stageFromGit } from '../host/disk/installSources';
import { globalExtensionsDir, resolveZutHome } from '../host/disk/paths';
import { EXIT, UsageError, write } from './common';
import { oneName, type ExtValues } from './extCommon';

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Asks on the terminal whether to build and install; false when stdin is not a terminal (nobody to ask). */
async function accepted(signal: AbortSignal): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question('Build it and install? [y/N] ', { signal })).trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

export async function install(v: ExtValues, positionals: string[]): Promise<number> {
  const source = oneName('install', positionals, { needs: 'a PATH or a GIT-URL', one: 'PATH or GIT-URL' });
  if (v.build !== undefined && v.build !== 'go') throw new UsageError(`--build=${v.build}: the only builder is --build=go`);
  const root = path.resolve(v.dir ?? globalExtensionsDir(resolveZutHome()));
  const local = await isDirectory(source);
  if (!local && !isGitUrl(source)) {
    throw new Error(`install: ${path.resolve(source)} is not a folder${source.includes(':') ? '' : ' (and not a git URL)'}`);
  }
  if (!local && v.build !== undefined) throw new UsageError('--build=go builds a local folder; clone remote source locally before building it');

  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let staged: StagedInstall | undefined;
  try {
    staged = local
      ? await stageInstall(source, root, { ...(v.build === 'go' && { build: goBuilder({ signal: abort.signal, onOutput: (c) => process.stderr.write(c) }) }) })
      : await stageFromGit(source, root, { signal: abort.signal });
    await write(process.stdout, planText(staged.plan));
    if (abort.signal.aborted) throw new InstallAborted('install: aborted');
    if (v['dry-run']) {
      await staged.discard();
      await write(process.stdout, `dry run: nothing ${staged.plan.build !== undefined ? 'built, nothing ' : ''}installed\n`);
      return EXIT.ok;
    }
    if (staged.plan.build !== undefined) {
      if (!(v.yes || (await accepted(abort.signal)))) {
        await staged.discard();
        await write(process.stderr, `zut-host: not built, nothing installed: the plan was not accepted${process.stdin.isTTY ? '' : ' (not on a terminal: pass --yes to accept it)'}\n`);
        return EXIT.error;
      }
      await staged.build();
      const exec = path.posix.normalize((staged.plan.manifest.exec ?? '').replaceAll('\\', '/'));
      const out = staged.plan.files.find((f) => f.path === exec);
      await write(process.stdout, `built: ${exec}${out ? ` (${formatBytes(out.bytes)})` : ''}\n`);
    }
    const done = await staged.commit();
    await write(process.stdout, `installed ${done.name} into ${done.dir}\n`);
    return EXIT.ok;
  } catch (e) {
    await staged?.discard();
    if (e instanceof InstallAborted || abort.signal.aborted) {
      await write(process.stderr, 'zut-host: install interrupted; nothing installed\n');
      return EXIT.interrupted;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
