/**
 * Where an install comes from besides a local folder, and the one build zut offers: a git URL is cloned
 * shallowly (`git clone --depth 1`) into a temporary folder and installed from there exactly like a local folder
 * (install.ts: the same validation and link rules, the clone's `.git` not copied, nothing left behind on failure);
 * git gets `protocol.allow=never` but for the schemes we accept (https, ssh, file, git), on its command line and in
 * `GIT_ALLOW_PROTOCOL` (which wins over any configuration of the user's), so `ext::` or `fd::` run nothing whatever
 * the user's git allows. `--build=go` runs `go build -trimpath -buildvcs=false` in the STAGED copy (no `.git`: the
 * source folder's git configuration never runs) with `GOTOOLCHAIN=local` (no toolchain download runs) and
 * `GOWORK=off`, writing the manifest's relative `exec` (zut-extensions.md, "Built-in extensions"). git and go run in
 * their own process group, are never asked to prompt, and are killed on timeout or abort.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GIT_CLONE_TIMEOUT_MS, GO_BUILD_TIMEOUT_MS, TOOL_OUTPUT_TAIL_BYTES } from '../../protocol/limits';
import { stageInstall, type Builder, type StagedInstall, type StageOptions } from './install';

/**
 * Whether `source` is a git URL rather than a folder: `scheme://…` (https, ssh, git, file, …) or git's scp-like
 * `[user@]host:path` (no slash before the first colon; a Windows drive letter is a path). Callers check for an
 * existing folder first: a folder always wins.
 */
export function isGitUrl(source: string): boolean {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(source)) return true;
  if (/^[a-zA-Z]:[\\/]/.test(source)) return false;
  return /^([^@/:\s]+@)?[^@/:\s]+:[^\s]/.test(source);
}

/** The URL schemes `ext install` lets git use. */
const GIT_SCHEMES = ['https', 'ssh', 'file', 'git'] as const;

/** git's options allowing only GIT_SCHEMES, whatever the user's configuration says. */
const GIT_PROTOCOLS_ONLY = ['-c', 'protocol.allow=never', ...GIT_SCHEMES.flatMap((s) => ['-c', `protocol.${s}.allow=always`])];

/** What a build's environment gets: no toolchain download (`go.mod`'s `toolchain` line runs nothing), no go.work above. */
const GO_ENV = { GOTOOLCHAIN: 'local', GOWORK: 'off' } as const;

/** The end of a tool's run: its exit code (null after a signal) and the tail of its output. */
interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  tail: string;
}

/** Thrown when an install is aborted (Ctrl+C in the CLI, Cancel in VS Code). */
export class InstallAborted extends Error {}

/** Kills git/go and what they started: their process group (POSIX), their tree (Windows `taskkill /T /F`). */
function killTree(pid: number | undefined): void {
  if (!pid) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Runs `cmd args` in its own process group, stdin closed, keeping the last bytes of stdout+stderr. */
function runTool(
  cmd: string,
  args: string[],
  o: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal; onOutput?: (chunk: string) => void; missing: string },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new InstallAborted('install: aborted'));
    const child = spawn(cmd, args, {
      cwd: o.cwd,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let tail = '';
    let why: Error | undefined;
    const onData = (d: Buffer): void => {
      const text = d.toString();
      o.onOutput?.(text);
      tail = (tail + text).slice(-TOOL_OUTPUT_TAIL_BYTES);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const stop = (e: Error): void => {
      why ??= e;
      killTree(child.pid);
    };
    const timer = setTimeout(() => stop(new Error(`${cmd} did not finish within ${o.timeoutMs / 1000} s`)), o.timeoutMs);
    const onAbort = (): void => stop(new InstallAborted('install: aborted'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      reject(new Error(e.code === 'ENOENT' ? o.missing : `${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      if (why) reject(why);
      else resolve({ code, signal, tail: tail.trim() });
    });
  });
}

const failure = (what: string, r: ToolRun): string =>
  `${what} failed (${r.signal ? `signal ${r.signal}` : `exit status ${r.code}`})${r.tail ? `:\n${r.tail}` : ''}`;

export interface GitStageOptions extends Omit<StageOptions, 'label' | 'build'> {
  signal?: AbortSignal;
  /** git's progress and errors as they come (the CLI shows them). */
  onOutput?: (chunk: string) => void;
}

/**
 * Clones `url` (`git clone --depth 1`, any URL git accepts) into a temporary folder and stages it for `destRoot`
 * like a local folder (the plan names the URL). The clone is removed whether staging succeeds or not; on failure
 * nothing is left in `destRoot`. Never builds.
 */
export async function stageFromGit(url: string, destRoot: string, o: GitStageOptions = {}): Promise<StagedInstall> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'zut-clone-'));
  try {
    const into = path.join(tmp, 'src');
    const r = await runTool('git', [...GIT_PROTOCOLS_ONLY, 'clone', '--quiet', '--depth', '1', '--no-recurse-submodules', '--', url, into], {
      cwd: tmp,
      // Never wait for a password nobody can type; credentials come from the user's helpers or ssh agent.
      env: { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', GCM_INTERACTIVE: 'never', GIT_ALLOW_PROTOCOL: GIT_SCHEMES.join(':') },
      timeoutMs: GIT_CLONE_TIMEOUT_MS,
      missing: `install: ${url}: git is not on PATH (installing from a URL runs git clone)`,
      ...(o.signal && { signal: o.signal }),
      ...(o.onOutput && { onOutput: o.onOutput }),
    }).catch((e: unknown) => {
      throw e instanceof InstallAborted || (e instanceof Error && e.message.startsWith('install:')) ? e : new Error(`install: ${url}: ${(e as Error).message}`);
    });
    if (r.code !== 0) throw new Error(`install: ${url}: ${failure('git clone', r)}`);
    return await stageInstall(into, destRoot, { label: url });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The `--build=go` builder: `go build -trimpath -buildvcs=false -o <exec> .` run in the staged copy, with
 * `GOTOOLCHAIN=local` and `GOWORK=off` (it may resolve Go modules and use the network as the user's Go environment
 * allows, as zut says). Its output goes to `onOutput` as it comes.
 */
export function goBuilder(o: { signal?: AbortSignal; onOutput?: (chunk: string) => void; env?: NodeJS.ProcessEnv } = {}): Builder {
  const args = (exec: string) => ['build', '-trimpath', '-buildvcs=false', '-o', exec, '.'];
  return {
    command: (exec) => `${['go', ...args(exec)].join(' ')}   (in the staged copy; ${Object.entries(GO_ENV).map(([k, v]) => `${k}=${v}`).join(' ')})`,
    async run(stagedDir, exec) {
      const r = await runTool('go', args(exec), {
        cwd: stagedDir,
        timeoutMs: GO_BUILD_TIMEOUT_MS,
        missing: 'go is not on PATH (--build=go runs go build -trimpath)',
        env: { ...o.env, ...GO_ENV },
        ...(o.signal && { signal: o.signal }),
        ...(o.onOutput && { onOutput: o.onOutput }),
      });
      if (r.code !== 0) throw new Error(failure('go build -trimpath', r));
    },
  };
}
