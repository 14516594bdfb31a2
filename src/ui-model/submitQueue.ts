/**
 * The `@zut` submits waiting for the running request(s) to finish, bounded per extension
 * (`CHAT_PENDING_SUBMITS_PER_EXT`): a further submit from an extension that already has one pending REPLACES it (the
 * extension's latest intent wins; refusing would run a stale prompt), so a flood of submits opens chat once per
 * extension, not once per submit. Order is the order of each pending submit's latest arrival. Imports no `vscode`.
 */
import { CHAT_PENDING_SUBMITS_PER_EXT } from '../protocol/limits';

export interface PendingSubmit {
  ext: string;
  text: string;
}

export class SubmitQueue {
  /** Keyed by extension name (case-insensitive); a Map keeps arrival order. */
  private readonly pending = new Map<string, PendingSubmit[]>();
  private order: string[] = [];

  /** Queues `text` for `ext`; returns the submit it replaced (the diagnostic names it), if any. */
  push(ext: string, text: string): PendingSubmit | undefined {
    const key = ext.toLowerCase();
    const mine = this.pending.get(key) ?? [];
    let replaced: PendingSubmit | undefined;
    if (mine.length >= CHAT_PENDING_SUBMITS_PER_EXT) {
      replaced = mine.shift();
      this.order.splice(this.order.indexOf(key), 1);
    }
    mine.push({ ext, text });
    this.pending.set(key, mine);
    this.order.push(key);
    return replaced;
  }

  /** The next submit to run, oldest first. */
  shift(): PendingSubmit | undefined {
    const key = this.order.shift();
    if (key === undefined) return undefined;
    const mine = this.pending.get(key);
    const next = mine?.shift();
    if (mine?.length === 0) this.pending.delete(key);
    return next;
  }

  get size(): number {
    return this.order.length;
  }
}
