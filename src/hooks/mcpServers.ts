/**
 * The zut MCP servers running now (`zut-host mcp`), as a hook answering in another process sees them: each server
 * publishes the MCP names of the tools it serves, its folder, pid and start identity in the private hooks directory
 * (rendezvous.ts: `mcp-<pid>.json`, 0600, through a temporary file and a rename; rewritten when its catalog changes,
 * removed when it stops). A hook whose host does not serve a tool named as ours (`mcp__zut__weather`: a project
 * extension the server was allowed and the hook's host was not) then knows it is judged on the MCP path and skips it:
 * each call guarded exactly once. Only a live server's file counts (its pid alive and, where the platform tells, the
 * same process), of the hook's folder or a parent of it; a name with our prefix that none serves is still guarded.
 * The files are read only for a tool name with our prefix (rare): the agent's own tools cost nothing. VS Code-free.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_SERVED_MAX_NAMES } from '../protocol/limits';
import { alive, checkOwnFile, checkPrivateDir, ensurePrivateDir, hooksDir, processStart, realFolder } from './rendezvous';

/** What one server publishes. */
export interface ServedTools {
  pid: number;
  started?: string;
  folder: string;
  /** The tools' names as the server lists them (`tools/list`), e.g. `weather`, `skill`. */
  names: string[];
}

const fileOf = (dir: string, pid: number) => path.join(dir, `mcp-${pid}.json`);

/** Publishes what this process serves for `folder` (replacing what it published before); false when it cannot. */
export function publishServed(folder: string, names: readonly string[], dir = hooksDir()): boolean {
  if (ensurePrivateDir(dir)) return false;
  const started = processStart(process.pid);
  const served: ServedTools = { pid: process.pid, ...(started !== undefined && { started }), folder: realFolder(folder), names: names.slice(0, MCP_SERVED_MAX_NAMES) };
  const file = fileOf(dir, process.pid);
  const tmp = `${file}.${Date.now().toString(36)}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(served), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
    return true;
  } catch {
    fs.rmSync(tmp, { force: true });
    return false;
  }
}

/** Removes what this process published. */
export function unpublishServed(dir = hooksDir()): void {
  fs.rmSync(fileOf(dir, process.pid), { force: true });
}

/** One published file, when it can be trusted (private directory, our own regular file) and is well formed. */
function readServed(file: string): ServedTools | undefined {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      if (checkOwnFile(file, fs.fstatSync(fd))) return undefined;
      const j = JSON.parse(fs.readFileSync(fd, 'utf8')) as Partial<ServedTools>;
      const ok = Number.isInteger(j.pid) && typeof j.folder === 'string' && Array.isArray(j.names) && j.names.every((n) => typeof n === 'string');
      return ok && (j.started === undefined || typeof j.started === 'string') ? (j as ServedTools) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Whether the publisher is still the process that wrote it (pid alive; the same start identity where known). */
function live(s: ServedTools): boolean {
  if (!alive(s.pid)) return false;
  if (s.started === undefined) return true;
  const now = processStart(s.pid);
  return now === undefined || now === s.started;
}

/** Whether `folder` is `cwd` or one of its parents. */
const covers = (folder: string, cwd: string) => cwd === folder || cwd.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);

/**
 * Whether a live zut MCP server of `cwd` (its folder or a parent's) serves the tool `name` (its MCP name, without the
 * agent's prefix). A stale file (its process gone) is removed on the way.
 */
export function servedByLiveServer(name: string, cwd: string | undefined, dir = hooksDir()): boolean {
  if (cwd === undefined) return false;
  let names: string[];
  try {
    if (checkPrivateDir(dir)) return false;
    names = fs.readdirSync(dir).filter((n) => /^mcp-\d+\.json$/.test(n));
  } catch {
    return false;
  }
  const here = realFolder(cwd);
  for (const n of names) {
    const file = path.join(dir, n);
    const s = readServed(file);
    if (!s || !covers(s.folder, here) || !s.names.includes(name)) continue;
    if (live(s)) return true;
    fs.rmSync(file, { force: true });
  }
  return false;
}
