/**
 * The host under every shell: a Manager built from the one recipe (recipe.ts), the change loop every watcher feeds
 * (changes.ts; `watchHomes` adds the headless `fs.watch` of the extension homes: homesWatch.ts), the first start
 * (`started`, `startWithin`) and settling, and the lifecycle: `shutdown` stops watching, stops the extensions
 * (shutdown → grace → SIGTERM → SIGKILL; starts in progress given up) and disposes everything, once; a `dispose`
 * without it starts the stop and does not wait. The window, the warm and per-call hook hosts, `zut-host mcp` and the
 * CLI's one-shot verbs are thin shells over it. VS Code-free.
 */
import type { ManagerOptions } from '../host/api';
import type { LoadReport } from '../host/types';
import { Disposable, type IDisposable } from '../host/events';
import { Manager } from '../host/manager';
import { ChangeLoop } from './changes';
import { HomesWatch } from './homesWatch';
import { hostRecipe, watchedHomes, type HostChoices, type ShellKind } from './recipe';

/** Where the runtime says what it did (the window's output channel); the headless shells give none. */
export interface RuntimeLog {
  info(message: string): void;
  error(message: string): void;
}

const SILENT: RuntimeLog = { info: () => undefined, error: () => undefined };

export class HostRuntime extends Disposable {
  readonly manager: Manager;
  /** The Manager's options (the recipe's object, read at every (re)load: a shell may change them, then reload). */
  readonly options: ManagerOptions;
  /** The one watch → quiet period → applyChanges loop: every watcher reports here. */
  readonly changes: ChangeLoop;
  /** The first start's report, once `start` ran (pending until then); rejects if that start failed. */
  readonly started: Promise<LoadReport>;
  private begin!: (p: Promise<LoadReport>) => void;
  private first: Promise<LoadReport> | undefined;
  private homes: HomesWatch | undefined;
  private ending: Promise<void> | undefined;

  constructor(
    kind: ShellKind,
    choices: HostChoices,
    private readonly log: RuntimeLog = SILENT,
  ) {
    super();
    this.options = hostRecipe(kind, choices);
    this.manager = new Manager(this.options);
    // Disposed last (registered first; `_register`ed things go in reverse order), after the stop began.
    this._register({ dispose: () => this.manager.dispose() });
    this._register({ dispose: () => void (this.ending ?? this.manager.stop()).catch(() => undefined) });
    this.started = new Promise((resolve) => (this.begin = resolve));
    void this.started.catch((e: unknown) => log.error(`Start failed: ${errorText(e)}`));
    this._register(this.manager.onDidLoad(({ what, report }) => this.logReport(what, report)));
    this.changes = this._register(
      new ChangeLoop({
        host: this.manager,
        applied: ({ paths, saved, reloaded, restarted }) => {
          const how = saved ? 'saved in the editor' : 'changed on disk';
          if (reloaded) log.info(`Reloaded zut extensions (${paths[0]} ${how})`);
          for (const n of restarted) log.info(`Restarted ${n} (its manifest or executable ${how})`);
        },
        failed: (e) => log.error(`Applying changes on disk failed: ${errorText(e)}`),
      }),
    );
  }

  /** Discovers and starts the extensions, once: later calls get the same start. */
  start(): Promise<LoadReport> {
    if (!this.first) {
      this.first = this.manager.start();
      this.begin(this.first);
    }
    return this.first;
  }

  /** A shell's own thing (a subscription, a server), disposed with the runtime: after the extensions stopped. */
  own<T extends IDisposable>(d: T): T {
    return this._register(d);
  }

  /** Copies the extensions' stderr and the host's lines about them to `write` (the CLI's `--verbose`), one line each. */
  copyLogs(write: (line: string) => void): void {
    this._register(
      this.manager.onDidLog((l) => {
        if (l.kind === 'stderr' || l.kind === 'host') write(`[${l.ext}] ${l.text}`);
      }),
    );
  }

  /** Starts, and resolves when the start is over or at `deadline` (ms since epoch), whichever is first; never rejects. */
  async startWithin(deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.start().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
  }

  /** Watches the extension homes with `fs.watch` (the headless hosts; the window's VS Code watchers feed `changes`). */
  watchHomes(): void {
    this.homes ??= this._register(new HomesWatch(this.changes, watchedHomes(this.options)));
  }

  /** A home made anew is watched again, and whatever changed is applied now (before a hook host answers a call). */
  checkChanges(): void {
    this.homes?.check();
  }

  /** The Manager's queued, coalesced reload, logged with `reason`. */
  reload(reason: string): Promise<LoadReport> {
    this.log.info(`Reloading zut extensions (${reason})`);
    return this.manager.reload().catch((e: unknown) => {
      this.log.error(`Reload failed: ${errorText(e)}`);
      throw e;
    });
  }

  /** Stops watching, stops every extension (a start in progress is given up), then disposes everything; once. */
  shutdown(): Promise<void> {
    return (this.ending ??= (async () => {
      this.homes?.dispose();
      this.changes.dispose();
      await this.manager.stop();
      await this.first?.catch(() => undefined);
      this.dispose();
    })());
  }

  /** Logs the outcome of every start/reload, whoever asked for it (palette, chat, watcher, settings). */
  private logReport(what: 'start' | 'reload', r: LoadReport): void {
    this.log.info(`Loaded ${r.loaded.length} extension(s); ready: ${r.ready.join(', ') || 'none'}${what === 'reload' ? ' (reload)' : ''}`);
    for (const e of r.errors) this.log.error(`${e.ext}: ${e.message}`);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
