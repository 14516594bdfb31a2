/**
 * The warm host's watchdog: a tiny detached Node process that holds a pipe from the host and knows the process group
 * of each extension the host runs. When the host ends normally it says `bye` and the watchdog leaves; when the host
 * dies without a word (SIGKILL, a crash), the pipe closes and the watchdog ends every group it was told of
 * (SIGTERM, then SIGKILL after KILL_GRACE_MS; `taskkill /T /F` on Windows): no extension outlives its host. The host
 * tells it `+<pid>` when an extension starts (each is its own group's and session's leader: process/child.ts spawns
 * it detached) and `-<pid>` when it is gone, so a reused pid is never signalled. On Linux it also ends what escaped a
 * group, as a normal stop does (process/escaped.ts): every process in an extension's session, or holding the stdio
 * links the extension had when it was told of it (`/proc/<pid>/fd/0-2`, read at `+<pid>`). VS Code-free.
 */
import { spawn } from 'node:child_process';
import { KILL_GRACE_MS } from '../protocol/limits';

/** The watchdog itself (`node -e`): no file to find, nothing of ours to load. */
const SOURCE = `
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const pids = new Map(); let bye = false; let buf = '';
const end = (p, sig) => { try { if (process.platform === 'win32') { if (sig === 'SIGKILL') spawnSync('taskkill', ['/T', '/F', '/PID', String(p)]); } else process.kill(-p, sig); } catch {} };
const links = (p) => { const out = []; if (process.platform !== 'linux') return out; for (const fd of [0, 1, 2]) { try { const l = fs.readlinkSync('/proc/' + p + '/fd/' + fd); if (/^(pipe|socket):/.test(l)) out.push(l); } catch {} } return out; };
const escaped = () => {
  if (process.platform !== 'linux') return [];
  const wanted = new Set([...pids.values()].flat()); const found = [];
  let all = []; try { all = fs.readdirSync('/proc').filter((e) => /^[0-9]+$/.test(e)); } catch {}
  for (const e of all) {
    const p = Number(e); if (p === process.pid) continue;
    try { const st = fs.readFileSync('/proc/' + e + '/stat', 'utf8'); if (pids.has(Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[3]))) { found.push(p); continue; } } catch { continue; }
    let fds = []; try { fds = fs.readdirSync('/proc/' + e + '/fd'); } catch { continue; }
    for (const fd of fds) { try { if (wanted.has(fs.readlinkSync('/proc/' + e + '/fd/' + fd))) { found.push(p); break; } } catch {} }
  }
  return found;
};
const kill = (p, sig) => { try { process.kill(p, sig); } catch {} };
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const l = buf.slice(0, i);
    if (l === 'bye') bye = true;
    else if (/^[+-][0-9]+$/.test(l)) (l[0] === '+' ? pids.set(Number(l.slice(1)), links(l.slice(1))) : pids.delete(Number(l.slice(1))));
  }
});
process.stdin.on('end', () => {
  if (bye || pids.size === 0) process.exit(0);
  const first = escaped();
  for (const p of pids.keys()) end(p, 'SIGTERM');
  for (const p of first) kill(p, 'SIGTERM');
  setTimeout(() => { for (const p of pids.keys()) end(p, 'SIGKILL'); for (const p of new Set([...first, ...escaped()])) kill(p, 'SIGKILL'); process.exit(0); }, ${KILL_GRACE_MS});
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
