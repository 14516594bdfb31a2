/**
 * One extension subprocess: exec resolution, spawning in its own process group, the stderr log, and
 * killing the whole group. No protocol here (see connection.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STDERR_LINE_MAX_CHARS } from '../../protocol/limits';
import { resolveExec } from '../disk/manifest';

/** How to start one extension. */
export interface ChildSpec {
  name: string;
  version?: string;
  dir: string;
  exec: string;
  args: string[];
  logPath: string;
}

/** How a process ended, in zut's words: `exit status N` or `signal SIGX`. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal: ${signal}`;
  return `exit status ${code ?? 0}`;
}

/**
 * Sends a signal to the process group led by `pid` (falls back to the process alone). On Windows, where there
 * are no groups, the whole tree is ended with `taskkill /T /F` (any signal). Never throws.
 */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  if (process.platform === 'win32') return killTree(pid);
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Windows: `taskkill /T /F /PID pid` (the process and its descendants), falling back to the process alone. */
function killTree(pid: number): void {
  try {
    const t = spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    t.on('error', () => {
      try {
        process.kill(pid);
      } catch {
        /* already gone */
      }
    });
  } catch {
    /* taskkill missing: nothing more we can do */
  }
}

/**
 * Opens the stderr log in append mode and writes the header line. Returns a writer that appends raw stderr
 * bytes; on failure to open, stderr is still delivered to listeners and `error` says why.
 */
export function openLog(spec: ChildSpec): { write(chunk: Buffer): void; close(): void; error?: string } {
  let fd: number | undefined;
  let error: string | undefined;
  try {
    fs.mkdirSync(path.dirname(spec.logPath), { recursive: true });
    fd = fs.openSync(spec.logPath, 'a');
    fs.writeSync(fd, `[zut] starting ${spec.name}/${spec.version ?? ''} at ${new Date().toISOString()}\n`);
  } catch (e) {
    error = `open log ${spec.logPath}: ${(e as Error).message}`;
    fd = undefined;
  }
  return {
    error,
    write(chunk) {
      if (fd === undefined) return;
      try {
        fs.writeSync(fd, chunk);
      } catch {
        /* a full disk must not break the extension */
      }
    },
    close() {
      if (fd === undefined) return;
      try {
        fs.closeSync(fd);
      } catch {
        /* ignore */
      }
      fd = undefined;
    },
  };
}

/** Spawns the extension: cwd = its directory, inherited environment, its own process group, piped stdio. */
export function spawnChild(spec: ChildSpec): ChildProcessWithoutNullStreams {
  return spawn(resolveExec(spec.dir, spec.exec), spec.args, {
    cwd: spec.dir,
    env: process.env,
    detached: process.platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

/** Splits a byte stream into text lines (for stderr). */
export class TextLineSplitter {
  private rest = '';
  private readonly decoder = new TextDecoder('utf-8');

  push(chunk: Buffer, emit: (line: string) => void): void {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    if (this.rest.length > STDERR_LINE_MAX_CHARS) {
      lines.push(this.rest);
      this.rest = '';
    }
    for (const l of lines) emit(l.endsWith('\r') ? l.slice(0, -1) : l);
  }

  flush(emit: (line: string) => void): void {
    if (this.rest) emit(this.rest);
    this.rest = '';
  }
}
