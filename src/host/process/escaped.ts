/**
 * Escaped processes. Killing an extension's process group misses a descendant that left the group — it would
 * survive the host forever. On Linux two marks still tell it apart after the group kill:
 * - its session: the extension is spawned as a session leader (child.ts: `detached`), so a descendant that only
 *   changed its process group (`setpgrp`, stdio redirected) keeps the session id = the extension's pid
 *   (`/proc/<pid>/stat` field 6);
 * - its stdio: one that left the session too (`setsid`, a double fork) still holds the pipes the host created
 *   (`pipe:[N]`, or `socket:[N]` for libuv's socketpairs) unless it closed every inherited descriptor.
 * So: note the child's stdio links at spawn, and after the group kill find every process in its session or
 * whose `/proc/<pid>/fd` still links to one of them, and end it the same way (SIGTERM → grace → SIGKILL). A daemon
 * that closed every inherited descriptor AND left the session is out of reach (README). The session leader's own
 * pid is never a match: the leader is the extension itself, gone by then, so a process that reused its pid (a
 * new session leader) is not taken for one of its descendants.
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

/** What marks an extension's escaped processes: its stdio links, and its session id (its pid; Linux). */
export interface EscapeMarks {
  links: readonly string[];
  session?: number;
}

/** The session id of `pid` (`/proc/<pid>/stat` field 6), undefined when unreadable. */
async function sessionOf(pid: string): Promise<number | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state ppid pgrp session …; comm may hold spaces and parentheses, so split after the last ')'.
    const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
    return Number.isInteger(session) ? session : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` holds any of `wanted` open (`/proc/<pid>/fd`). */
async function holdsAny(pid: string, wanted: ReadonlySet<string>): Promise<boolean> {
  if (wanted.size === 0) return false;
  let fds: string[];
  try {
    fds = await fs.readdir(`/proc/${pid}/fd`);
  } catch {
    return false; // gone, or another user's
  }
  for (const fd of fds) {
    try {
      if (wanted.has(await fs.readlink(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      /* closed meanwhile */
    }
  }
  return false;
}

/**
 * Processes (other than this one) in the extension's session or holding any of its stdio links, found by scanning
 * `/proc`. The session leader itself (pid = session) is never one: see the header.
 */
export async function holdersOf(marks: EscapeMarks): Promise<number[]> {
  if (process.platform !== 'linux' || (marks.links.length === 0 && marks.session === undefined)) return [];
  const wanted = new Set(marks.links);
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
      if (pid === process.pid || pid === marks.session) return;
      if ((marks.session !== undefined && (await sessionOf(p)) === marks.session) || (await holdsAny(p, wanted))) found.push(pid);
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
 * Ends every process in the extension's session or still holding its stdio (`marks`): SIGTERM, up to `graceMs`
 * for them to go, then SIGKILL. Resolves with the pids it found (empty when none escaped). Never throws.
 */
export async function killEscaped(marks: EscapeMarks, graceMs: number): Promise<number[]> {
  const pids = await holdersOf(marks);
  if (pids.length === 0) return [];
  for (const pid of pids) signal(pid, 'SIGTERM');
  const all = new Set(pids);
  let alive = await gone(pids, graceMs);
  // SIGKILL what is left, and anything that joined meanwhile (a child forked during the grace), until none is
  // left or the rounds are spent.
  for (let round = 0; round < ESCAPED_KILL_ROUNDS; round++) {
    const holders = [...new Set([...alive, ...(await holdersOf(marks))])];
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
