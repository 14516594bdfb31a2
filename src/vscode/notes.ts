/**
 * Notes (`notify`, `display` output): kept per extension in the Widgets view (newest first); warn/error also
 * pop a notification, at most one per extension per burst (notesModel.ts), unless `zut.notes.notifications` is
 * `off` (the Widgets view only).
 * Every note fires `onDidNote` so a running `@zut` chat turn can show it too.
 */
import * as vscode from 'vscode';
import type { NoteLevel } from '../host/hostUi';
import { Disposable, Emitter, type Event } from '../host/events';
import { NotesModel, type NotesModelOptions } from '../ui-model/notesModel';
import { escapeNotificationLinks } from '../ui-model/statusModel';
import { zutSettings } from './settingsRead';

/** A note as other surfaces see it. */
export interface NoteEvent {
  ext: string;
  level: NoteLevel;
  text: string;
}

const SHOW_NOTES = 'Show Notes';

export class NotesSurface extends Disposable {
  readonly model: NotesModel;
  private readonly noted = this._register(new Emitter<NoteEvent>());
  readonly onDidNote: Event<NoteEvent> = this.noted.event;
  private readonly changed = this._register(new Emitter<string>());
  /** Fires the extension whose notes changed (the Widgets view refreshes that node). */
  readonly onDidChangeNotes: Event<string> = this.changed.event;
  /** Notifications shown (for tests and diagnostics). */
  toasts = 0;

  constructor(options: NotesModelOptions = {}) {
    super();
    this.model = new NotesModel(options);
  }

  add(ext: string, level: NoteLevel, text: string): void {
    const { toast } = this.model.add(ext, level, text);
    this.changed.fire(ext);
    this.noted.fire({ ext, level, text });
    if (!toast) return;
    if (zutSettings().settings.notesNotifications === 'off') return;
    this.toasts += 1;
    const message = escapeNotificationLinks(`[${ext}] ${text}`);
    const shown = level === 'error' ? vscode.window.showErrorMessage(message, SHOW_NOTES) : vscode.window.showWarningMessage(message, SHOW_NOTES);
    // Nothing waits for the answer; "Show Notes" reveals the Widgets view, where the rest of the burst is.
    void Promise.resolve(shown).then(
      (choice) => (choice === SHOW_NOTES ? vscode.commands.executeCommand('zut.widgets.focus') : undefined),
      () => undefined,
    );
  }

  /** `clear_notes`, or the extension is gone. */
  clear(ext: string): void {
    if (this.model.clear(ext)) this.changed.fire(ext);
  }

  /** The user sent the next `@zut` prompt: notes are one-shot. */
  clearAll(): void {
    for (const ext of this.model.clearAll()) this.changed.fire(ext);
  }
}
