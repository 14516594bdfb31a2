/**
 * The port through which the host shows extension output. The VS Code layer implements it
 * (`src/vscode/*`); tests and the CLI use recording or no-op implementations. Every call names the
 * extension (its manifest name). Text is data: implementations never render it as HTML, markdown links or codicons.
 */
import type { PanelSpec } from '../protocol';

export type NoteLevel = 'info' | 'success' | 'warn' | 'error';

/** A panel update (`panel_render`). Omitted fields keep their previous value. */
export interface PanelRender {
  panel_id: string;
  title?: string;
  lines?: string[];
  footer?: string;
}

export interface WidgetSpec {
  id: string;
  position?: string;
  title?: string;
  lines?: string[];
}

/** One choice of a `select` question. `value` is handed back as given (any JSON value). */
export interface QuestionOption {
  label: string;
  description?: string;
  value: unknown;
}

/**
 * A question an extension asks the user and waits on (e's `ui.select`, `ui.confirm`, `ui.input`). VS Code shows a
 * QuickPick, a modal and an InputBox; without a person to ask (the CLI) the answer is an error (`NoUiError`).
 */
export type Question =
  | { kind: 'select'; title: string; options: QuestionOption[] }
  | { kind: 'confirm'; title: string; message?: string }
  | { kind: 'input'; title: string; placeholder?: string; prefill?: string; secret?: boolean };

/** The answer to a question; `undefined` = the user dismissed it. */
export type Answer<Q extends Question> = Q extends { kind: 'select' } ? QuestionOption : Q extends { kind: 'confirm' } ? boolean : string;

/** The host has nobody to ask (e answers `{"error":"no ui"}` under `e -p`; so does the CLI). */
export class NoUiError extends Error {
  constructor(ext: string, q: Question) {
    super(`no ui: ${ext} asked ${JSON.stringify(q.title)} (a ${q.kind} question) and this host cannot ask anyone`);
    this.name = 'NoUiError';
  }
}

export interface HostUi {
  /** Whether `ask` can reach a person (false: every question is answered `NoUiError`). */
  readonly canAsk: boolean;
  /**
   * Asks the user and resolves with the answer, `undefined` when dismissed (or when `signal` aborts: the extension
   * went away). Rejects with `NoUiError` where nobody can answer.
   */
  ask<Q extends Question>(ext: string, question: Q, signal: AbortSignal): Promise<Answer<Q> | undefined>;
  /** `notify`: a note (info/success/warn/error). */
  notify(ext: string, level: NoteLevel, message: string): void;
  /** `command_response` with action `display`: a note with the command's output. */
  display(ext: string, text: string): void;
  /** `clear_notes`: remove this extension's notes. */
  clearNotes(ext: string): void;
  /** `status`: set (or, with empty text, remove) one status item. */
  status(ext: string, key: string, level: string | undefined, text: string): void;
  /** `widget`: set or replace one widget. */
  widget(ext: string, widget: WidgetSpec): void;
  /** `widget_clear`. */
  widgetClear(ext: string, id: string): void;
  /** `alert` (kind `bell`). */
  alert(ext: string, kind: string, reason: string | undefined): void;
  /** `submit`: queue a prompt (already trimmed, non-empty). */
  submit(ext: string, text: string): void;
  /** `submit_slash`: run a slash command as if typed (starts with `/`). */
  submitSlash(ext: string, text: string): void;
  /** `open_panel` (spontaneous or from a command response). */
  openPanel(ext: string, panel: PanelSpec): void;
  /** `panel_render`. */
  panelRender(ext: string, render: PanelRender): void;
  /** `panel_close` from the extension. */
  panelClose(ext: string, panelId: string): void;
  /** Its process ended (crash, stop, reload): drop its status items, widgets and panels (a host may keep its notes). */
  clearExtension(ext: string): void;
}

/** A HostUi that ignores everything (CLI, benchmarks). Subclasses override what they observe. */
export class NullHostUi implements HostUi {
  readonly canAsk: boolean = false;
  ask<Q extends Question>(ext: string, question: Q, _signal: AbortSignal): Promise<Answer<Q> | undefined> {
    return Promise.reject(new NoUiError(ext, question));
  }
  notify(_ext: string, _level: NoteLevel, _message: string): void {}
  display(_ext: string, _text: string): void {}
  clearNotes(_ext: string): void {}
  status(_ext: string, _key: string, _level: string | undefined, _text: string): void {}
  widget(_ext: string, _widget: WidgetSpec): void {}
  widgetClear(_ext: string, _id: string): void {}
  alert(_ext: string, _kind: string, _reason: string | undefined): void {}
  submit(_ext: string, _text: string): void {}
  submitSlash(_ext: string, _text: string): void {}
  openPanel(_ext: string, _panel: PanelSpec): void {}
  panelRender(_ext: string, _render: PanelRender): void {}
  panelClose(_ext: string, _panelId: string): void {}
  clearExtension(_ext: string): void {}
}
