/**
 * Escaped processes. Killing an extension's process group misses a descendant that left the group (`setsid`,
 * a double fork into a new session) — it would survive the host forever. On Linux such a process still holds the
 * extension's stdio (the pipes the host created: `pipe:[N]`, or `socket:[N]` for libuv's socketpairs) unless it
 * closed every inherited descriptor. So: note the child's stdio links at spawn, and after the group kill find
 * every process whose `/proc/<pid>/fd` still links to one of them and end it the same way (SIGTERM → grace →
 * SIGKILL). A daemon that closed every inherited descriptor AND left the session is out of reach (README).
 * On Windows the tree is killed with `taskkill /T /F` (child.ts). Other platforms: the group kill only.
 */
import { promises as fs, readlinkSync } from 'node:fs';
import { ESCAPED_KILL_ROUNDS, ESCAPED_POLL_MS } from '../../protocol/limits';

/** The child's stdio links (`socket:[123]`, `pipe:[456]`), read once right after spawn. Empty off Linux. */
export function stdioLinks(pid: number | undefined): string[] {
  if (process.platform !== 'linux' || !pid) return [];
  const out: string[] = [];
  for (const fd of [0, 1, 2]) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if ((link.startsWith('pipe:[') || link.startsWith('socket:[')) && !out.includes(link)) out.push(link);
    } catch {
      /* gone already, or not ours to read */
    }
  }
  return out;
}

/** Processes (other than this one) holding any of `links` open, found by scanning `/proc/<pid>/fd`. */
export async function holdersOf(links: readonly string[]): Promise<number[]> {
  if (process.platform !== 'linux' || links.length === 0) return [];
  const wanted = new Set(links);
  let pids: string[];
  try {
    pids = (await fs.readdir('/proc')).filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const found: number[] = [];
  await Promise.all(
    pids.map(async (p) => {
      const pid = Number(p);
      if (pid === process.pid) return;
      let fds: string[];
      try {
        fds = await fs.readdir(`/proc/${p}/fd`);
      } catch {
        return; // gone, or another user's
      }
      for (const fd of fds) {
        try {
          if (wanted.has(await fs.readlink(`/proc/${p}/fd/${fd}`))) {
            found.push(pid);
            return;
          }
        } catch {
          /* closed meanwhile */
        }
      }
    }),
  );
  return found.sort((a, b) => a - b);
}

/** True while `pid` exists and is not a zombie. */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    if (process.platform === 'linux') return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

/**
 * Ends every process still holding `links`: SIGTERM, up to `graceMs` for them to go, then SIGKILL. Resolves with
 * the pids it found (empty when none escaped). Never throws.
 */
export async function killEscaped(links: readonly string[], graceMs: number): Promise<number[]> {
  const pids = await holdersOf(links);
  if (pids.length === 0) return [];
  for (const pid of pids) signal(pid, 'SIGTERM');
  const all = new Set(pids);
  let alive = await gone(pids, graceMs);
  // SIGKILL what is left, and anything that picked up the descriptors meanwhile (a child forked during the grace),
  // until nothing holds them or the rounds are spent.
  for (let round = 0; round < ESCAPED_KILL_ROUNDS; round++) {
    const holders = [...new Set([...alive, ...(await holdersOf(links))])];
    if (holders.length === 0) break;
    holders.forEach((p) => all.add(p));
    for (const pid of holders) signal(pid, 'SIGKILL');
    alive = await gone(holders, graceMs);
  }
  return [...all].sort((a, b) => a - b);
}

/** Waits up to `ms` for `pids` to be gone; resolves with those still alive. */
async function gone(pids: readonly number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = [...pids];
  for (;;) {
    alive = (await Promise.all(alive.map(async (p) => ((await isAlive(p)) ? p : 0)))).filter((p) => p > 0);
    if (alive.length === 0 || Date.now() >= until) return alive;
    await new Promise((r) => setTimeout(r, ESCAPED_POLL_MS));
  }
}
