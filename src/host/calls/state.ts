/**
 * Opaque extension state per (session branch, extension): what `tool_result.details` last said. Capped at
 * 256 KiB per snapshot; empty or null deletes. Only ever handed to its owner.
 */
import { Emitter } from '../events';
import { STATE_CAP_BYTES } from '../../protocol/limits';

export { STATE_CAP_BYTES };

/** Branch key used when no session is active. */
export const NO_BRANCH = '';

export class SessionStateStore {
  private readonly branches = new Map<string, Map<string, unknown>>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  /**
   * Records `details` as ext's state on `branch`. Returns an error message when refused (over the cap or not
   * serialisable); null, undefined, `{}`, `[]` and `""` delete.
   */
  set(branch: string, ext: string, details: unknown): string | undefined {
    if (details === undefined) return undefined;
    let json: string;
    try {
      json = JSON.stringify(details) ?? 'null';
    } catch (e) {
      return `state not stored: ${(e as Error).message}`;
    }
    const empty = json === 'null' || json === '{}' || json === '[]' || json === '""';
    const map = this.branches.get(branch);
    if (empty) {
      if (map?.delete(ext)) this.changed.fire();
      return undefined;
    }
    const bytes = Buffer.byteLength(json);
    if (bytes > STATE_CAP_BYTES) {
      return `state not stored: ${bytes} bytes exceeds the ${STATE_CAP_BYTES}-byte cap`;
    }
    let m = map;
    if (!m) this.branches.set(branch, (m = new Map()));
    m.set(ext, JSON.parse(json) as unknown);
    this.changed.fire();
    return undefined;
  }

  get(branch: string, ext: string): unknown {
    return this.branches.get(branch)?.get(ext);
  }

  /** A new branch starts from its parent's snapshots (a fork keeps what was true at the fork). */
  fork(parent: string, child: string): void {
    if (this.branches.has(child)) return;
    const p = this.branches.get(parent);
    if (!p || p.size === 0) return;
    this.branches.set(child, new Map(p));
    this.changed.fire();
  }

  export(): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [b, m] of this.branches) out[b] = Object.fromEntries(m);
    return out;
  }

  import(snapshot: Record<string, Record<string, unknown>>): void {
    this.branches.clear();
    for (const [b, exts] of Object.entries(snapshot ?? {})) {
      if (!exts || typeof exts !== 'object') continue;
      this.branches.set(b, new Map(Object.entries(exts)));
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
