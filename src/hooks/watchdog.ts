/**
 * The warm host's watchdog: a tiny detached Node process that holds a pipe from the host and knows the process group
 * of each extension the host runs. When the host ends normally it says `bye` and the watchdog leaves; when the host
 * dies without a word (SIGKILL, a crash), the pipe closes and the watchdog ends every group it was told of
 * (SIGTERM, then SIGKILL after KILL_GRACE_MS; `taskkill /T /F` on Windows): no extension outlives its host. The host
 * tells it `+<pid>` when an extension starts (each is its own group's leader: process/child.ts spawns it detached) and
 * `-<pid>` when it is gone, so a reused pid is never signalled. VS Code-free.
 */
import { spawn } from 'node:child_process';
import { KILL_GRACE_MS } from '../protocol/limits';

/** The watchdog itself (`node -e`): no file to find, nothing of ours to load. */
const SOURCE = `
const { spawnSync } = require('node:child_process');
const pids = new Set(); let bye = false; let buf = '';
const end = (p, sig) => { try { if (process.platform === 'win32') { if (sig === 'SIGKILL') spawnSync('taskkill', ['/T', '/F', '/PID', String(p)]); } else process.kill(-p, sig); } catch {} };
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const l = buf.slice(0, i);
    if (l === 'bye') bye = true;
    else if (/^[+-][0-9]+$/.test(l)) (l[0] === '+' ? pids.add(Number(l.slice(1))) : pids.delete(Number(l.slice(1))));
  }
});
process.stdin.on('end', () => {
  if (bye || pids.size === 0) process.exit(0);
  for (const p of pids) end(p, 'SIGTERM');
  setTimeout(() => { for (const p of pids) end(p, 'SIGKILL'); process.exit(0); }, ${KILL_GRACE_MS});
});
`;

/** A running watchdog. */
export interface Watchdog {
  /** The extensions' pids now (group leaders): tells the watchdog which came and went. */
  track(pids: readonly number[]): void;
  /** The host ends normally (it stops its extensions itself). */
  bye(): void;
}

/** Starts the watchdog of this process. */
export function startWatchdog(): Watchdog {
  const p = spawn(process.execPath, ['-e', SOURCE], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], windowsHide: true });
  p.unref();
  p.on('error', () => undefined);
  p.stdin.on('error', () => undefined);
  (p.stdin as unknown as { unref?: () => void }).unref?.();
  let known = new Set<number>();
  return {
    track(pids) {
      const now = new Set(pids);
      const lines = [...[...now].filter((x) => !known.has(x)).map((x) => `+${x}`), ...[...known].filter((x) => !now.has(x)).map((x) => `-${x}`)];
      known = now;
      if (lines.length) p.stdin.write(lines.join('\n') + '\n');
    },
    bye() {
      p.stdin.end('bye\n');
    },
  };
}
