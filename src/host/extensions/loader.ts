/**
 * Loading the Manager's extensions: discovery and the supervisors it makes (with their ports: the facts for
 * `hello_ack`, logs, failures, requests), start, the one reload path, the restart of one extension (its manifest
 * re-read), enable/disable in the manifest, the watcher's changes (restart what changed, reload when extensions
 * came or went, judged by the manifests' fingerprint: manifestSignature.ts), and stop. One operation at a time,
 * in call order; queued reloads coalesce (serialQueue.ts). The Manager delegates; consent is the Gatekeeper's
 * (gates.ts). No `vscode`.
 */
import { promises as fs } from 'node:fs';
import type { SessionContext } from '../../protocol';
import type { ManagerOptions } from './options';
import type { ExtensionLogLine, LoadReport, TraceLevel } from '../types';
import { DEFAULT_CAPS } from './caps';
import { readEExtensionsConfig } from '../disk/discoverE';
import { discover, identity, rereadManifest } from '../disk/discovery';
import type { ExtensionSet } from './extensionSet';
import { isRepositoryCode } from './consent';
import type { Gatekeeper } from './gates';
import { setManifestEnabled } from '../disk/manifest';
import { changedExtensions, manifestStamps, modifiedSince, type ManifestStamps } from '../disk/manifestSignature';
import { extensionRoots, logPathFor, projectDataDir } from '../disk/paths';
import type { HostInfo } from '../protocols';
import { SerialQueue } from './serialQueue';
import { Settling } from './settling';
import { Disposable } from '../events';
import { ExtensionSupervisor } from './supervisor';
import type { HostRequests, SupervisorDeps } from './supervisorPorts';
import type { RestartPolicy } from './supervisorState';

/** What extensions starting from now on are told, and how they are traced (the Manager's setters change it). */
export interface HostFacts {
  provider: string;
  model: string;
  /** Only for `hello_ack.session` of extensions starting later: tool calls name their own session. */
  session: SessionContext | undefined;
  trace: TraceLevel;
}

/** What the Loader needs of the Manager. */
export interface LoaderHost {
  readonly options: ManagerOptions;
  readonly restartPolicy: RestartPolicy;
  readonly set: ExtensionSet;
  readonly gates: Gatekeeper;
  readonly facts: HostFacts;
  /** Requests the extensions make of the host (extRequests.ts). */
  readonly requests: HostRequests;
  log(line: ExtensionLogLine): void;
  fail(failure: { ext: string; message: string; kind: 'load' | 'crash' | 'gave-up' }): void;
  /** A start or reload finished. */
  loaded(what: 'start' | 'reload', report: LoadReport): void;
}

export class Loader extends Disposable {
  /** Loads, reloads, restarts, consent answers and stops: one at a time, in call order; reloads coalesce. */
  private readonly ops = new SerialQueue<LoadReport>();
  /** Its starts, reloads and changes on disk under way, and who is starting: when the host is settled (settling.ts). */
  readonly settling: Settling;
  private report: LoadReport | undefined;
  /**
   * The manifests' fingerprint of the running set (manifestSignature.ts): all of it taken at a (re)load, one
   * extension's stamp at its restart.
   */
  private loadedStamps: ManifestStamps | undefined;
  /** A stop is queued: loads before it start nothing. */
  private stopPending = false;

  constructor(private readonly host: LoaderHost) {
    super();
    this.settling = this._register(new Settling(host.set));
  }

  /** Discovers and starts everything. Loads, reloads and stops run one at a time, in call order. */
  start(): Promise<LoadReport> {
    return this.settling.track(this.serial(() => this.loaded('start', this.load([]))));
  }

  /**
   * The one reload path (`@zut /reload`, "Zut: Reload Extensions", the watcher, settings): stop all, rediscover,
   * respawn. A reload requested while another is queued and not yet started shares it.
   */
  reload(): Promise<LoadReport> {
    return this.settling.track(
      this.ops.coalesce(async () => {
        const stopped = this.host.set.all.filter((s) => s.conn).map((s) => s.name);
        await this.stopAll();
        return this.loaded('reload', this.load(stopped));
      }),
    );
  }

  private async loaded(what: 'start' | 'reload', p: Promise<LoadReport>): Promise<LoadReport> {
    const report = await p;
    this.report = report;
    this.host.loaded(what, report);
    return report;
  }

  /** The last start/reload's report (load errors for the doctor). */
  lastReport(): LoadReport | undefined {
    return this.report;
  }

  /** Runs `op` after every earlier load/reload/stop has finished (so two reloads never leave a set running). */
  serial<T>(op: () => Promise<T>): Promise<T> {
    return this.ops.run(op);
  }

  /**
   * Runs `op` between host operations (install, remove: file changes the watcher will see). Afterwards the
   * manifests' fingerprint is taken again, so the watcher's events for them find nothing new. `op` must not call
   * the Manager's own serialised operations (reload, restart, …): it would wait for itself.
   */
  exclusive<T>(op: () => Promise<T>): Promise<T> {
    return this.ops.run(async () => {
      try {
        return await op();
      } finally {
        this.loadedStamps = await this.stamps();
      }
    });
  }

  private stamps(): Promise<ManifestStamps> {
    return manifestStamps(extensionRoots(this.host.options), this.host.options.extensionPaths ?? []);
  }

  /**
   * Files changed on disk (the watcher, after its quiet period): when only manifests or executables of loaded
   * extensions changed, restart just those (the restart re-reads the manifest and re-checks consent); when
   * extension directories came or went, reload if the manifests differ from what is loaded. Late or duplicate
   * events for our own changes, or for files older than the running process, find nothing new. Returns what it did.
   */
  applyChanges(paths: readonly string[]): Promise<{ reloaded: boolean; restarted: string[] }> {
    // A load while it runs: an agent's call waits for what it may start (a guard installed a moment ago).
    return this.settling.track(this.changes(paths, Date.now()));
  }

  private async changes(paths: readonly string[], asked: number): Promise<{ reloaded: boolean; restarted: string[] }> {
    // After whatever is queued (an install, a reload), so its fingerprint is the one compared.
    await this.ops.run(async () => undefined);
    const { restart, other, files } = changedExtensions(paths, this.host.set.infos(this.host.options.zutHome));
    // The whole fingerprint reads every extensions directory and manifest: only taken when an unknown path changed,
    // or a manifest outside the directories it covers. A saved manifest of a loaded extension (an author's inner
    // loop) needs only its own stamp; a saved executable, none.
    const manifestDirs = [...restart].filter(([, why]) => why === 'manifest').map(([name]) => this.host.set.find(name)?.disc.dir);
    const whole = other.length > 0 || manifestDirs.some((dir) => dir === undefined || this.loadedStamps?.has(dir) !== true);
    const now = whole ? await this.stamps() : manifestDirs.length > 0 ? await manifestStamps([], manifestDirs as string[]) : undefined;
    const manifestsChanged = whole && now !== undefined && !now.equals(this.loadedStamps);
    if (other.length > 0 && manifestsChanged) {
      await this.reload();
      return { reloaded: true, restarted: [] };
    }
    const restarted: string[] = [];
    for (const [name, why] of restart) {
      const s = this.host.set.find(name);
      // Its own manifest's stamp against the one it runs with (all of them when its directory is not one of ours).
      const dir = s?.disc.dir;
      const own = dir !== undefined && now !== undefined && now.has(dir) && this.loadedStamps?.has(dir) === true;
      if (why === 'manifest' && !(own ? now.stampOf(dir) !== this.loadedStamps?.stampOf(dir) : manifestsChanged)) continue;
      if (s?.stoppedByUser) continue; // stopped by the user: stays stopped
      // A changed executable is judged when this restart's turn comes: a process started after the change was
      // reported (the restart of another file of the same "Save All", a crash's restart) already runs it, and so does
      // one started after its files last changed (the watcher's late event, files copied in just before a reload
      // started it). A changed manifest always restarts: only a restart re-reads it (a crash's restart does not).
      const change = why === 'executable' ? { since: asked, files: files.get(name) ?? [] } : undefined;
      if (await this.restartOnce(name, change)) restarted.push(name);
    }
    return { reloaded: false, restarted };
  }

  private async load(stopped: string[]): Promise<LoadReport> {
    const { options, set, gates } = this.host;
    this.loadedStamps = await this.stamps();
    const trusted = options.isTrusted?.() ?? true;
    const found = await discover({
      folders: options.folders,
      zutHome: options.zutHome,
      explicit: options.extensionPaths,
      blockedScopes: trusted ? [] : ['project', 'explicit'],
      searchGlobal: options.globalExtensions ?? true,
      ...(options.zot && { zot: options.zot }),
      ...(options.e && { e: options.e }),
    });
    set.replace(found.map((d) => new ExtensionSupervisor(d, this.deps(d.name), !trusted && d.scope !== 'global')));
    const sups = set.all;
    await Promise.all(sups.map((s) => gates.applyGate(s)));
    gates.requestConsent(sups);
    const toStart = this.stopPending ? [] : sups.filter((s) => s.spawnable);
    await Promise.all(toStart.map((s) => s.start()));
    const errors = sups.filter((s) => s.state === 'error' && s.error).map((s) => ({ ext: s.name, message: s.error! }));
    return {
      stopped,
      loaded: toStart.map((s) => s.name),
      ready: toStart.filter((s) => s.state === 'running').map((s) => s.name),
      errors,
    };
  }

  /** The ports of the supervisor of extension `name`. */
  private deps(name: string): SupervisorDeps<ExtensionSupervisor> {
    const { options, facts, set } = this.host;
    return {
      ui: options.ui,
      logPath: logPathFor(options.zutHome, name),
      hostInfo: (s: ExtensionSupervisor): HostInfo => ({
        hostVersion: options.hostVersion,
        provider: facts.provider,
        model: facts.model,
        cwd: s.disc.folder ?? options.folders[0] ?? process.cwd(),
        extensionDir: s.disc.dir,
        dataDir: this.dataDir(s),
        canAsk: options.ui.canAsk,
        ...(s.disc.ecosystem === 'e' && options.e && { extensionsConfig: readEExtensionsConfig(options.e.home) }),
        ...(facts.session ? { session: facts.session } : {}),
      }),
      prepareSpawn: async (s: ExtensionSupervisor): Promise<void> => {
        const dir = this.dataDir(s);
        if (dir === s.disc.dir) return;
        await fs.mkdir(dir, { recursive: true, mode: 0o700 }).catch((e: unknown) => s.diagnostic(`cannot create its data_dir ${dir}: ${(e as Error).message}`));
      },
      timeouts: options.helloTimeoutMs ? { helloMs: options.helloTimeoutMs } : {},
      autoRestart: () => options.autoRestart ?? true,
      trace: () => facts.trace,
      restartPolicy: this.host.restartPolicy,
      caps: { ...DEFAULT_CAPS, ...options.caps },
      changed: () => set.changed(),
      fail: (kind, message) => this.host.fail({ ext: name, message, kind }),
      log: (line) => this.host.log(line),
      requests: this.host.requests,
      admit: (s) => this.host.gates.admit(s),
    };
  }

  /**
   * Its `hello_ack.data_dir`: zut's default (its own directory), except for the repository's code, whose state is
   * kept outside the repository so that using it never changes what its consent was given for (paths.ts).
   */
  private dataDir(s: ExtensionSupervisor): string {
    const { zutHome, folders } = this.host.options;
    return isRepositoryCode(s.disc, folders) ? projectDataDir(zutHome, identity(s.disc), s.name) : s.disc.dir;
  }

  /** Stops one extension, re-reads its manifest, and starts it again (a fresh restart budget). */
  restart(name: string): Promise<void> {
    return this.restartOnce(name, undefined).then(() => undefined);
  }

  /**
   * `restart`, except that for a change to its executable (reported at `since`, Date.now(); the changed `files`) it
   * restarts nothing when, at its turn in the queue, the extension runs a process started after the change was
   * reported or after those files last changed. Says whether it restarted.
   */
  private restartOnce(name: string, change: { since: number; files: readonly string[] } | undefined): Promise<boolean> {
    return this.serial(async () => {
      const { set, gates } = this.host;
      const s = set.find(name);
      if (!s) throw new Error(`no extension named "${name}"`);
      const at = s.state === 'running' ? s.spawnedAt : undefined;
      if (change && at !== undefined && (at > change.since || !(await modifiedSince(change.files, at)))) return false;
      await s.stop();
      // The fingerprint before the read: a manifest rewritten while this restart reads it (or right after) then
      // differs from it, and the watcher's event for that write restarts the extension again. Taken after the
      // read, it would hold the new stamp over the old content and the event would find nothing new.
      // Its own directory's stamp when the fingerprint has it (a restart reads its own manifest, not every one).
      const own = this.loadedStamps?.has(s.disc.dir) === true;
      const stamps = own ? await manifestStamps([], [s.disc.dir]) : await this.stamps();
      const m = await rereadManifest(s.disc);
      if (m.ok && m.manifest.name !== s.name) {
        // Renamed: it may now shadow or be shadowed by another extension; rediscover everything.
        await this.stopAll();
        await this.loaded('reload', this.load([]));
        return true;
      }
      // Its own stamp only: another extension's manifest changed meanwhile still differs for that one's event.
      this.loadedStamps = this.loadedStamps?.with(s.disc.dir, stamps) ?? stamps;
      s.reconfigure(m.ok ? m : { ok: false, error: `load ${s.name} (${s.disc.dir}): ${m.error}` });
      await gates.applyGate(s);
      gates.requestConsent([s]);
      if (!this.stopPending) await s.start();
      return true;
    });
  }

  /** Rewrites `enabled` in the extension's manifest, then reloads. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const s = this.host.set.find(name);
    if (!s) throw new Error(`no extension named "${name}"`);
    if (s.disc.ecosystem === 'e') throw new Error(`${s.name} is an e extension (${s.disc.manifestPath}): it has no manifest to enable or disable; use Disable (Workspace) or remove it`);
    await setManifestEnabled(s.disc.dir, enabled);
    await this.reload();
  }

  /**
   * Graceful shutdown of every child, after the operations queued before it. Starts in progress are given up at
   * once (their children killed), and a load that runs before this stop starts nothing: a stop never waits for a
   * start deadline.
   */
  stop(): Promise<void> {
    this.stopPending = true;
    for (const s of this.host.set.all) s.abortStart();
    return this.serial(async () => {
      this.stopPending = false;
      await this.stopAll();
    });
  }

  private async stopAll(): Promise<void> {
    await Promise.all(this.host.set.all.map((s) => s.stop()));
  }
}
