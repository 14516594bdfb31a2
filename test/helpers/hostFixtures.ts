/** Builders for host tests: temp zut homes and extension directories around the fixtures in test/fixtures/host. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ManagerOptions } from '../../src/host/api';
import type { WorkspaceChoices } from '../../src/host/extensions/consent';
import type { EditorToolInfo, EditorToolPort } from '../../src/host/editorToolPort';
import type { ToolResult } from '../../src/host/types';
import { NoUiError, type Answer, type HostUi, type NoteLevel, type PanelRender, type Question, type WidgetSpec } from '../../src/host/hostUi';
import { Manager } from '../../src/host/manager';
import { tempDir } from './temp';
import type { PanelSpec } from '../../src/protocol';
import { writeShExtension } from './fakeExtension';

export const FIXTURES = path.resolve(__dirname, '../fixtures/host');
export const NODE_FIXTURE = path.join(FIXTURES, 'fixture.js');

export { cleanupTemps, tempDir } from './temp';
export { alive, until } from './until';

/** Writes `<root>/<dir>/extension.json`; returns the extension directory. */
export function writeExt(root: string, dir: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const d = path.join(root, dir);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, 'extension.json'), JSON.stringify(manifest, null, 2));
  for (const [f, c] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
    fs.writeFileSync(path.join(d, f), c, { mode: 0o755 });
  }
  return d;
}

/** An extension running the Node fixture with `cfg` (see fixture.js). */
export function nodeExt(root: string, cfg: Record<string, unknown> & { name: string }, extra: Record<string, unknown> = {}): string {
  return writeExt(root, cfg.name, { name: cfg.name, version: '1.0.0', exec: process.execPath, args: [NODE_FIXTURE, JSON.stringify(cfg)], ...extra });
}

/**
 * A sh extension (protocol v2; zot's v2 hello is zut's) that says hello (no capabilities) and ready, then waits for
 * `shutdown`: `<root>/<name>/run.sh`; returns its directory. `version`: its hello's (1.0.0); `comment`: a `# comment`
 * line after the shebang, a line a test can edit to change the script's content.
 */
export function shExt(root: string, name: string, o: { version?: string; comment?: string } = {}): string {
  return writeShExtension(root, name, o);
}

/** An in-memory workspace state (the consent answers and workspace choices VS Code keeps in workspaceState). */
export class MemoryChoices implements WorkspaceChoices {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  set(key: string, value: unknown): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

/** A zut home with an `extensions` dir. */
export function zutHome(): { home: string; exts: string } {
  const home = tempDir('zut-home-');
  const exts = path.join(home, 'extensions');
  fs.mkdirSync(exts, { recursive: true });
  return { home, exts };
}

const managers: Manager[] = [];

/**
 * A fresh project (`projectExts`: its `.zut/extensions`) and zut home (`exts`), a RecordingUi, and `make(options)`
 * building a Manager over them with `defaults` then `options` (hostVersion 9.9.9 unless given). Every Manager made
 * is stopped by `stopManagers()` (call it in afterEach).
 */
export function managerFixture(defaults: Partial<ManagerOptions> = {}, prefix = 'zut-project-') {
  const z = zutHome();
  const project = tempDir(prefix);
  const ui = new RecordingUi();
  const make = (more: Partial<ManagerOptions> = {}): Manager => {
    return keepManager(new Manager({ folders: [project], zutHome: z.home, ui, hostVersion: '9.9.9', ...defaults, ...more }));
  };
  return { ...z, project, projectExts: path.join(project, '.zut', 'extensions'), ui, make };
}

/** Hands `m` to `stopManagers` (call that in afterEach); returns it. */
export function keepManager(m: Manager): Manager {
  managers.push(m);
  return m;
}

/** Stops and disposes every Manager `managerFixture` made or `keepManager` was given (and forgets them). */
export async function stopManagers(): Promise<void> {
  const all = managers.splice(0);
  await Promise.all(all.map((m) => m.stop()));
  for (const m of all) m.dispose();
}

export type UiCall = { method: string; ext: string; args: unknown[] };

/** A HostUi that records every call. */
export class RecordingUi implements HostUi {
  readonly calls: UiCall[] = [];
  private rec(method: string, ext: string, ...args: unknown[]): void {
    this.calls.push({ method, ext, args });
  }
  of(method: string): UiCall[] {
    return this.calls.filter((c) => c.method === method);
  }
  readonly canAsk = true;
  /** Answers for `ask`, taken in order; none left: the question is refused as by a host without a UI. */
  readonly answers: unknown[] = [];
  ask<Q extends Question>(ext: string, q: Q, _signal: AbortSignal): Promise<Answer<Q> | undefined> {
    this.rec('ask', ext, q);
    if (this.answers.length === 0) return Promise.reject(new NoUiError(ext, q));
    return Promise.resolve(this.answers.shift() as Answer<Q> | undefined);
  }
  notify(ext: string, level: NoteLevel, message: string): void { this.rec('notify', ext, level, message); }
  display(ext: string, text: string): void { this.rec('display', ext, text); }
  clearNotes(ext: string): void { this.rec('clearNotes', ext); }
  status(ext: string, key: string, level: string | undefined, text: string): void { this.rec('status', ext, key, level, text); }
  widget(ext: string, w: WidgetSpec): void { this.rec('widget', ext, w); }
  widgetClear(ext: string, id: string): void { this.rec('widgetClear', ext, id); }
  alert(ext: string, kind: string, reason: string | undefined): void { this.rec('alert', ext, kind, reason); }
  submit(ext: string, text: string): void { this.rec('submit', ext, text); }
  submitSlash(ext: string, text: string): void { this.rec('submitSlash', ext, text); }
  openPanel(ext: string, panel: PanelSpec): void { this.rec('openPanel', ext, panel); }
  panelRender(ext: string, r: PanelRender): void { this.rec('panelRender', ext, r); }
  panelClose(ext: string, id: string): void { this.rec('panelClose', ext, id); }
  clearExtension(ext: string): void { this.rec('clearExtension', ext); }
}

/** An editor's tools for the host (ManagerOptions `editorTools`: VS Code's `vscode.lm.tools`), recording what ran. */
export class FakeEditorTools implements EditorToolPort {
  readonly ran: { name: string; input: Record<string, unknown> }[] = [];
  constructor(
    private readonly list: { name: string; description?: string }[],
    private readonly answer: (name: string, input: Record<string, unknown>) => ToolResult['content'] = (name) => [{ type: 'text', text: `no editor tool ${name}` }],
  ) {}
  tools(): readonly EditorToolInfo[] {
    return this.list.map((t) => ({ name: t.name, description: t.description ?? '' }));
  }
  invoke(name: string, input: Record<string, unknown>, _signal: AbortSignal): Promise<ToolResult> {
    this.ran.push({ name, input });
    return Promise.resolve({ ext: 'vscode', content: this.answer(name, input), isError: false });
  }
}
