/**
 * Reading and editing `extension.json`. Errors use zut's words so users see the same message in VS Code, the
 * CLI and zut itself: `read manifest: …`, `parse manifest: …`, `manifest: name is required`,
 * `manifest: exec is required`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../../protocol/lazySchema';
import { valueAt } from '../../protocol';
import { MAX_MANIFEST_BYTES } from '../../protocol/limits';
import type { Manifest } from '../types';
import { readBoundedFile } from './boundedRead';
import { appendMember, memberOf, parseJsonText, replaceValue } from './jsonText';
import { userFile } from './userFile';

/** The manifest's file name inside an extension directory. */
export const MANIFEST_FILE = 'extension.json';

/** Files whose presence makes an extension without `exec` a theme-only extension (listed, never spawned). */
const THEME_FILES = ['theme.json', path.join('themes', 'theme.json')] as const;

export type ReadManifestResult =
  | { ok: true; manifest: Manifest; themeOnly: boolean; diagnostics: string[] }
  | { ok: false; error: string };

// `null` is treated like an absent field (as Go's encoding/json does); unknown fields are stripped.
const optString = /* @__PURE__ */ lazySchema(() => z.string().nullish().transform((v) => v ?? undefined));
const stringList = /* @__PURE__ */ lazySchema(() => z.array(z.string()).nullish().transform((v) => v ?? []));

/** The manifest's zod schema (descriptions become the editor's hover docs through `manifestJsonSchema`). */
const ManifestSchema = /* @__PURE__ */ lazySchema(() => z.object({
  name: optString.describe('The extension\'s name: unique among your extensions, sent back in `hello.name`, used for its log file (`<zut home>/logs/<name>.log`). No path separators.'),
  version: optString.describe('Its version, shown in the Extensions view and the doctor report.'),
  exec: optString.describe('The program to run: a path inside the extension directory (`./main.py`, must be executable) or a launcher on PATH (`node`, `python3`). Required unless the directory ships a theme.'),
  args: stringList.describe('Arguments passed to `exec` (e.g. `["main.mjs"]` with `"exec": "node"`).'),
  language: optString.describe('The implementation language, informational (`typescript`, `python`, `go`, `sh`, …).'),
  description: optString.describe('One line on what the extension does.'),
  skills: stringList.describe('Relative paths of bundled skill directories (each with a SKILL.md).'),
  enabled: z.boolean().nullish().transform((v) => v ?? true).describe('`false`: listed but never started. Default `true`.'),
}));

/**
 * The JSON Schema of `extension.json` for editors (generated at build time into dist/extension.schema.json and
 * contributed through `jsonValidation`): the zod schema's input side, plus `name` required. Unknown fields stay
 * allowed, as the host tolerates them.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ManifestSchema, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  // VS Code renders `markdownDescription` (the descriptions use `code` spans).
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k, { ...v, markdownDescription: v.description }]),
  );
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'zut extension manifest (extension.json)',
    description: 'A zut extension: a program speaking newline-delimited JSON (protocol v2) over stdin/stdout.',
    type: 'object',
    properties,
    required: ['name'],
  };
}

/** JSON type names, for "field "args": expected array, got string". */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** `args[1]` rather than zod's `args.1`. */
function fieldName(keys: PropertyKey[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/** Names become log file names and install directories: nothing that could leave a directory. */
function nameProblem(name: string): string | undefined {
  if (/[/\\\x00-\x1f\x7f]/.test(name) || name === '.' || name === '..') {
    return `manifest: invalid name ${JSON.stringify(name)}: must not contain path separators or control characters`;
  }
  return undefined;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}

/** True when the directory ships `theme.json` or `themes/theme.json`. */
async function hasTheme(dir: string): Promise<boolean> {
  const found = await Promise.all(THEME_FILES.map((f) => isFile(path.join(dir, f))));
  return found.includes(true);
}

/**
 * The one rule for "exec is a relative path": not absolute (POSIX or Windows) and with a path separator (`./x`,
 * `../x`, `bin/x`, `bin\\x`), so it names a file relative to the extension directory rather than a launcher found on
 * `PATH`. Used to check the file (execProblem), to spawn it (child.ts `resolveExec`) and to watch it.
 */
export function execIsRelativePath(exec: string): boolean {
  return !path.isAbsolute(exec) && !path.win32.isAbsolute(exec) && /[/\\]/.test(exec);
}

/**
 * Resolves `exec` like zut: a relative path (`./x`, `../x`, anything with a separator;
 * `execIsRelativePath` above, the one rule) joined to the extension directory; absolute as is; a bare name is left for
 * the OS to look up on PATH.
 */
export function resolveExec(dir: string, exec: string): string {
  return execIsRelativePath(exec) ? path.resolve(dir, exec) : exec;
}

/** What is wrong with a relative `exec`. */
export interface ExecProblem {
  kind: 'outside' | 'missing' | 'not-file' | 'not-executable';
  message: string;
}

/**
 * Problems with a relative `exec` (`./hello`): outside the directory, missing, not a file, not executable.
 * Bare launchers (`node`, `python3`) and absolute paths are resolved at spawn time and not checked here.
 */
export async function execProblem(dir: string, exec: string): Promise<ExecProblem | undefined> {
  if (!execIsRelativePath(exec)) return undefined;
  const quoted = JSON.stringify(exec);
  const target = path.resolve(dir, exec);
  const rel = path.relative(path.resolve(dir), target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    return { kind: 'outside', message: `exec ${quoted} is outside the extension directory` };
  }
  let st;
  try {
    st = await fs.stat(target);
  } catch {
    return { kind: 'missing', message: `exec ${quoted} not found in ${dir}` };
  }
  if (!st.isFile()) return { kind: 'not-file', message: `exec ${quoted} is not a file` };
  if (!isExecutable(st)) {
    return { kind: 'not-executable', message: `exec ${quoted} is not executable (chmod +x it)` };
  }
  return undefined;
}

/** Whether a file's mode lets it run (always on Windows, which has no execute bits). */
export function isExecutable(st: { mode: number }): boolean {
  return process.platform === 'win32' || (st.mode & 0o111) !== 0;
}

/**
 * Reads and validates `<dir>/extension.json`. Only a regular file of at most `MAX_MANIFEST_BYTES` is read, and a
 * symlinked manifest whose target lies outside `dir` is refused (boundedRead.ts): a repository's extension folder
 * can make the host read neither `/dev/zero` nor a file elsewhere. Every spec field is type-checked; unknown fields are tolerated.
 * Without `exec` the manifest is valid only if the directory ships a theme (`themeOnly: true`).
 * `diagnostics` are non-fatal: a relative `exec` that is missing or not executable.
 */
export async function readManifest(dir: string): Promise<ReadManifestResult> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readBoundedFile(file, MAX_MANIFEST_BYTES, dir);
  } catch (e) {
    return { ok: false, error: `read manifest: ${(e as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, error: `parse manifest: ${file}: ${(e as Error).message}` };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: `parse manifest: ${file}: expected a JSON object, got ${jsonType(raw)}` };
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const expected = issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.message;
    return {
      ok: false,
      error: `parse manifest: ${file}: field "${fieldName(issue.path)}": ${expected}, got ${jsonType(valueAt(raw, issue.path))}`,
    };
  }
  const m = parsed.data;
  if (m.name === undefined || m.name.trim() === '') return { ok: false, error: 'manifest: name is required' };
  const badName = nameProblem(m.name);
  if (badName) return { ok: false, error: badName };
  const manifest: Manifest = {
    name: m.name,
    args: m.args,
    skills: m.skills,
    enabled: m.enabled,
    ...(m.version !== undefined && { version: m.version }),
    ...(m.exec !== undefined && m.exec !== '' && { exec: m.exec }),
    ...(m.language !== undefined && { language: m.language }),
    ...(m.description !== undefined && { description: m.description }),
  };
  const diagnostics: string[] = [];
  if (manifest.exec === undefined) {
    if (!(await hasTheme(dir))) return { ok: false, error: 'manifest: exec is required' };
    return { ok: true, manifest, themeOnly: true, diagnostics };
  }
  const problem = await execProblem(dir, manifest.exec);
  if (problem) diagnostics.push(problem.message);
  return { ok: true, manifest, themeOnly: false, diagnostics };
}

/**
 * Sets `enabled` in `<dir>/extension.json`, every other byte as it was (jsonText.ts), through the careful writer
 * (userFile.ts: mode, owner and a link kept, a temporary file created exclusively, fsync, rename), so a crash never
 * leaves a half-written manifest. Throws `read manifest: …` / `parse manifest: …` / `write manifest: …` errors.
 */
export async function setManifestEnabled(dir: string, enabled: boolean): Promise<void> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    // A symlinked manifest stays a symlink: the real file is written (userFile.ts), inside the extension's directory.
    text = await readBoundedFile(file, MAX_MANIFEST_BYTES, dir);
  } catch (e) {
    throw new Error(`read manifest: ${(e as Error).message}`);
  }
  let obj: unknown;
  try {
    obj = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new Error(`parse manifest: ${file}: ${(e as Error).message}`);
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new Error(`parse manifest: ${file}: expected a JSON object, got ${jsonType(obj)}`);
  }
  // The field changed in place (or added last); every other byte stays as written.
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const root = parseJsonText(body);
  const was = memberOf(root, 'enabled');
  const next = was ? replaceValue(body, was, enabled) : appendMember(body, root, 'enabled', enabled);
  try {
    await (await userFile(file, { within: dir, noRead: true })).write(bom + next);
  } catch (e) {
    throw new Error(`write manifest: ${file}: ${(e as Error).message}`);
  }
}
