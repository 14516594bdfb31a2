/**
 * The hook call memory on disk (callMemory.ts): one file per remembered call in the private hooks directory
 * (rendezvous.ts `hooksDir`, 0700; each file 0600, written through an exclusive temporary file and a rename), named
 * `m-<session hash>-<time>-<random>.json`, so any host answering hooks for this user finds the calls another answered.
 * Kept HOOK_MEMORY_FILE_TTL_MS and HOOK_MEMORY_CALLS per session; an input over HOOK_MEMORY_FILE_MAX_BYTES is not
 * written. Nothing here throws: a directory that cannot be used only means a later event another host answers finds
 * nothing (as before the files). Read by hand, not with zod (the light hook entry's floor). VS Code-free.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_FILE_MAX_BYTES, HOOK_MEMORY_FILE_TTL_MS } from '../protocol/limits';
import { ensurePrivateDir, hooksDir } from './rendezvous';

/** One remembered call. */
export interface RememberedCall {
  toolId: string;
  name: string;
  input: Record<string, unknown>;
  /** The agent asked the person about it (a permission prompt). */
  asked: boolean;
  /** Its permission request came, its prompt not yet (Copilot CLI: the notification follows). */
  requested: boolean;
  /** When it was called (ms since epoch). */
  at: number;
  /** Its file on disk, when it has one. */
  file?: string;
}

const PREFIX = 'm-';

const sessionKey = (session: string): string => createHash('sha256').update(session).digest('hex').slice(0, 16);

/** A call file's content, when it is one (for `session`). */
function parse(text: string, session: string, file: string): RememberedCall | undefined {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (j === null || typeof j !== 'object') return undefined;
  const c = j as Record<string, unknown>;
  const input = c.input;
  if (c.session !== session || typeof c.toolId !== 'string' || typeof c.name !== 'string' || typeof c.at !== 'number') return undefined;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  return { toolId: c.toolId, name: c.name, input: input as Record<string, unknown>, asked: c.asked === true, requested: c.requested === true, at: c.at, file };
}

export class CallFiles {
  /** The directory, once found usable (undefined: not yet looked; null: not usable). */
  private dir: string | null | undefined;

  private usable(): string | undefined {
    if (this.dir === undefined) {
      const dir = hooksDir();
      this.dir = ensurePrivateDir(dir) === undefined ? dir : null;
    }
    return this.dir ?? undefined;
  }

  /** Writes (or rewrites) `c`'s file. */
  write(session: string, c: RememberedCall): void {
    const dir = this.usable();
    if (!dir) return;
    try {
      const text = JSON.stringify({ session, toolId: c.toolId, name: c.name, input: c.input, asked: c.asked, requested: c.requested, at: c.at });
      if (Buffer.byteLength(text) > HOOK_MEMORY_FILE_MAX_BYTES) return;
      c.file ??= path.join(dir, `${PREFIX}${sessionKey(session)}-${String(c.at).padStart(15, '0')}-${randomBytes(4).toString('hex')}.json`);
      const tmp = `${c.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
      fs.renameSync(tmp, c.file);
    } catch {
      /* a full or read-only disk: this host still remembers it */
    }
  }

  /** `session`'s calls on disk, newest first; removes files past their time or beyond the per-session count. */
  read(session: string): RememberedCall[] {
    const dir = this.usable();
    if (!dir) return [];
    const mine = `${PREFIX}${sessionKey(session)}-`;
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.startsWith(PREFIX) && n.endsWith('.json')).sort().reverse();
    } catch {
      return [];
    }
    const now = Date.now();
    const calls: RememberedCall[] = [];
    for (const n of names) {
      const file = path.join(dir, n);
      const at = Number(n.split('-')[2]);
      const expired = !(now - at < HOOK_MEMORY_FILE_TTL_MS);
      if (expired || (n.startsWith(mine) && calls.length >= HOOK_MEMORY_CALLS)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (!n.startsWith(mine)) continue;
      try {
        const st = fs.lstatSync(file);
        if (!st.isFile() || st.size > HOOK_MEMORY_FILE_MAX_BYTES) continue;
        const c = parse(fs.readFileSync(file, 'utf8'), session, file);
        if (c) calls.push(c);
      } catch {
        /* gone meanwhile */
      }
    }
    return calls;
  }
}
