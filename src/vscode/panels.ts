/**
 * Extension panels → webviews: one `WebviewPanel` per (extension, panel id). Frames are text only (the webview
 * sets `textContent`), renders are coalesced per panel (src/ui-model/panelModel.ts), keys and sizes go back to the host as
 * `panel_key` / `panel_resize`, and a panel the user closes sends `panel_close`. Built as dist/panels.js, loaded by
 * hostUi.ts when an extension first opens a panel (ARCHITECTURE.md "Lazy bundles").
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostPanels } from '../host/api';
import type { PanelRender } from '../host/hostUi';
import { Disposable, toDisposable } from '../host/events';
import type { PanelSpec } from '../protocol/frames';
import { frameFromSpec, RenderCoalescer, type PanelFrame, type Scheduler, type WebviewMessage } from '../ui-model/panelModel';

/** What a panel shows (for tests and diagnostics). */
export interface PanelSnapshot extends PanelFrame {
  ext: string;
  id: string;
  visible: boolean;
  active: boolean;
  posts: number;
  size?: { columns: number; rows: number };
}

const VIEW_TYPE = 'zut.panel';

class PanelView extends Disposable {
  readonly coalescer: RenderCoalescer;
  size: { columns: number; rows: number } | undefined;
  /** Set when the extension (or its end) closes the panel: then no `panel_close` goes back. */
  silentClose = false;

  constructor(
    readonly ext: string,
    readonly id: string,
    readonly panel: vscode.WebviewPanel,
    frame: PanelFrame,
    scheduler: Scheduler | undefined,
    onMessage: (view: PanelView, message: unknown) => void,
  ) {
    super();
    this.coalescer = this._register(new RenderCoalescer(
      frame,
      (m, frame) => {
        const title = panelTitle(frame.title, id);
        if (title !== this.panel.title) this.panel.title = title;
        // postMessage fails only once the webview is gone (then nothing is lost: a new webview says `ready` and
        // gets the current frame whole); a post not delivered makes the next one whole too.
        try {
          this.panel.webview.postMessage(m).then(
            (delivered) => { if (!delivered) this.coalescer.onPostFailed(); },
            () => this.coalescer.onPostFailed(),
          );
        } catch {
          /* disposed */
        }
      },
      scheduler,
    ));
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => onMessage(this, m)));
  }
}

function panelTitle(title: string, id: string): string {
  return title.trim() === '' ? id : title;
}

export interface PanelSurfaceOptions {
  /**
   * panelModel.ts `WebviewMessage.safeParse`, handed in by hostUi.ts: the schema (and zod) stay in dist/extension.js,
   * so dist/panels.js carries no copy of zod.
   */
  parseMessage(raw: unknown): { success: true; data: WebviewMessage } | { success: false };
  scheduler?: Scheduler;
  log?: (message: string) => void;
}

export class PanelSurface extends Disposable {
  /** Open panels by (extension, panel id); a view leaves when its panel is disposed (by the user or by us). */
  private readonly views = new Map<string, PanelView>();
  /** The part of the host a panel talks to. */
  private host: HostPanels | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly options: PanelSurfaceOptions,
  ) {
    super();
    // Closing every panel silently disposes each view (their onDidDispose).
    this._register(toDisposable(() => {
      for (const view of [...this.views.values()]) {
        view.silentClose = true;
        view.panel.dispose();
      }
      this.views.clear();
    }));
  }

  /** Wires the host once the Manager exists; keys and sizes before that are dropped. */
  attach(host: HostPanels): void {
    this.host = host;
  }

  /** `open_panel`: create the panel, or replace the content of an open one; either way reveal it focused. */
  open(ext: string, spec: PanelSpec): void {
    const existing = this.views.get(key(ext, spec.id));
    if (existing) {
      existing.coalescer.replace(frameFromSpec(spec));
      existing.panel.reveal(undefined, false);
      return;
    }
    const frame = frameFromSpec(spec);
    const root = this.context.extensionUri;
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      panelTitle(frame.title, spec.id),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        // No retainContextWhenHidden: a hidden panel's webview is dropped, and when shown again the new webview
        // says `ready` and the coalescer replays the current frame (the webview keeps its Ctrl+M mode in getState).
        localResourceRoots: [vscode.Uri.joinPath(root, 'dist', 'media'), vscode.Uri.joinPath(root, 'media')],
      },
    );
    panel.iconPath = { light: vscode.Uri.joinPath(root, 'media', 'panel-light.svg'), dark: vscode.Uri.joinPath(root, 'media', 'panel-dark.svg') };
    panel.webview.html = this.html(panel.webview);
    const view = new PanelView(ext, spec.id, panel, frame, this.options.scheduler, (v, m) => this.onMessage(v, m));
    this.views.set(key(ext, spec.id), view);
    panel.onDidDispose(() => {
      if (this.views.get(key(ext, spec.id)) === view) this.views.delete(key(ext, spec.id));
      view.dispose();
      if (!view.silentClose) this.host?.panelClosed(ext, spec.id);
    });
  }

  /** `panel_render` for an open panel; renders for unknown panels are dropped (it may just have been closed). */
  render(ext: string, render: PanelRender): void {
    const { panel_id: _, ...rest } = render;
    this.views.get(key(ext, render.panel_id))?.coalescer.update(rest);
  }

  /** `panel_close` from the extension: close without telling it back. */
  close(ext: string, panelId: string): void {
    const view = this.views.get(key(ext, panelId));
    if (!view) return;
    view.silentClose = true;
    view.panel.dispose();
  }

  /** The extension is gone: close its panels silently. */
  clearExtension(ext: string): void {
    for (const view of [...this.views.values()]) if (view.ext === ext) this.close(ext, view.id);
  }

  snapshot(): PanelSnapshot[] {
    return [...this.views.values()].map((v) => ({
      ext: v.ext,
      id: v.id,
      ...v.coalescer.current,
      visible: v.panel.visible,
      active: v.panel.active,
      posts: v.coalescer.posts,
      size: v.size,
    }));
  }

  private onMessage(view: PanelView, raw: unknown): void {
    const parsed = this.options.parseMessage(raw);
    if (!parsed.success) {
      this.options.log?.(`panel ${view.ext}/${view.id}: ignored a malformed webview message`);
      return;
    }
    const m = parsed.data;
    switch (m.type) {
      case 'ready':
        view.coalescer.onReady();
        return;
      case 'ack':
        view.coalescer.onAck(m.seq);
        return;
      case 'resync':
        view.coalescer.onResync();
        return;
      case 'key':
        // As in zut, Esc closes the focused panel: the tab is disposed and `panel_close` goes to the extension
        // (the same path as closing the tab with the mouse or Ctrl+W).
        if (m.key === 'esc') view.panel.dispose();
        else this.host?.panelKey(view.ext, view.id, m.key, m.text);
        return;
      case 'resize':
        if (view.size?.columns === m.columns && view.size.rows === m.rows) return;
        view.size = { columns: m.columns, rows: m.rows };
        this.host?.panelResize(view.ext, view.id, m.columns, m.rows);
        return;
    }
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(18).toString('base64url');
    const root = this.context.extensionUri;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'media', 'panel.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'panel.css'));
    // No extension text goes into this HTML: the frame arrives by postMessage and is set with textContent. For
    // assistive technology (axe-core finds 0 violations: test/vscode/ui/surfaces.test.mjs) the document has a title,
    // the panel's title is its level-one heading (until the first frame, and for an untitled panel, a visually hidden
    // "zut panel"), and everything is inside the <main> landmark.
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${style.toString()}">
<title>zut panel</title>
</head>
<body>
<main id="panel">
<h1 id="title" class="visually-hidden">zut panel</h1>
<div id="lines" role="listbox" tabindex="0" aria-label="zut panel" aria-describedby="keyhelp"></div>
<footer id="footer"></footer>
<div id="tabmode" hidden>Tab moves focus (Ctrl+M)</div>
<div id="announce" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
<div id="keyhelp" class="visually-hidden">Keys go to the extension; Escape closes the panel; Ctrl+M makes Tab move focus out of the panel.</div>
<span id="measure" aria-hidden="true">MMMMMMMMMM</span>
</main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}

function key(ext: string, id: string): string {
  return JSON.stringify([ext, id]);
}
