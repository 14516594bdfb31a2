/**
 * What an install will run, as text: shown by `zut-host ext install` and by "Zut: Install Extension…" before the
 * extension is installed, since an installed global extension runs without a consent prompt. Everything comes from
 * the extension (manifest fields, file names) and is sanitized: no control characters reach a terminal or a dialog.
 */
import * as path from 'node:path';
import { INSTALL_PLAN_MAX_FILES } from '../../protocol/limits';
import { sanitizeText } from '../terminalText';
import type { InstallPlan } from './install';
import type { ExtensionInfo, Scope } from '../types';
import { execIsRelativePath } from './manifest';

/** `1536` → `1.5 KiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** An argv element as a shell reader expects it: bare when plain, else JSON-quoted. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : JSON.stringify(s);
}

/** The command line the host will spawn, and where the program comes from. */
export function planCommand(plan: Pick<InstallPlan, 'manifest'>): string {
  const { exec, args } = plan.manifest;
  if (exec === undefined) return 'nothing (a theme only)';
  const line = [exec, ...args].map(shellWord).join(' ');
  if (execIsRelativePath(exec)) return `${line}   (in the extension folder)`;
  return path.isAbsolute(exec) || path.win32.isAbsolute(exec) ? `${line}   (an absolute path on this machine)` : `${line}   (${shellWord(exec)} found on PATH)`;
}

/**
 * The plan as lines: name and version, destination, source, the command it runs (and how it was built), its
 * description, then its files with sizes (`x` marks an executable), at most `INSTALL_PLAN_MAX_FILES` by name.
 */
export function planText(plan: InstallPlan): string {
  const m = plan.manifest;
  const total = plan.files.reduce((n, f) => n + f.bytes, 0);
  const shown = plan.files.slice(0, INSTALL_PLAN_MAX_FILES);
  const width = Math.max(0, ...shown.map((f) => f.path.length));
  const lines = [
    `${m.name}${m.version !== undefined ? ` ${m.version}` : ''}`,
    ...(m.description !== undefined ? [`  description: ${m.description}`] : []),
    `  from:  ${plan.source}`,
    `  into:  ${plan.dest}`,
    `  runs:  ${planCommand(plan)}`,
    ...(plan.built !== undefined ? [`  built: ${plan.built}`] : plan.build !== undefined ? [`  build: ${plan.build}, once you accept`] : []),
    `  files: ${plan.files.length} (${formatBytes(total)})`,
    ...shown.map((f) => `    ${f.executable ? 'x' : ' '} ${f.path.padEnd(width)}  ${formatBytes(f.bytes)}`),
    ...(plan.files.length > shown.length ? [`    … and ${plan.files.length - shown.length} more`] : []),
  ];
  return lines.map((l) => sanitizeText(l).replace(/\n/g, ' ')).join('\n') + '\n';
}

/**
 * The plan for a dialog (proportional font: no columns to line up): what it runs first, where from and to, then
 * its files one per line, "executable" spelled out. `warnings` (shadowWarning) come first. Sanitized as planText.
 */
export function planDetail(plan: InstallPlan, warnings: readonly string[] = []): string {
  const m = plan.manifest;
  const total = plan.files.reduce((n, f) => n + f.bytes, 0);
  const shown = plan.files.slice(0, INSTALL_PLAN_MAX_FILES);
  const lines = [
    ...warnings.flatMap((w) => [w, '']),
    `Runs: ${planCommand(plan).replace(/ {2,}\(/, ' (')}`,
    ...(plan.built !== undefined ? [`Built with: ${plan.built}`] : plan.build !== undefined ? [`Builds with, once you confirm: ${plan.build}`] : []),
    ...(m.description !== undefined ? [`Description: ${m.description}`] : []),
    ...(m.version !== undefined ? [`Version: ${m.version}`] : []),
    `From: ${plan.source}`,
    `Into: ${plan.dest}`,
    '',
    `Files: ${plan.files.length} (${formatBytes(total)})`,
    ...shown.map((f) => `• ${f.path} — ${formatBytes(f.bytes)}${f.executable ? ', executable' : ''}`),
    ...(plan.files.length > shown.length ? [`… and ${plan.files.length - shown.length} more`] : []),
  ];
  return lines.map((l) => sanitizeText(l).replace(/\n/g, ' ')).join('\n');
}

/**
 * Said before installing `name` into `dest` when an extension of that name is already known, since only one copy
 * of a name runs (`zut.extensionPaths` wins over the project, the project over global): which copy wins here, and
 * that the other is listed as shadowed. Undefined when nothing else has the name.
 */
export function shadowWarning(name: string, dest: Exclude<Scope, 'explicit'>, known: readonly Pick<ExtensionInfo, 'name' | 'scope' | 'dir'>[]): string | undefined {
  const rank: Record<Scope, number> = { explicit: 0, project: 1, global: 2 };
  const same = known.filter((e) => e.name === name).sort((a, b) => rank[a.scope] - rank[b.scope]);
  const other = same[0];
  if (!other) return undefined;
  const where = { explicit: 'from zut.extensionPaths', project: "in this workspace's project", global: 'in your global extensions' }[other.scope];
  if (rank[other.scope] <= rank[dest]) {
    return `Another extension named "${name}" is ${where} (${other.dir}) and wins here: the copy you install will be listed as shadowed and will not run in this workspace.`;
  }
  return `Your extension named "${name}" ${where} (${other.dir}) will be shadowed in this workspace by the copy you install.`;
}
