/**
 * VS Code-free model of extension notes (`notify`, and `display` command output): newest first per extension,
 * and the toast policy: warn/error become a notification at most once per extension per burst (a burst is a run of
 * that extension's warnings/errors with less than the toast window between one and the next).
 */
import type { NoteLevel } from '../host/hostUi';
import { MAX_NOTES_PER_EXT } from '../protocol/limits';

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
  /** A warning/error within this long of the extension's previous one belongs to the same burst (default 2 s). */
  toastWindowMs?: number;
  /** Older notes beyond this many per extension are dropped (default `MAX_NOTES_PER_EXT`, 200). */
  maxPerExt?: number;
}

export class NotesModel {
  private readonly notes = new Map<string, Note[]>();
  /** When each extension's last warning/error arrived (the end of its current burst). */
  private readonly lastLoud = new Map<string, number>();
  private nextId = 1;
  private readonly now: () => number;
  private readonly toastWindowMs: number;
  private readonly maxPerExt: number;

  constructor(options: NotesModelOptions = {}) {
    this.now = options.now ?? Date.now;
    this.toastWindowMs = options.toastWindowMs ?? 2000;
    this.maxPerExt = options.maxPerExt ?? MAX_NOTES_PER_EXT;
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
      const last = this.lastLoud.get(ext);
      // Every warning/error extends the burst: a steady stream of them is one notification, not one per window.
      this.lastLoud.set(ext, at);
      toast = last === undefined || at - last >= this.toastWindowMs;
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

/** Text of more than one line (ignoring a trailing newline): shown as a document rather than a notification. */
export function isMultiLine(text: string): boolean {
  return text.replace(/\r?\n+$/, '').includes('\n');
}
