/**
 * What the host knows of each extension as a guard: it intercepted `tool_call` (a `guard`), or its registration ended
 * without doing so (`not`: it sent `ready` without intercepting, or stayed silent past REGISTRATION_PATIENCE_MS). The
 * guard door (absentGuards.ts) uses it to tell an extension that could not be asked right now (restarting, crashed,
 * given up, not yet subscribed) from one that never guards. Keyed by name and directory; a `not` also by the
 * content's stamp (its manifest's and executable's size and time), so a changed extension is asked again. Kept in
 * memory, and in a private file when the host is given one (the hook hosts: each `ZUT_HOOK_WARM=0` call is a new
 * process, and a warm host's first seconds come before its guards have subscribed). The file is read once, merged
 * and replaced through an exclusive temporary file on a change (rare: a guard's status changes), capped at
 * GUARD_MEMORY_MAX entries. Nothing here throws: a file that cannot be used only means less is known. VS Code-free.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GUARD_MEMORY_MAX, GUARD_MEMORY_MAX_BYTES } from '../../protocol/limits';

/** What is known of one extension. */
export type GuardKnowledge = { kind: 'guard' } | { kind: 'not'; stamp: string };

export class GuardMemory {
  private known: Map<string, GuardKnowledge> | undefined;

  /** `file`: where it is kept between processes (its directory must be private: the caller checks). */
  constructor(private readonly file?: string) {}

  /** The key of an extension: its name and directory. */
  static keyOf(name: string, dir: string): string {
    return `${name}\n${dir}`;
  }

  get(key: string): GuardKnowledge | undefined {
    return this.map().get(key);
  }

  /** Learns `k` for `key` (written through when it changed). */
  learn(key: string, k: GuardKnowledge): void {
    const was = this.map().get(key);
    if (was && was.kind === k.kind && (was.kind === 'guard' || (k.kind === 'not' && was.stamp === k.stamp))) return;
    this.map().delete(key); // newest last: the oldest go first past the cap
    this.map().set(key, k);
    this.save(key, k);
  }

  private map(): Map<string, GuardKnowledge> {
    return (this.known ??= this.read());
  }

  private read(): Map<string, GuardKnowledge> {
    const out = new Map<string, GuardKnowledge>();
    if (!this.file) return out;
    try {
      const fd = fs.openSync(this.file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile() || st.size > GUARD_MEMORY_MAX_BYTES || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return out;
        const j: unknown = JSON.parse(fs.readFileSync(fd, 'utf8'));
        if (typeof j !== 'object' || j === null || Array.isArray(j)) return out;
        for (const [key, v] of Object.entries(j as Record<string, unknown>)) {
          if (v === 'guard') out.set(key, { kind: 'guard' });
          else if (typeof v === 'string' && v.startsWith('not:')) out.set(key, { kind: 'not', stamp: v.slice(4) });
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // none yet, or unusable: nothing known
    }
    return out;
  }

  /** Merges this change into what the file holds now (another host may have written it) and replaces the file. */
  private save(key: string, k: GuardKnowledge): void {
    if (!this.file) return;
    const merged = this.read();
    merged.delete(key);
    merged.set(key, k);
    this.known = merged;
    const entries = [...merged].slice(-GUARD_MEMORY_MAX);
    const json = JSON.stringify(Object.fromEntries(entries.map(([key, v]) => [key, v.kind === 'guard' ? 'guard' : `not:${v.stamp}`])));
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, json, { flag: 'wx', mode: 0o600 });
      fs.renameSync(tmp, this.file);
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
}
