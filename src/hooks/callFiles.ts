/**
 * The hook call memory on disk (callMemory.ts): one file per remembered call in the private hooks directory
 * (rendezvous.ts `hooksDir`, 0700; each file 0600, written through an exclusive temporary file and a rename), named
 * `m-<session hash>-<time>-<random>.json`, so any host answering hooks for this user finds the calls another answered.
 * Bounded at every write, whoever wrote the files: none older than HOOK_MEMORY_TTL_MS, at most HOOK_MEMORY_CALLS per
 * session and HOOK_MEMORY_FILES in all (the oldest go first); a call whose story has ended is removed at once
 * (`remove`); an input over HOOK_MEMORY_FILE_MAX_BYTES is not written. Nothing here throws: a directory that cannot
 * be used only means a later event another host answers finds nothing. Read by hand, not with zod (the light hook
 * entry's floor). VS Code-free.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_FILE_MAX_BYTES, HOOK_MEMORY_FILES, HOOK_MEMORY_TTL_MS } from '../protocol/limits';
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

/** A call file's name (and a temporary file's, left by a writer that died before its rename): session key, time. */
const NAME = /^m-([0-9a-f]{16})-(\d{15})-[0-9a-f]{8}\.json(\.\d+\.[0-9a-f]{8}\.tmp)?$/;

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

  /** The call files in the directory (temporary ones too), newest first. */
  private list(dir: string): { name: string; key: string; at: number; tmp: boolean }[] {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .flatMap((name) => {
        const m = NAME.exec(name);
        return m ? [{ name, key: m[1]!, at: Number(m[2]), tmp: m[3] !== undefined }] : [];
      })
      .sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1));
  }

  /** Writes (or rewrites) `c`'s file, then keeps the directory within its bounds. */
  write(session: string, c: RememberedCall): void {
    const dir = this.usable();
    if (!dir) return;
    try {
      const text = JSON.stringify({ session, toolId: c.toolId, name: c.name, input: c.input, asked: c.asked, requested: c.requested, at: c.at });
      if (Buffer.byteLength(text) > HOOK_MEMORY_FILE_MAX_BYTES) return;
      c.file ??= path.join(dir, `m-${sessionKey(session)}-${String(c.at).padStart(15, '0')}-${randomBytes(4).toString('hex')}.json`);
      const tmp = `${c.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
      fs.renameSync(tmp, c.file);
    } catch {
      /* a full or read-only disk: this host still remembers it */
    }
    this.prune(dir, c.file);
  }

  /** Removes `c`'s file (its call's story has ended: no later event needs it). */
  remove(c: RememberedCall): void {
    if (c.file) fs.rmSync(c.file, { force: true });
    delete c.file;
  }

  /**
   * Removes the files past their time, and those beyond HOOK_MEMORY_CALLS of a session or HOOK_MEMORY_FILES in all
   * (the oldest first); never `keep` (the one just written), and a temporary file only once past its time (its
   * writer may be renaming it now).
   */
  private prune(dir: string, keep: string | undefined): void {
    const now = Date.now();
    const perSession = new Map<string, number>();
    let total = 0;
    for (const f of this.list(dir)) {
      const file = path.join(dir, f.name);
      const old = !(now - f.at < HOOK_MEMORY_TTL_MS);
      if (f.tmp) {
        if (old) fs.rmSync(file, { force: true });
        continue;
      }
      const n = (perSession.get(f.key) ?? 0) + 1;
      if (file !== keep && (old || n > HOOK_MEMORY_CALLS || total >= HOOK_MEMORY_FILES)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      perSession.set(f.key, n);
      total++;
    }
  }

  /** `session`'s calls on disk, newest first (at most HOOK_MEMORY_CALLS, none past its time). */
  read(session: string): RememberedCall[] {
    const dir = this.usable();
    if (!dir) return [];
    const key = sessionKey(session);
    const now = Date.now();
    const calls: RememberedCall[] = [];
    for (const f of this.list(dir)) {
      if (f.tmp || f.key !== key || !(now - f.at < HOOK_MEMORY_TTL_MS)) continue;
      if (calls.length >= HOOK_MEMORY_CALLS) break;
      const file = path.join(dir, f.name);
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
