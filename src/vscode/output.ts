/**
 * Logs and failure notifications. One LogOutputChannel per extension (`Zut: <name>`) carries its stderr, host
 * messages about it and, when `zut.trace` is on, every frame in and out; the "Zut" channel carries the host's
 * own log. A load error, crash or given-up restart shows one error notification with "Show Log" and "Restart".
 */
import * as vscode from 'vscode';
import type { HostCatalog, HostLogs } from '../host/api';
import type { ExtensionLogLine } from '../host/types';
import { Disposable, DisposableMap } from '../host/events';
import { escapeNotificationLinks } from '../ui-model/statusModel';
import { FAILURE_TOAST_QUIET_MS as QUIET_MS } from '../protocol/limits';

/** The channel name of one extension. */
function extensionChannelName(ext: string): string {
  return `Zut: ${ext}`;
}

/** A log line as written to the extension's channel: frames get a direction arrow (← from the extension). */
function formatLogLine(line: ExtensionLogLine): string {
  switch (line.kind) {
    case 'in':
      return `← ${line.text}`;
    case 'out':
      return `→ ${line.text}`;
    case 'host':
      return `[host] ${line.text}`;
    case 'stderr':
      return line.text;
  }
}


const FAIL_WORDS = { load: 'failed to load', crash: 'crashed', 'gave-up': 'keeps crashing; automatic restarts stopped' } as const;

/** Per-extension log channels and failure notifications; registers `zut.showLog`. */
export class ExtensionOutput extends Disposable {
  private readonly channels = new DisposableMap<string, vscode.LogOutputChannel>();
  /**
   * When each extension's last failure notification was shown: a crash loop gives one notification per
   * QUIET_MS (every failure is in the logs), and an ignored notification does not silence later failures.
   */
  private readonly notified = new Map<string, number>();

  constructor(
    private readonly host: HostCatalog & HostLogs,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(host.onDidLog((line) => this.append(line)));
    this._register(host.onDidFail((f) => this.failed(f.ext, f.message, f.kind)));
    this._register(vscode.commands.registerCommand('zut.showLog', (target?: unknown) => this.show(nameOf(target))));
    this._register(this.channels);
  }

  /** The channel of `ext`, created on first use. */
  channel(ext: string): vscode.LogOutputChannel {
    let c = this.channels.get(ext);
    if (!c) {
      c = vscode.window.createOutputChannel(extensionChannelName(ext), { log: true });
      this.channels.set(ext, c);
    }
    return c;
  }

  /** Shows an extension's channel, or lets the user pick one (the host's "Zut" channel first). */
  async show(ext?: string): Promise<void> {
    if (ext) {
      this.channel(ext).show(true);
      return;
    }
    const names = [...new Set([...this.host.extensions().map((e) => e.name), ...this.channels.keys()])].sort();
    if (names.length === 0) {
      this.log.show(true);
      return;
    }
    const pick = await vscode.window.showQuickPick(
      [{ label: 'Zut', description: 'host log', name: '' }, ...names.map((n) => ({ label: extensionChannelName(n), description: '', name: n }))],
      { placeHolder: 'Show which log?' },
    );
    if (!pick) return;
    if (pick.name === '') this.log.show(true);
    else this.channel(pick.name).show(true);
  }

  private append(line: ExtensionLogLine): void {
    // Everything at info level: frames were asked for with zut.trace, and a trace level would hide them.
    this.channel(line.ext).info(formatLogLine(line));
  }

  private failed(ext: string, message: string, kind: keyof typeof FAIL_WORDS): void {
    this.log.error(message);
    this.channel(ext).error(message);
    const last = this.notified.get(ext);
    // Giving up is always worth saying, even right after a crash notification.
    if (kind !== 'gave-up' && last !== undefined && Date.now() - last < QUIET_MS) return;
    this.notified.set(ext, Date.now());
    const text = escapeNotificationLinks(`Zut extension "${ext}" ${FAIL_WORDS[kind]}: ${message}`);
    const shown = vscode.window.showErrorMessage(text, 'Show Log', 'Restart');
    void Promise.resolve(shown)
      .then(async (choice) => {
        if (choice === 'Show Log') await this.show(ext);
        // Through the command, so the restart waits for any reload in progress (management.ts).
        else if (choice === 'Restart') await vscode.commands.executeCommand('zut.restartExtension', ext);
      })
      .catch((e: unknown) => {
        this.log.error(`Restart of ${ext} failed: ${e instanceof Error ? e.message : String(e)}`);
      });
  }
}

/** The extension name in a command argument: a string, or a tree node carrying `info.name`. */
export function nameOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (typeof target === 'object' && target !== null) {
    const info = (target as { info?: { name?: unknown } }).info;
    if (info && typeof info.name === 'string') return info.name;
  }
  return undefined;
}
