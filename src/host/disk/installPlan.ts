/**
 * What an install will run, as text: shown by `zut-host ext install` and by "Zut: Install Extension…" before the
 * extension is installed, since an installed global extension runs without a consent prompt. Everything comes from
 * the extension (manifest fields, file names) and is sanitized: no control characters reach a terminal or a dialog.
 */
import * as path from 'node:path';
import { INSTALL_PLAN_MAX_FILES } from '../../protocol/limits';
import { sanitizeText } from './doctor';
import type { InstallPlan } from './install';
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
