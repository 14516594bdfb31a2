/**
 * The supervised extensions of one Manager, in load order, as its parts share them: lookup by name, the command
 * and tool registry index (registry.ts; rebuilt on next use after a change), the deferred tools a `tool_result`
 * activated, the change notification (once per burst), and the ExtensionInfo snapshots. No `vscode`.
 */
import { DisposableMap, Emitter } from '../events';
import { logPathFor } from '../disk/paths';
import { buildIndex, type RegistryIndex } from './registry';
import type { ExtensionSupervisor } from './supervisor';
import type { ExtensionInfo } from '../types';

export class ExtensionSet {
  private sups: ExtensionSupervisor[] = [];
  private indexCache: RegistryIndex<ExtensionSupervisor> | undefined;
  /** Deferred tools named in `activate_tools` (lower case): offered to the model from then on. */
  private readonly activated = new Set<string>();
  private changePending = false;
  private readonly changeEmitter = new Emitter<void>();
  /** Each supervisor's `onDidChangeState` listener, for as long as it is in the set. */
  private readonly listening = new DisposableMap<ExtensionSupervisor>();
  /**
   * What the views show of the set changed (its members, a state, registrations, diagnostics): once per burst (the
   * event carries no data). It hears each supervisor's `onDidChangeState` and its `deps.changed()` (loader.ts).
   */
  readonly onDidChange = this.changeEmitter.event;

  /** Every supervised extension (shadowed, stopped and failed ones too), in load order. */
  get all(): readonly ExtensionSupervisor[] {
    return this.sups;
  }

  /** A (re)load's supervisors replace the set (the old ones, stopped, are released). */
  replace(sups: ExtensionSupervisor[]): void {
    for (const s of this.sups) {
      if (sups.includes(s)) continue;
      this.listening.deleteAndDispose(s);
      s.dispose();
    }
    for (const s of sups) if (!this.listening.has(s)) this.listening.set(s, s.onDidChangeState(() => this.changed()));
    this.sups = sups;
    this.changed();
  }

  /** The extension of that name: the running one first, then the one not shadowed, then any. */
  find(name: string): ExtensionSupervisor | undefined {
    const n = name.toLowerCase();
    const same = this.sups.filter((s) => s.name.toLowerCase() === n);
    return same.find((s) => s.conn) ?? same.find((s) => s.availability !== 'shadowed') ?? same[0];
  }

  /**
   * Something the views show changed (a state, registrations, diagnostics). The index is rebuilt on next use;
   * listeners hear once per burst (a chunk of registration frames is one event), since the event carries no data.
   */
  changed(): void {
    this.indexCache = undefined;
    if (this.changePending) return;
    this.changePending = true;
    queueMicrotask(() => {
      this.changePending = false;
      this.changeEmitter.fire();
    });
  }

  /** The live extensions' commands and tools, and who owns each name. */
  get index(): RegistryIndex<ExtensionSupervisor> {
    return (this.indexCache ??= buildIndex(this.sups, this.activated));
  }

  /** A `tool_result.activate_tools`: the registered tools among `names` are offered to the model from now on. */
  activate(names: readonly string[]): void {
    for (const t of names) if (this.index.toolOwner.has(t.toLowerCase())) this.activated.add(t.toLowerCase());
    this.changed();
  }

  /** Whether any live extension subscribes to `event`. */
  hasSubscribers(event: string): boolean {
    return this.sups.some((s) => s.live && s.events.has(event));
  }

  /** Whether any live extension intercepts `event`. */
  hasInterceptors(event: string): boolean {
    return this.sups.some((s) => s.live && s.intercepts.has(event));
  }

  /** A snapshot of every extension (logs under `zutHome`). */
  infos(zutHome: string): ExtensionInfo[] {
    const idx = this.index;
    return this.sups.map((s) => ({
      name: s.name,
      dir: s.disc.dir,
      manifestPath: s.disc.manifestPath,
      scope: s.disc.scope,
      folder: s.disc.folder,
      ...(s.disc.ecosystem && { ecosystem: s.disc.ecosystem }),
      version: s.manifest?.version ?? s.conn?.hello?.version,
      description: s.manifest?.description,
      language: s.manifest?.language,
      exec: s.manifest?.exec,
      args: s.manifest?.args,
      state: s.state,
      error: s.error,
      shadowedBy: s.disc.shadowedBy,
      logPath: logPathFor(zutHome, s.name),
      diagnostics: [...s.diagnostics, ...(idx.conflicts.get(s.name) ?? [])],
      readyMode: s.conn?.readyMode,
      capabilities: s.conn?.hello?.capabilities ?? [],
      commands: idx.commands.filter((c) => c.ext === s.name),
      tools: idx.tools.filter((t) => t.ext === s.name),
      subscriptions: [...s.events],
      interceptions: [...s.intercepts],
      skills: [...s.skills],
      pid: s.conn?.pid,
      restarts: s.restarts,
      pending: s.conn?.pendingCount ?? 0,
      ...(s.conn?.heldCount ? { held: s.conn.heldCount } : {}),
      startingSince: s.startingSince,
      fingerprint: s.fingerprint,
      disabledInWorkspace: s.gate === 'workspace-disabled',
      ...(s.protocol ? { protocol: s.protocol } : {}),
    }));
  }

  dispose(): void {
    this.listening.dispose();
    for (const s of this.sups) s.dispose();
    this.changeEmitter.dispose();
  }
}
