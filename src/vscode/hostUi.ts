/**
 * `VsCodeHostUi`: the HostUi port implemented with the VS Code API. Each surface lives in its own module
 * (panels, status bar, widgets view, notes); this class only routes the host's calls to them, shows alerts, and
 * hands `submit` / `submit_slash` / notes on to the chat and commands modules through events. The panels' surface
 * (panels.ts, built as dist/panels.js) is loaded when an extension first opens a panel (lazyBundle.ts): until then
 * there is no panel to render to, close or snapshot.
 */
import * as vscode from 'vscode';
import { zutSettings } from './settingsRead';
import type { HostCatalog, HostPanels } from '../host/api';
import type { Answer, HostUi, NoteLevel, PanelRender, Question, WidgetSpec } from '../host/hostUi';
import { Disposable, Emitter, type Event } from '../host/events';
import type { PanelSpec } from '../protocol/frames';
import { NotesSurface, type NoteEvent } from './notes';
import type { NotesModelOptions } from '../ui-model/notesModel';
import { WebviewMessage, type Scheduler } from '../ui-model/panelModel';
import type * as Panels from './panels';
import { lazyBundle } from './lazyBundle';
import { QuestionSurface } from './questions';
import { StatusBarSurface } from './statusBar';
import { escapeNotificationLinks } from '../ui-model/statusModel';
import { WidgetsTree } from './widgetsTree';

export interface VsCodeHostUiOptions {
  /** Where dropped/malformed things are reported. */
  log?: (message: string) => void;
  /** Timers for panel render coalescing (tests). */
  scheduler?: Scheduler;
  /** Clock and toast window for notes (tests). */
  notes?: NotesModelOptions;
}

/** Everything the surfaces show, for the in-host tests (`zut.test.snapshot`). */
export interface HostUiSnapshot {
  status: ReturnType<StatusBarSurface['snapshot']>;
  widgets: ReturnType<WidgetsTree['snapshot']>;
  panels: Panels.PanelSnapshot[];
  toasts: number;
  alerts: { ext: string; kind: string; reason?: string; shown: boolean }[];
  submits: { ext: string; text: string }[];
  slashes: { ext: string; text: string }[];
}

export class VsCodeHostUi extends Disposable implements HostUi {
  private readonly submitted = this._register(new Emitter<{ ext: string; text: string }>());
  private readonly slashSubmitted = this._register(new Emitter<{ ext: string; text: string }>());
  /** `submit`: the chat queues it as a `@zut` request. */
  readonly onDidSubmit: Event<{ ext: string; text: string }> = this.submitted.event;
  /** `submit_slash`: the commands module runs that zut command. */
  readonly onDidSubmitSlash: Event<{ ext: string; text: string }> = this.slashSubmitted.event;
  /** Every note (`notify`, `display`): the chat shows those that arrive during a `@zut` turn. */
  readonly onDidNote: Event<NoteEvent>;

  private readonly notes: NotesSurface;
  private readonly statusBar = this._register(new StatusBarSurface());
  private readonly widgets: WidgetsTree | undefined;
  /** Made at the first `open_panel`, from dist/panels.js. */
  private panels: Panels.PanelSurface | undefined;
  private readonly makePanels: () => Panels.PanelSurface;
  private panelHost: HostPanels | undefined;
  private readonly questions = new QuestionSurface();
  readonly canAsk = true;
  /** Recent alerts/submits, bounded, for the test snapshot. */
  private readonly recent = {
    alerts: [] as HostUiSnapshot['alerts'],
    submits: [] as HostUiSnapshot['submits'],
    slashes: [] as HostUiSnapshot['slashes'],
  };

  constructor(context: vscode.ExtensionContext, options: VsCodeHostUiOptions = {}) {
    super();
    this.notes = this._register(new NotesSurface(options.notes));
    this.onDidNote = this.notes.onDidNote;
    const load = lazyBundle<typeof Panels>(context, 'panels');
    this.makePanels = () => {
      const panels = this._register(new (load().PanelSurface)(context, { parseMessage: (raw) => WebviewMessage.safeParse(raw), scheduler: options.scheduler, log: options.log }));
      if (this.panelHost) panels.attach(this.panelHost);
      return panels;
    };
    try {
      this.widgets = this._register(new WidgetsTree(this.notes.model));
      this._register(this.notes.onDidChangeNotes((ext) => this.widgets?.notesChanged(ext)));
    } catch (e) {
      // Only fails when the `zut.widgets` view is not contributed; every other surface still works.
      options.log?.(`Widgets view unavailable: ${String(e)}`);
    }
    // Test hooks for the in-host tests (a view of the surfaces, and what the chat calls); never registered for users.
    if (process.env.ZUT_TEST_HOOKS === '1' || context.extensionMode === vscode.ExtensionMode.Test) {
      this._register(vscode.commands.registerCommand('zut.test.snapshot', () => this.snapshot()));
      this._register(vscode.commands.registerCommand('zut.test.clearAllNotes', () => this.clearAllNotes()));
    }
  }

  /**
   * Connects panels to the Manager (keys, sizes, user closes), and drops the notes of an extension gone from it.
   * Call once, after the Manager exists.
   */
  attach(host: HostPanels & Pick<HostCatalog, 'extensions' | 'onDidChangeExtensions'>): void {
    this.panelHost = host;
    this.panels?.attach(host);
    this._register(
      host.onDidChangeExtensions(() => {
        const withNotes = this.notes.model.exts();
        if (withNotes.length === 0) return;
        const known = new Set(host.extensions().map((e) => e.name));
        for (const ext of withNotes) if (!known.has(ext)) this.notes.clear(ext);
      }),
    );
  }

  /** A question (e's ui.select / ui.confirm / ui.input): QuickPick, modal, InputBox; one at a time. */
  ask<Q extends Question>(ext: string, question: Q, signal: AbortSignal): Promise<Answer<Q> | undefined> {
    return this.questions.ask(ext, question, signal);
  }

  notify(ext: string, level: NoteLevel, message: string): void {
    this.notes.add(ext, level, message);
  }

  display(ext: string, text: string): void {
    this.notes.add(ext, 'info', text);
  }

  clearNotes(ext: string): void {
    this.notes.clear(ext);
  }

  /** The user sent the next `@zut` prompt: notes are one-shot (zut clears them on the next prompt). */
  clearAllNotes(): void {
    this.notes.clearAll();
  }

  status(ext: string, key: string, level: string | undefined, text: string): void {
    this.statusBar.set(ext, key, level, text);
  }

  widget(ext: string, widget: WidgetSpec): void {
    this.widgets?.setWidget(ext, widget);
  }

  widgetClear(ext: string, id: string): void {
    this.widgets?.clearWidget(ext, id);
  }

  alert(ext: string, kind: string, reason: string | undefined): void {
    const setting = zutSettings().settings.alerts;
    // Like zut's terminal bell: only worth an interruption when the user is looking elsewhere. `bell` is the only
    // kind the spec defines; others are ignored, as a host may.
    const shown = kind === 'bell' && setting === 'notify' && !vscode.window.state.focused;
    remember(this.recent.alerts, { ext, kind, reason, shown });
    if (!shown) return;
    const why = reason ? ` (${reason})` : '';
    void vscode.window.showInformationMessage(escapeNotificationLinks(`Zut: extension “${ext}” needs your attention${why}`));
  }

  submit(ext: string, text: string): void {
    remember(this.recent.submits, { ext, text });
    this.submitted.fire({ ext, text });
  }

  submitSlash(ext: string, text: string): void {
    remember(this.recent.slashes, { ext, text });
    this.slashSubmitted.fire({ ext, text });
  }

  openPanel(ext: string, panel: PanelSpec): void {
    (this.panels ??= this.makePanels()).open(ext, panel);
  }

  panelRender(ext: string, render: PanelRender): void {
    this.panels?.render(ext, render);
  }

  panelClose(ext: string, panelId: string): void {
    this.panels?.close(ext, panelId);
  }

  /**
   * Its process ended (a stop, a crash, a reload): what it shows live goes (it sends it again when it starts). Its
   * notes stay — command output the user may not have read yet; a reload for another extension's sake used to take
   * them away — until `clear_notes`, the next `@zut` prompt, or the extension is gone from the host (`attach`).
   */
  clearExtension(ext: string): void {
    this.statusBar.clearExtension(ext);
    this.widgets?.clearExtension(ext);
    this.panels?.clearExtension(ext);
  }

  /** What every surface shows right now. */
  snapshot(): HostUiSnapshot {
    return {
      status: this.statusBar.snapshot(),
      widgets: this.widgets?.snapshot() ?? [],
      panels: this.panels?.snapshot() ?? [],
      toasts: this.notes.toasts,
      alerts: [...this.recent.alerts],
      submits: [...this.recent.submits],
      slashes: [...this.recent.slashes],
    };
  }
}

function remember<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > 50) list.shift();
}
