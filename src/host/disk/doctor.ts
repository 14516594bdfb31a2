/**
 * `zut ext doctor`: what happened to every extension (manifest errors, disabled/shadowed copies, load errors,
 * ready/auto-ready status, commands and tools with conflicts, warnings, log paths), as text (CLI), markdown
 * (VS Code's "Zut: Show Doctor Report") and JSON. Everything an extension supplied is untrusted: the text
 * formatter strips terminal control sequences, the markdown formatter keeps it in code spans/blocks.
 */
import { fencedBlock, longestRun } from '../markdown';
import { sanitizeText } from '../terminalText';
import type { ExtensionInfo, Scope } from '../types';

export type DoctorStatus = 'ok' | 'warning' | 'error' | 'shadowed' | 'disabled' | 'theme-only' | 'auto-ready' | 'ready-timeout';

export interface DoctorEntry {
  name: string;
  scope: Scope;
  /** A sibling ecosystem's extension (`zot`, `e`); absent for zut's own. */
  ecosystem?: NonNullable<ExtensionInfo['ecosystem']>;
  dir: string;
  /** e only: its entry point (the program run; an e extension has no extension.json). */
  entry?: string;
  version?: string;
  status: DoctorStatus;
  /** The Manager's state, for detail (`running`, `crashed`, `blocked`, …). */
  state: ExtensionInfo['state'];
  shadowedBy?: string;
  commands: { name: string; description?: string; active: boolean }[];
  tools: { name: string; description?: string; active: boolean; deferred: boolean; interactive: boolean }[];
  /** Lifecycle events it subscribed to. */
  subscriptions: string[];
  /** Events it intercepts (its guards see and may change or block them). */
  interceptions: string[];
  skills: { name: string; path: string }[];
  diagnostics: string[];
  logPath: string;
  error?: string;
  /** The wire protocol when it is not zut's v2 (`zot`: zot-extensions.md v1). */
  protocol?: string;
}

/** A load error as the Manager reports it (`LoadReport.errors`). */
export interface DoctorError {
  ext: string;
  message: string;
}

export interface DoctorReport {
  extensions: DoctorEntry[];
  errors: DoctorError[];
  /** How agents' hooks reach this host: the window's hook socket or why it has none, the warm hook hosts running. */
  hooks?: string[];
  /** Agents' hooks that cannot work as installed (Claude Code's mcp_tool hooks with no zut server: every call blocked). */
  hookProblems?: string[];
  /** Where zut's tools, skills, guards and events reach, per VS Code harness and terminal agent (a window's doctor only). */
  reach?: string[];
}

/**
 * The doctor status of one extension: state first (shadowed, disabled, theme-only, error/crashed), then how
 * registration ended (`auto-ready`, `ready-timeout`), then `warning` for diagnostics, registrations shadowed by
 * an earlier extension, an untrusted-workspace block or a not-yet-running state, else `ok`.
 */
export function doctorStatus(info: ExtensionInfo): DoctorStatus {
  switch (info.state) {
    case 'shadowed':
    case 'disabled':
    case 'theme-only':
      return info.state;
    case 'error':
    case 'crashed':
      return 'error';
    case 'blocked':
    case 'consent':
    case 'denied':
    case 'starting':
    case 'restarting':
    case 'stopped':
      return 'warning';
    case 'running':
      break;
  }
  if (info.readyMode === 'ready-timeout') return 'ready-timeout';
  if (info.readyMode === 'auto-ready') return 'auto-ready';
  const conflicts = info.commands.some((c) => !c.active) || info.tools.some((t) => !t.active);
  return info.diagnostics.length > 0 || conflicts || info.error !== undefined ? 'warning' : 'ok';
}

/**
 * Builds the report from the Manager's snapshot and its load errors. A load error already shown as an
 * extension's own `error` (same name and message) is not repeated in `errors`.
 */
export function buildDoctorReport(extensions: ExtensionInfo[], errors: DoctorError[] = []): DoctorReport {
  const shown = new Set(extensions.filter((x) => x.error !== undefined).map((x) => `${x.name}\0${x.error}`));
  return {
    extensions: extensions.map((x) => ({
      name: x.name,
      scope: x.scope,
      ...(x.ecosystem !== undefined && { ecosystem: x.ecosystem }),
      dir: x.dir,
      ...(x.ecosystem === 'e' && { entry: x.manifestPath }),
      ...(x.version !== undefined && { version: x.version }),
      status: doctorStatus(x),
      state: x.state,
      ...(x.shadowedBy !== undefined && { shadowedBy: x.shadowedBy }),
      commands: x.commands.map((c) => ({ name: c.name, ...(c.description !== undefined && { description: c.description }), active: c.active })),
      tools: x.tools.map((t) => ({
        name: t.name,
        ...(t.description !== undefined && { description: t.description }),
        active: t.active,
        deferred: t.deferred,
        interactive: t.interactive,
      })),
      subscriptions: [...x.subscriptions],
      interceptions: [...x.interceptions],
      skills: x.skills.map((s) => ({ name: s.name, path: s.path })),
      diagnostics: [...x.diagnostics],
      logPath: x.logPath,
      ...(x.error !== undefined && { error: x.error }),
      ...(x.protocol !== undefined && x.protocol !== 'zut' && { protocol: x.protocol }),
    })),
    errors: errors.filter((e) => !shown.has(`${e.ext}\0${e.message}`)).map((e) => ({ ext: e.ext, message: e.message })),
  };
}

/** True when the report contains an extension in error or a load error (the CLI then exits 1). */
export function doctorHasErrors(report: DoctorReport): boolean {
  return report.errors.length > 0 || (report.hookProblems?.length ?? 0) > 0 || report.extensions.some((e) => e.status === 'error');
}

// ---------------------------------------------------------------- text

/** Multi-line text indented under its label (line breaks preserved, as zut does). */
function block(s: string, indent: string): string {
  return sanitizeText(s).split('\n').join('\n' + indent);
}

function registrationLine(kind: string, r: { name: string; description?: string; active: boolean }, extra = ''): string {
  const desc = r.description ? ` - ${r.description}` : '';
  return `  ${kind} ${r.name}${extra}${r.active ? '' : ' (shadowed)'}${desc}`;
}

/** Plain-text report for a terminal. */
export function doctorText(report: DoctorReport): string {
  const out: string[] = [];
  if (report.extensions.length === 0) out.push('no extensions found');
  for (const e of report.extensions) {
    const version = e.version ? ` ${e.version}` : '';
    out.push(`${e.name}${version} [${e.scope}${e.ecosystem ? `, ${e.ecosystem}` : ''}] ${e.status}`);
    out.push(`  dir: ${e.dir}`);
    if (e.protocol) out.push(`  protocol: ${e.protocol}`);
    if (e.entry) out.push(`  entry: ${e.entry}`);
    if (e.shadowedBy) out.push(`  shadowed by: ${e.shadowedBy}`);
    if (e.error) out.push(`  error: ${block(e.error, '    ')}`);
    for (const d of e.diagnostics) out.push(`  warning: ${block(d, '    ')}`);
    for (const c of e.commands) out.push(registrationLine('command', { ...c, name: '/' + c.name }));
    for (const t of e.tools) {
      const flags = [t.deferred && 'deferred', t.interactive && 'interactive'].filter(Boolean).join(', ');
      out.push(registrationLine('tool', t, flags ? ` (${flags})` : ''));
    }
    if (e.subscriptions.length > 0) out.push(`  subscribes: ${e.subscriptions.join(', ')}`);
    if (e.interceptions.length > 0) out.push(`  intercepts: ${e.interceptions.join(', ')}`);
    for (const s of e.skills) out.push(`  skill ${s.name} (${s.path})`);
    out.push(`  log: ${e.logPath}`);
  }
  if (report.errors.length > 0) {
    out.push('', 'load errors:');
    for (const err of report.errors) out.push(`  ${err.ext}: ${block(err.message, '    ')}`);
  }
  if (report.hooks?.length) out.push('', 'agent hooks:', ...report.hooks.map((h) => `  ${block(h, '    ')}`));
  if (report.hookProblems?.length) out.push('', 'agent hooks that cannot work:', ...report.hookProblems.map((h) => `  ${block(h, '    ')}`));
  if (report.reach?.length) out.push('', 'where zut reaches:', ...report.reach.map((h) => `  ${block(h, '    ')}`));
  return sanitizeText(out.join('\n')) + '\n';
}

// ---------------------------------------------------------------- markdown

/**
 * Untrusted single-line text as an inline code span: nothing inside can become a link, HTML, a command or an
 * icon. The fence is longer than any backtick run inside, and padded so leading/trailing backticks are safe.
 * Text with line breaks must use `mdCodeBlock` instead (a blank line would end the span's paragraph).
 */
export function mdCode(s: string): string {
  const text = sanitizeText(s).replace(/\n/g, ' ');
  if (text.trim() === '') return '*(empty)*';
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  return `${fence} ${text} ${fence}`;
}

/** Untrusted (possibly multi-line) text as a fenced code block whose fence no content line can close. */
export function mdCodeBlock(s: string): string {
  return fencedBlock(sanitizeText(s), 'text');
}

/** Markdown report; every extension- or manifest-supplied value is inside a code span or code block. */
export function doctorMarkdown(report: DoctorReport, summary?: string): string {
  const out: string[] = ['# Zut doctor report', ''];
  if (summary !== undefined) out.push(`**${summary}**`, '');
  if (report.extensions.length === 0) out.push('No extensions found.', '');
  for (const e of report.extensions) {
    out.push(`## ${mdCode(e.name)} — ${e.status}`, '');
    out.push(`- Scope: ${e.scope}`);
    if (e.ecosystem) out.push(`- Ecosystem: ${e.ecosystem}`);
    if (e.entry) out.push(`- Entry point: ${mdCode(e.entry)}`);
    if (e.version) out.push(`- Version: ${mdCode(e.version)}`);
    out.push(`- Directory: ${mdCode(e.dir)}`);
    if (e.shadowedBy) out.push(`- Shadowed by: ${mdCode(e.shadowedBy)}`);
    out.push(`- Log: ${mdCode(e.logPath)}`);
    for (const c of e.commands) {
      out.push(`- Command: ${mdCode('/' + c.name)}${c.active ? '' : ' (shadowed)'}${c.description ? ' — ' + mdCode(c.description) : ''}`);
    }
    for (const t of e.tools) {
      const flags = [!t.active && 'shadowed', t.deferred && 'deferred', t.interactive && 'interactive'].filter(Boolean);
      out.push(`- Tool: ${mdCode(t.name)}${flags.length ? ` (${flags.join(', ')})` : ''}${t.description ? ' — ' + mdCode(t.description) : ''}`);
    }
    if (e.subscriptions.length > 0) out.push(`- Subscribes: ${e.subscriptions.map(mdCode).join(', ')}`);
    if (e.interceptions.length > 0) out.push(`- Intercepts: ${e.interceptions.map(mdCode).join(', ')}`);
    for (const s of e.skills) out.push(`- Skill: ${mdCode(s.name)}`);
    out.push('');
    if (e.error) out.push('Error:', '', mdCodeBlock(e.error), '');
    for (const d of e.diagnostics) out.push('Warning:', '', mdCodeBlock(d), '');
  }
  if (report.errors.length > 0) {
    out.push('## Load errors', '');
    for (const err of report.errors) out.push(`${mdCode(err.ext)}:`, '', mdCodeBlock(err.message), '');
  }
  if (report.hooks?.length) out.push('## Agent hooks', '', ...report.hooks.map((h) => `- ${mdCode(h)}`), '');
  if (report.hookProblems?.length) out.push('## Agent hooks that cannot work', '', ...report.hookProblems.map((h) => mdCodeBlock(h)), '');
  if (report.reach?.length) out.push('## Where zut reaches', '', ...report.reach.map((h) => `- ${mdCode(h)}`), '');
  return out.join('\n');
}

// ---------------------------------------------------------------- JSON

/** `{"extensions":[…],"errors":[…]}`, indented. */
export function doctorJson(report: DoctorReport): string {
  return JSON.stringify({ extensions: report.extensions, errors: report.errors, ...(report.hooks && { hooks: report.hooks }), ...(report.hookProblems && { hookProblems: report.hookProblems }) }, null, 2) + '\n';
}
