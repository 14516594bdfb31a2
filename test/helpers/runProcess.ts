/** Runs a process to its end and collects its output (CLI tests). */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** A finished process: exit code (null after a signal) and everything it printed. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node script args…` (or any `command`; with `shell`, a whole command line run by the shell, as an agent runs a
 * hook command); resolves when it has exited and its pipes closed. `stdin` is written and closed (else stdin is
 * closed from the start); past `timeoutMs` the process gets SIGTERM.
 */
export function runProcess(
  command: string,
  args: string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string; shell?: boolean; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env ?? process.env, shell: o.shell, stdio: [o.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGTERM'), o.timeoutMs);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A process that ends before reading all its input (a hook refusing an oversized one) is not the test's error.
    child.stdin?.on('error', () => undefined);
    if (o.stdin !== undefined) child.stdin?.end(o.stdin);
  });
}

/**
 * The environment of a CLI under test: its own `$ZUT_HOME`, and `HOME` / `$ZOT_HOME` inside `dir` so the machine's
 * sibling ecosystems (`~/.e/extensions`, `$ZOT_HOME/extensions`) never join the test.
 */
export function isolatedEnv(dir: string, zutHome: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ZUT_HOME: zutHome, HOME: dir, ZOT_HOME: path.join(dir, 'no-zot'), ...extra };
}
