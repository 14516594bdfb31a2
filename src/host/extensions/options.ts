/**
 * How the Manager is built: the folders and homes it discovers extensions in, the UI port, the deadlines, caps,
 * restart policy, tracing and consent. The loader and the gates read it; api.ts re-exports it.
 */
import type { HostUi } from '../hostUi';
import type { EditorToolPort } from '../editorToolPort';
import type { TraceLevel } from '../types';
import type { CapLimits } from './caps';
import type { ConsentOptions } from './consent';

/** How the Manager is built (manager.ts). Times in milliseconds; omitted = the spec's defaults. */
export interface ManagerOptions {
  /** Workspace folders, in order; each one's `.zut/extensions` is scanned. */
  folders: string[];
  /** `$ZUT_HOME` (see paths.ts `resolveZutHome`). Logs go to `<zutHome>/logs`. */
  zutHome: string;
  /** One-run extension directories (zut's `--ext`); they win over project and global. */
  extensionPaths?: string[];
  /** False: do not load `$ZUT_HOME/extensions` (logs still go to `<zutHome>/logs`). Default true. */
  globalExtensions?: boolean;
  /** `zut.compat.zot`: also load zot extensions (`.zot/extensions`, `<home>/extensions`; home = `$ZOT_HOME`). */
  zot?: { home: string };
  /** `zut.compat.e`: also load e extensions (`.e/extensions`, `<home>/extensions`; home = `~/.e`). */
  e?: { home: string };
  ui: HostUi;
  /** The editor's own tools a zot extension's `call_tool` may name (VS Code's); none where there is no editor. */
  editorTools?: EditorToolPort;
  /** Sent as `hello_ack.zut_version`. */
  hostVersion: string;
  provider?: string;
  model?: string;
  /** False = untrusted workspace: project-local and explicit extensions are `blocked`, not spawned. */
  isTrusted?: () => boolean;
  toolTimeoutMs?: number;
  commandTimeoutMs?: number;
  interceptTimeoutMs?: number;
  /** The `hello` deadline (`zut.startTimeoutSeconds`; default `DEFAULT_START_TIMEOUT_MS`, 60 s). */
  helloTimeoutMs?: number;
  /** Per-extension caps (default: limits.ts); tests lower them. */
  caps?: Partial<CapLimits>;
  /** Automatic restarts after a crash (default true): up to 4, none after the 5th crash within 3 minutes. */
  autoRestart?: boolean;
  trace?: TraceLevel;
  /**
   * Where what is known of each extension as a guard is kept between processes (guardMemory.ts; in a private
   * directory); omitted: in memory only. The hook hosts give one.
   */
  guardMemoryFile?: string;
  /** Consent for project-local code and workspace-local choices (consent.ts); omitted = none asked (CLI). */
  consent?: ConsentOptions;
}
