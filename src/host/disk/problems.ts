/**
 * What the Problems panel shows for zut extensions, decided without VS Code: each extension's load error (error)
 * and diagnostics (warnings) become problems on its `extension.json`, each naming the log; an extension that
 * loads cleanly has none, so its entries disappear. `problemRange` places a problem in the manifest's text:
 * at a JSON syntax error's position, at the key a message names (`exec`, `args`, …), else on the first line.
 */
import type { ExtensionInfo } from '../types';

export type ProblemSeverity = 'error' | 'warning';

export interface ManifestProblem {
  severity: ProblemSeverity;
  message: string;
  /** The manifest key the problem is about, when the message names one. */
  field?: string;
  /** A character offset in the manifest (JSON syntax errors). */
  offset?: number;
}

/** A zero-based range in a text. */
export interface TextRange {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

const FIELDS = ['name', 'version', 'exec', 'args', 'language', 'description', 'skills', 'enabled'] as const;

/** The manifest key a message is about: `field "args[1]"`, `exec "./x"`, `name is required`, `skill …`. */
function fieldOf(message: string): string | undefined {
  const quoted = /field "([a-z]+)/.exec(message);
  if (quoted && (FIELDS as readonly string[]).includes(quoted[1]!)) return quoted[1];
  if (/\bexec\b/.test(message)) return 'exec';
  if (/\bname is required\b|invalid name\b/.test(message)) return 'name';
  if (/\bskills?\b/.test(message)) return 'skills';
  return undefined;
}

/** The offset of a JSON.parse error (`… at position 42 …`), when it gives one. */
function offsetOf(message: string): number | undefined {
  const m = /parse manifest: .*\bposition (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

function withLog(message: string, logPath: string): string {
  return message.includes(logPath) ? message : `${message} (log: ${logPath})`;
}

function problem(severity: ProblemSeverity, message: string, logPath: string): ManifestProblem {
  const field = fieldOf(message);
  const offset = offsetOf(message);
  return { severity, message: withLog(message, logPath), ...(field && { field }), ...(offset !== undefined && { offset }) };
}

/**
 * Problems per manifest path. Shadowed copies report nothing (the winner does); every other extension reports
 * its error (state `error` or `crashed`) and its diagnostics. Manifests without problems are absent.
 */
export function manifestProblems(extensions: ExtensionInfo[]): Map<string, ManifestProblem[]> {
  const out = new Map<string, ManifestProblem[]>();
  for (const x of extensions) {
    if (x.state === 'shadowed') continue;
    const list: ManifestProblem[] = [];
    if (x.error !== undefined && (x.state === 'error' || x.state === 'crashed')) list.push(problem('error', x.error, x.logPath));
    for (const d of x.diagnostics) list.push(problem('warning', d, x.logPath));
    if (list.length > 0) out.set(x.manifestPath, [...(out.get(x.manifestPath) ?? []), ...list]);
  }
  return out;
}

function position(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

/** Where a problem goes in the manifest's text (the key's name, the syntax error's character, or line 1). */
export function problemRange(text: string, p: ManifestProblem): TextRange {
  if (p.offset !== undefined) {
    const at = position(text, p.offset);
    return { line: at.line, character: at.character, endLine: at.line, endCharacter: at.character + 1 };
  }
  if (p.field) {
    const i = text.indexOf(`"${p.field}"`);
    if (i >= 0) {
      const at = position(text, i);
      return { line: at.line, character: at.character, endLine: at.line, endCharacter: at.character + p.field.length + 2 };
    }
  }
  const first = text.split('\n')[0] ?? '';
  return { line: 0, character: 0, endLine: 0, endCharacter: Math.max(1, first.length) };
}
