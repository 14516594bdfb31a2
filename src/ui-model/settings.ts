/**
 * The `zut.*` settings, validated with zod. Imports no `vscode`: the adapter hands in a getter over
 * `workspace.getConfiguration('zut')`, so parsing and path resolution are unit-testable.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../protocol/lazySchema';
import type { TraceLevel } from '../host/types';
import type { ConsentMode } from '../host/extensions/consent';
import type { EditorToolsSetting } from '../host/chat/editorTools';
import { DEFAULT_START_TIMEOUT_MS } from '../protocol/limits';
import { agentToolsViaSchema, type AgentToolsVia } from './agentRoute';

/** Every `zut.*` setting after validation (invalid values fall back to the default, with a problem reported). */
export interface ZutSettings {
  /** `zut.home`: `$ZUT_HOME` override; "" = resolve from the environment. */
  home: string;
  /** `zut.extensionPaths`: one-run extension directories (zut's `--ext`), which win over installed ones. */
  extensionPaths: string[];
  /** `zut.toolTimeoutSeconds`: the reply deadline of non-interactive tools. */
  toolTimeoutSeconds: number;
  /** `zut.trace`: frames in and out to each extension's log channel. */
  trace: TraceLevel;
  /** `zut.autoRestart`: restart crashed extensions (bounded by the Manager's policy). */
  autoRestart: boolean;
  /** `zut.alerts`: `notify` shows extension alerts, `off` drops them. */
  alerts: 'notify' | 'off';
  /** `zut.notes.notifications`: `warnings` also notifies warning/error notes; `off` keeps them in the view. */
  notesNotifications: 'warnings' | 'off';
  /** `zut.chat.maxRounds`: tool rounds per `@zut` request. */
  chatMaxRounds: number;
  /** `zut.chat.editorTools`: VS Code's own tools `@zut` offers: `all`, `none` or these names. */
  chatEditorTools: EditorToolsSetting;
  /** `zut.agentTools.enabled`: offer zut tools to VS Code's agent mode (an MCP server of ours). */
  agentToolsEnabled: boolean;
  /** `zut.agentTools.exclude`: zut tool names never offered to agent mode (case-insensitive). */
  agentToolsExclude: string[];
  /** `zut.agentTools.via`: how agent mode gets zut tools: our MCP server provider, zut's agent plugin, or `auto` (agentRoute.ts). */
  agentToolsVia: AgentToolsVia;
  /** `zut.startTimeoutSeconds`: how long an extension may take to send `hello`. */
  startTimeoutSeconds: number;
  /** `zut.projectExtensions.consent` (application scope): `ask` per extension, or Workspace Trust alone. */
  consentMode: ConsentMode;
  /** `zut.compat.zot`: also run zot extensions (`.zot/extensions`, `$ZOT_HOME/extensions`). */
  compatZot: boolean;
  /** `zut.compat.e`: also run e extensions (`.e/extensions`, `~/.e/extensions`). */
  compatE: boolean;
}

/** Schema and default of each setting, keyed by its name under `zut.`. */
const fields = {
  home: { schema: lazySchema(() => z.string()), default: '' },
  extensionPaths: { schema: lazySchema(() => z.array(z.string())), default: [] as string[] },
  toolTimeoutSeconds: { schema: lazySchema(() => z.number().positive().max(86_400)), default: 60 },
  trace: { schema: lazySchema(() => z.enum(['off', 'messages', 'verbose'])), default: 'off' as TraceLevel },
  autoRestart: { schema: lazySchema(() => z.boolean()), default: true },
  alerts: { schema: lazySchema(() => z.enum(['notify', 'off'])), default: 'notify' as const },
  'notes.notifications': { schema: lazySchema(() => z.enum(['warnings', 'off'])), default: 'warnings' as const },
  'chat.maxRounds': { schema: lazySchema(() => z.number().int().min(1).max(1000)), default: 32 },
  'chat.editorTools': {
    schema: lazySchema(() => z.union([z.enum(['all', 'none']), z.array(z.string().trim().min(1))])),
    default: 'all' as EditorToolsSetting,
  },
  'agentTools.enabled': { schema: lazySchema(() => z.boolean()), default: true },
  'agentTools.exclude': { schema: lazySchema(() => z.array(z.string())), default: [] as string[] },
  'agentTools.via': { schema: agentToolsViaSchema, default: 'auto' as AgentToolsVia },
  startTimeoutSeconds: { schema: lazySchema(() => z.number().positive().max(86_400)), default: DEFAULT_START_TIMEOUT_MS / 1000 },
  'projectExtensions.consent': { schema: lazySchema(() => z.enum(['ask', 'trustedWorkspace'])), default: 'ask' as ConsentMode },
  'compat.zot': { schema: lazySchema(() => z.boolean()), default: true },
  'compat.e': { schema: lazySchema(() => z.boolean()), default: true },
} as const;

/** Settings whose change needs a reload: the discovery inputs (the Manager reads the others live). */
export const RELOAD_KEYS = ['home', 'extensionPaths', 'projectExtensions.consent', 'compat.zot', 'compat.e'] as const;

/**
 * Whether the discovery inputs (RELOAD_KEYS) differ between two readings. A configuration event can name a key whose
 * value did not change (a settings file rewritten, a value set to what it was): a reload restarts every extension,
 * so it runs only for a real difference.
 */
export function reloadInputsDiffer(a: ZutSettings, b: ZutSettings): boolean {
  const inputs = (s: ZutSettings) => JSON.stringify([s.home, s.extensionPaths, s.consentMode, s.compatZot, s.compatE]);
  return inputs(a) !== inputs(b);
}

/**
 * Settings read from the user's own settings only (issue 20 point 1): they decide which code runs without consent
 * (`zut.extensionPaths` never asks, `zut.home` holds the global extensions), so a repository's
 * `.vscode/settings.json` or a folder's settings must not set them. Their workspace and folder values are ignored.
 */
export const USER_ONLY_KEYS: readonly string[] = ['home', 'extensionPaths'];

/** What `WorkspaceConfiguration.inspect(key)` gives (the parts read here). */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The getter `readSettings` takes, over a configuration: the effective value of each setting, except the
 * user-only ones, read from the user's settings alone. Each user-only setting a workspace or folder sets is
 * reported to `ignored` (`zut.extensionPaths`), so the adapter can say it was not applied.
 */
export function userScopedGetter(
  config: { get(key: string): unknown; inspect(key: string): InspectedSetting | undefined },
  ignored: string[] = [],
): (key: string) => unknown {
  return (key) => {
    if (!USER_ONLY_KEYS.includes(key)) return config.get(key);
    const i = config.inspect(key);
    if (i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined) ignored.push(`zut.${key}`);
    return i?.globalValue;
  };
}

export interface SettingsRead {
  settings: ZutSettings;
  /** One line per invalid value: `zut.trace: Invalid option… (using "off")`. */
  problems: string[];
}

/** Whether `raw` is the default `d` itself: the same primitive, or an empty list where the default is one. */
const isDefault = (raw: unknown, d: unknown): boolean =>
  raw === d || (Array.isArray(raw) && raw.length === 0 && Array.isArray(d) && d.length === 0);

/**
 * Reads and validates every `zut.*` setting. `get(key)` returns the raw value (undefined = unset).
 * An invalid value never throws: the default is used and a problem line says so.
 */
export function readSettings(get: (key: string) => unknown): SettingsRead {
  const problems: string[] = [];
  const pick = <K extends keyof typeof fields>(key: K): (typeof fields)[K]['default'] => {
    const f = fields[key];
    const raw = get(key);
    // Unset (VS Code returns package.json's default then, which is `fields`' default: settings.test.ts holds them
    // equal): nothing to check, so no schema is built at activation (issue 41).
    if (raw === undefined || raw === null || isDefault(raw, f.default)) return f.default;
    const r = f.schema.safeParse(raw);
    if (r.success) return r.data as (typeof fields)[K]['default'];
    const why = r.error.issues.map((i) => i.message).join('; ');
    problems.push(`zut.${key}: ${why} (using ${JSON.stringify(f.default)})`);
    return f.default;
  };
  return {
    settings: {
      home: pick('home').trim(),
      extensionPaths: pick('extensionPaths')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
      toolTimeoutSeconds: pick('toolTimeoutSeconds'),
      trace: pick('trace'),
      autoRestart: pick('autoRestart'),
      alerts: pick('alerts'),
      notesNotifications: pick('notes.notifications'),
      chatMaxRounds: pick('chat.maxRounds'),
      chatEditorTools: pick('chat.editorTools'),
      agentToolsEnabled: pick('agentTools.enabled'),
      agentToolsExclude: pick('agentTools.exclude')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
      agentToolsVia: pick('agentTools.via'),
      startTimeoutSeconds: pick('startTimeoutSeconds'),
      consentMode: pick('projectExtensions.consent'),
      compatZot: pick('compat.zot'),
      compatE: pick('compat.e'),
    },
    problems,
  };
}

/** `~` and `~/x` → the home directory. Other paths are returned unchanged. */
export function expandHome(p: string, homedir: string = os.homedir()): string {
  if (p === '~') return homedir;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(homedir, p.slice(2));
  return p;
}

/**
 * The `$ZUT_HOME` to use: the setting (with `~` expanded; relative = relative to the first folder)
 * or, when empty, `fallback()` (paths.ts `resolveZutHome`).
 */
export function effectiveZutHome(
  setting: string,
  folders: readonly string[],
  fallback: () => string,
  homedir: string = os.homedir(),
): string {
  if (setting === '') return fallback();
  return absolutize(expandHome(setting, homedir), folders, homedir);
}

/**
 * `zut.extensionPaths` as absolute, de-duplicated directories: `~` expanded, relative paths resolved
 * against the first workspace folder (or the home directory when there is none).
 */
export function resolveExtensionPaths(
  paths: readonly string[],
  folders: readonly string[],
  homedir: string = os.homedir(),
): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const abs = absolutize(expandHome(p, homedir), folders, homedir);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

function absolutize(p: string, folders: readonly string[], homedir: string): string {
  return path.isAbsolute(p) ? path.normalize(p) : path.resolve(folders[0] ?? homedir, p);
}

/** True when the change event touches one of `keys` (each under `zut.`). */
export function affectsAny(affects: (section: string) => boolean, keys: readonly string[]): boolean {
  return keys.some((k) => affects(`zut.${k}`));
}
