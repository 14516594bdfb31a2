/**
 * Escaped processes. Killing an extension's process group misses a descendant that left the group — it would
 * survive the host forever. On Linux two marks still tell it apart after the group kill: its session (the extension
 * is spawned as a session leader, child.ts `detached`, so a descendant that only changed its group with `setpgrp`
 * keeps session id = the extension's pid: `/proc/<pid>/stat` field 6), and, for one that left the session too
 * (`setsid`, a double fork), the extension's stdio it still holds (the pipes the host created: `pipe:[N]`, or
 * `socket:[N]` for libuv's socketpairs) unless it closed every inherited descriptor. So: note the child's stdio
 * links at spawn, and after the group kill find every process in its session or whose `/proc/<pid>/fd` still links
 * to one of them, and end it the same way (SIGTERM → grace → SIGKILL). A daemon that closed every inherited
 * descriptor AND left the session is out of reach (README). The session leader's own pid never matches: the leader
 * was the extension, gone by then, so a process that reused its pid is not taken for one of its descendants.
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

/** The session id of `pid`: `/proc/<pid>/stat` after "pid (comm) " is "state ppid pgrp session …"; 0 if unreadable. */
const sessionOf = (pid: string): Promise<number> =>
  fs.readFile(`/proc/${pid}/stat`, 'utf8').then(
    (s) => Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[3]),
    () => 0,
  );

/**
 * Processes (other than this one) in session `session` (its leader excepted) or holding any of `links` open, found
 * by scanning `/proc`.
 */
export async function holdersOf(links: readonly string[], session?: number): Promise<number[]> {
  if (process.platform !== 'linux' || (links.length === 0 && !session)) return [];
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
      if (pid === process.pid || pid === session) return;
      if (session && (await sessionOf(p)) === session) return void found.push(pid);
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
 * Ends every process still in `session` or holding `links`: SIGTERM, up to `graceMs` for them to go, then SIGKILL.
 * Resolves with the pids it found (empty when none escaped). Never throws.
 */
export async function killEscaped(links: readonly string[], graceMs: number, session?: number): Promise<number[]> {
  const pids = await holdersOf(links, session);
  if (pids.length === 0) return [];
  for (const pid of pids) signal(pid, 'SIGTERM');
  const all = new Set(pids);
  let alive = await gone(pids, graceMs);
  // SIGKILL what is left, and anything that picked up the descriptors meanwhile (a child forked during the grace),
  // until nothing holds them or the rounds are spent.
  for (let round = 0; round < ESCAPED_KILL_ROUNDS; round++) {
    const holders = [...new Set([...alive, ...(await holdersOf(links, session))])];
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
