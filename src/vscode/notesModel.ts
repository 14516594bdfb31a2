/**
 * VS Code-free model of extension notes (`notify`, and `display` command output): newest first per extension,
 * and the toast policy (warn/error become a notification, at most one per extension per window).
 */
import type { NoteLevel } from '../host/hostUi';

export interface Note {
  id: number;
  ext: string;
  level: NoteLevel;
  text: string;
  /** Clock time it was added (ms). */
  at: number;
}

export interface NotesModelOptions {
  /** Injected clock (ms). */
  now?: () => number;
  /** At most one toast per extension in this window (default 2 s). */
  toastWindowMs?: number;
  /** Older notes beyond this many per extension are dropped (default 100). */
  maxPerExt?: number;
}

export class NotesModel {
  private readonly notes = new Map<string, Note[]>();
  private readonly lastToast = new Map<string, number>();
  private nextId = 1;
  private readonly now: () => number;
  private readonly toastWindowMs: number;
  private readonly maxPerExt: number;

  constructor(options: NotesModelOptions = {}) {
    this.now = options.now ?? Date.now;
    this.toastWindowMs = options.toastWindowMs ?? 2000;
    this.maxPerExt = options.maxPerExt ?? 100;
  }

  /** Adds a note. `toast` says whether it should also be shown as a notification now. */
  add(ext: string, level: NoteLevel, text: string): { note: Note; toast: boolean } {
    const at = this.now();
    const note: Note = { id: this.nextId++, ext, level, text, at };
    const list = this.notes.get(ext) ?? [];
    list.unshift(note);
    if (list.length > this.maxPerExt) list.length = this.maxPerExt;
    this.notes.set(ext, list);
    let toast = false;
    if (level === 'warn' || level === 'error') {
      const last = this.lastToast.get(ext);
      if (last === undefined || at - last >= this.toastWindowMs) {
        this.lastToast.set(ext, at);
        toast = true;
      }
    }
    return { note, toast };
  }

  /** This extension's notes, newest first. */
  list(ext: string): readonly Note[] {
    return this.notes.get(ext) ?? [];
  }

  /** Extensions that have notes. */
  exts(): string[] {
    return [...this.notes.keys()];
  }

  /** Removes this extension's notes; true when there were some. */
  clear(ext: string): boolean {
    return this.notes.delete(ext);
  }

  /** Removes every note; returns the extensions that had some. */
  clearAll(): string[] {
    const exts = this.exts();
    this.notes.clear();
    return exts;
  }
}
