/**
 * VS Code-free model of the Extensions view: one row per extension (state icon, description, tooltip,
 * context value for menus) and its children (commands, tools, diagnostics, log). extensionsTree.ts turns
 * these into `TreeItem`s. Text from extensions is data: labels and tooltips are plain strings.
 */
import type { ExtensionInfo, ExtensionState, ToolInfo } from '../host/types';

/** A codicon id (and optional theme color id) chosen by the view, never by an extension. */
export interface IconModel {
  id: string;
  color?: string;
}

/** What `vscode.TreeItem` needs, minus the `vscode` types. */
export interface ItemModel {
  /** Stable id, so expansion survives refreshes. */
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: IconModel;
  contextValue?: string;
  collapsible: boolean;
  /** For group rows: which registrations they list (see `groupChildren`). */
  group?: GroupKind;
  /** A command to run on click: the command id and its arguments. */
  command?: { id: string; title: string; args: unknown[] };
}

/** The groups under an extension row. */
export type GroupKind = 'commands' | 'tools' | 'diagnostics';

/** Human words for each state (the description column and the tooltip). */
const STATE_LABELS: Record<ExtensionState, string> = {
  starting: 'starting',
  running: 'running',
  crashed: 'crashed',
  restarting: 'restarting',
  stopped: 'stopped',
  error: 'error',
  disabled: 'disabled',
  shadowed: 'shadowed',
  blocked: 'blocked by Workspace Trust',
  consent: 'waiting for consent',
  denied: 'not allowed in this workspace',
  'theme-only': 'theme-only',
};

const STATE_ICONS: Record<ExtensionState, IconModel> = {
  starting: { id: 'loading~spin' },
  running: { id: 'pass-filled', color: 'testing.iconPassed' },
  crashed: { id: 'error', color: 'errorForeground' },
  restarting: { id: 'sync~spin' },
  stopped: { id: 'debug-stop' },
  error: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  disabled: { id: 'circle-slash', color: 'disabledForeground' },
  shadowed: { id: 'eye-closed', color: 'disabledForeground' },
  blocked: { id: 'workspace-untrusted', color: 'problemsWarningIcon.foreground' },
  consent: { id: 'question', color: 'problemsWarningIcon.foreground' },
  denied: { id: 'circle-slash', color: 'disabledForeground' },
  'theme-only': { id: 'symbol-color' },
};

/** States in which the extension has (or may get) a process, so Restart makes sense. */
const RESTARTABLE: ReadonlySet<ExtensionState> = new Set(['starting', 'running', 'crashed', 'restarting', 'stopped', 'error']);

/**
 * The context value of an extension row: `zutExt.<state>.<enabled|disabled|wsdisabled>.<scope>` then the flags
 * `.restartable`, `.allowed` (consent given, revocable), `.live` (has a process), `.nomanifest` (an e extension).
 * package.json menus match it with `viewItem =~ /…/`.
 */
export function extensionContextValue(info: ExtensionInfo): string {
  // disabled: by its manifest; wsdisabled: by the workspace-local choice ("Disable (Workspace)").
  const enabled = info.disabledInWorkspace ? 'wsdisabled' : info.state === 'disabled' ? 'disabled' : 'enabled';
  const flags = [
    RESTARTABLE.has(info.state) ? '.restartable' : '',
    // Consent applies (project scope, mode "ask") and was given: it can be revoked.
    info.fingerprint !== undefined && info.state !== 'consent' && info.state !== 'denied' ? '.allowed' : '',
    info.pid !== undefined ? '.live' : '',
    // An e extension is a bare executable: no extension.json to enable, disable or identify a removable directory by.
    info.ecosystem === 'e' ? '.nomanifest' : '',
  ].join('');
  return `zutExt.${info.state}.${enabled}.${info.scope}${flags}`;
}

/** The state words of a row: "starting… (12 s)" while waiting for `hello`, else the state's label. */
export function stateText(info: ExtensionInfo, now: number = Date.now()): string {
  if ((info.state === 'starting' || info.state === 'restarting') && info.startingSince !== undefined) {
    return `${info.state}… (${Math.max(0, Math.floor((now - info.startingSince) / 1000))} s)`;
  }
  if (info.state === 'disabled' && info.disabledInWorkspace) return 'disabled in this workspace';
  return STATE_LABELS[info.state];
}

/** How a sibling ecosystem's extension is labelled (tooltip). */
const ECOSYSTEM_LABELS: Record<NonNullable<ExtensionInfo['ecosystem']>, string> = {
  zot: 'zot (extension.json; protocol v1 or v2)',
  e: 'e (an executable speaking JSON-RPC)',
};

/** A row's id: scope and directory (an e extension's entry file: top-level e files share a directory). */
function rowId(info: ExtensionInfo): string {
  return `ext:${info.scope}:${info.ecosystem === 'e' ? info.manifestPath : info.dir}`;
}

/** The row of one extension. */
export function extensionItem(info: ExtensionInfo, now: number = Date.now()): ItemModel {
  const state = stateText(info, now);
  const version = info.version ? ` ${info.version}` : '';
  const restarts = info.restarts > 0 ? ` (${info.restarts} restart${info.restarts === 1 ? '' : 's'})` : '';
  const tooltip = [
    `${info.name}${version} — ${state}${restarts}`,
    info.description,
    `Scope: ${info.scope}${info.folder ? ` (${info.folder})` : ''}`,
    info.ecosystem ? `Ecosystem: ${ECOSYSTEM_LABELS[info.ecosystem]}` : undefined,
    `Directory: ${info.dir}`,
    info.ecosystem === 'e' ? `Entry point: ${info.manifestPath}` : undefined,
    `Log: ${info.logPath}`,
    info.shadowedBy ? `Shadowed by: ${info.shadowedBy}` : undefined,
    info.readyMode && info.readyMode !== 'ready' ? `Registration: ${info.readyMode}` : undefined,
    info.error ? `Error: ${info.error}` : undefined,
  ]
    .filter((l): l is string => l !== undefined && l !== '')
    .join('\n');
  return {
    id: rowId(info),
    label: info.name,
    description: `${state} · ${info.scope}${info.ecosystem ? ` · ${info.ecosystem}` : ''}${version}`,
    tooltip,
    icon: STATE_ICONS[info.state],
    contextValue: extensionContextValue(info),
    collapsible: true,
  };
}

/** The children of an extension row: groups for commands, tools and diagnostics, then the log. */
export function extensionChildren(info: ExtensionInfo): ItemModel[] {
  const base = rowId(info);
  const out: ItemModel[] = [];
  if (info.state === 'blocked') {
    out.push({
      id: `${base}:trust`,
      label: 'Manage Workspace Trust…',
      description: 'project and explicit extensions start once the workspace is trusted',
      icon: { id: 'shield' },
      contextValue: 'zutTrust',
      collapsible: false,
      command: { id: 'workbench.trust.manage', title: 'Manage Workspace Trust', args: [] },
    });
  }
  if (info.state === 'consent' || info.state === 'denied') {
    out.push({
      id: `${base}:allow`,
      label: 'Allow',
      description: info.state === 'consent' ? 'run this project extension (asked again when it changes)' : 'you chose not to run it; allow it now',
      icon: { id: 'check' },
      contextValue: 'zutConsent',
      collapsible: false,
      command: { id: 'zut.allowExtension', title: 'Allow', args: [info.name] },
    });
    if (info.state === 'consent') {
      out.push({
        id: `${base}:deny`,
        label: "Don't Allow",
        description: 'keep it stopped in this workspace',
        icon: { id: 'close' },
        contextValue: 'zutConsent',
        collapsible: false,
        command: { id: 'zut.denyExtension', title: "Don't Allow", args: [info.name] },
      });
    }
  }
  if (info.error) {
    out.push({ id: `${base}:error`, label: firstLine(info.error), tooltip: info.error, icon: { id: 'error', color: 'errorForeground' }, contextValue: 'zutError', collapsible: false });
  }
  const commands = info.commands;
  if (commands.length > 0) out.push({ id: `${base}:commands`, label: 'Commands', description: String(commands.length), icon: { id: 'terminal' }, contextValue: 'zutGroup', collapsible: true, group: 'commands' });
  if (info.tools.length > 0) out.push({ id: `${base}:tools`, label: 'Tools', description: String(info.tools.length), icon: { id: 'tools' }, contextValue: 'zutGroup', collapsible: true, group: 'tools' });
  if (info.diagnostics.length > 0) out.push({ id: `${base}:diagnostics`, label: 'Diagnostics', description: String(info.diagnostics.length), icon: { id: 'info' }, contextValue: 'zutGroup', collapsible: true, group: 'diagnostics' });
  out.push({
    id: `${base}:log`,
    label: 'Log',
    description: info.logPath,
    tooltip: `Show the log of ${info.name}`,
    icon: { id: 'output' },
    contextValue: 'zutLog',
    collapsible: false,
    command: { id: 'zut.showLog', title: 'Show Log', args: [info.name] },
  });
  return out;
}

/** The rows under one group of an extension (`commands`, `tools` or `diagnostics`). */
export function groupChildren(info: ExtensionInfo, group: GroupKind, agentName: (t: ToolInfo) => string | undefined = () => undefined): ItemModel[] {
  const base = `${rowId(info)}:${group}`;
  switch (group) {
    case 'commands':
      return info.commands.map((c) => ({
        id: `${base}:${c.name}`,
        label: `/${c.name}`,
        description: c.active ? (c.description ?? '') : `shadowed${c.description ? ` · ${c.description}` : ''}`,
        tooltip: c.active ? `Run /${c.name}` : `/${c.name} is owned by another extension`,
        icon: { id: c.active ? 'symbol-event' : 'eye-closed' },
        contextValue: c.active ? 'zutCommand' : 'zutCommand.shadowed',
        collapsible: false,
        command: c.active ? { id: 'zut.runCommand', title: 'Run Command', args: [c.name] } : undefined,
      }));
    case 'tools':
      return info.tools.map((t) => {
        const agent = agentName(t);
        const flags = [t.active ? undefined : 'shadowed', t.deferred ? (t.activated ? 'deferred, activated' : 'deferred') : undefined, t.interactive ? 'interactive' : undefined, agent ? 'agent mode' : undefined].filter(Boolean);
        const offer = agent ? `Offered to agent mode as ${agent}.` : 'Not offered to agent mode now (zut.agentTools settings, or deferred).';
        return {
          id: `${base}:${t.name}`,
          label: t.name,
          description: [flags.join(', '), t.description].filter(Boolean).join(' · '),
          tooltip: `${t.description ?? t.name}\n\n${offer}\n\nSchema: ${JSON.stringify(t.schema)}`,
          icon: { id: t.active ? 'tools' : 'eye-closed' },
          contextValue: t.active ? 'zutTool' : 'zutTool.shadowed',
          collapsible: false,
          command: t.active ? { id: 'zut.callTool', title: 'Call Tool', args: [t.name] } : undefined,
        };
      });
    case 'diagnostics':
      return info.diagnostics.map((d, i) => ({
        id: `${base}:${i}`,
        label: firstLine(d),
        tooltip: d,
        icon: { id: 'info' },
        contextValue: 'zutDiagnostic',
        collapsible: false,
      }));
  }
}

/** Extensions sorted for display: by name, then in precedence order (explicit, project, global). */
export function sortExtensions(infos: readonly ExtensionInfo[]): ExtensionInfo[] {
  const rank = { explicit: 0, project: 1, global: 2 } as const;
  return [...infos].sort((a, b) => a.name.localeCompare(b.name) || rank[a.scope] - rank[b.scope] || a.dir.localeCompare(b.dir));
}

function firstLine(s: string): string {
  const line = s.split('\n', 1)[0];
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * The doctor report's first line: how many extensions in each state, and the load errors. "8 zut extensions:
 * 6 running, 1 waiting for consent, 1 disabled. No load errors."
 */
export function extensionsSummary(infos: readonly Pick<ExtensionInfo, 'state'>[], loadErrors: number): string {
  const counts = new Map<ExtensionState, number>();
  for (const e of infos) counts.set(e.state, (counts.get(e.state) ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1] || STATE_LABELS[a[0]].localeCompare(STATE_LABELS[b[0]])).map(([s, n]) => `${n} ${STATE_LABELS[s]}`);
  const n = infos.length;
  const head = n === 0 ? 'No zut extensions' : `${n} zut extension${n === 1 ? '' : 's'}: ${parts.join(', ')}`;
  return `${head}. ${loadErrors === 0 ? 'No load errors' : `${loadErrors} load error${loadErrors === 1 ? '' : 's'} (below)`}.`;
}
