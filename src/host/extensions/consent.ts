/**
 * Consent for project-local code (as VS Code asks for workspace MCP servers and automatic tasks). A project
 * extension is code from the repository: a `git pull`, a branch switch or an agent editing files can add or change
 * one. In mode `ask` it runs only once the user allowed THAT content: the answer is remembered per workspace and
 * per content fingerprint (extension.json + its executable + script arguments that are files in its directory), so
 * a changed manifest or executable asks again. Global extensions (the user's zut home) and explicit paths (a
 * restricted user setting) need none; mode `trustedWorkspace` is Workspace Trust alone. Also the workspace-local
 * "Disable (Workspace)" choice. The decisions live here; adapters only store and show them. No `vscode`.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resolveExec } from '../disk/manifest';
import { FINGERPRINT_HASH_MAX_BYTES } from '../../protocol/limits';
import type { Scope } from '../types';

/** `zut.projectExtensions.consent`. */
export type ConsentMode = 'ask' | 'trustedWorkspace';

/** A workspace-local key/value store (VS Code: `context.workspaceState`; never the repository). */
export interface WorkspaceChoices {
  get(key: string): unknown;
  set(key: string, value: unknown): void | PromiseLike<void>;
}

/** The user's answer for one extension directory, and the content it was given for. */
export interface ConsentRecord {
  answer: 'allow' | 'deny';
  fingerprint: string;
}

/** Why an extension is held back instead of spawned. */
export type Gate = 'consent' | 'denied' | 'workspace-disabled';

/** What the Manager needs to decide (ManagerOptions.consent). */
export interface ConsentOptions {
  mode(): ConsentMode;
  choices: WorkspaceChoices;
}

const consentKey = (dir: string): string => `zut.consent:${dir}`;
const disabledKey = (dir: string): string => `zut.disabled:${dir}`;

/** Whether extensions of `scope` need consent in `mode`. */
export function needsConsent(scope: Scope, mode: ConsentMode): boolean {
  return scope === 'project' && mode === 'ask';
}

/** The remembered answer for `dir`, if any and well-formed. */
export function consentRecord(choices: WorkspaceChoices, dir: string): ConsentRecord | undefined {
  const v = choices.get(consentKey(dir));
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Partial<ConsentRecord>;
  return (r.answer === 'allow' || r.answer === 'deny') && typeof r.fingerprint === 'string' ? { answer: r.answer, fingerprint: r.fingerprint } : undefined;
}

export async function rememberConsent(choices: WorkspaceChoices, dir: string, record: ConsentRecord | undefined): Promise<void> {
  await choices.set(consentKey(dir), record);
}

export function isDisabledInWorkspace(choices: WorkspaceChoices | undefined, dir: string): boolean {
  return choices?.get(disabledKey(dir)) === true;
}

export async function setDisabledInWorkspace(choices: WorkspaceChoices, dir: string, disabled: boolean): Promise<void> {
  await choices.set(disabledKey(dir), disabled ? true : undefined);
}

/**
 * The gate for one extension: workspace-disabled first, then consent (`fingerprint` is its current content's).
 * Undefined = may start.
 */
export function decideGate(
  ext: { dir: string; scope: Scope },
  fingerprint: string | undefined,
  consent: ConsentOptions | undefined,
): Gate | undefined {
  if (!consent) return undefined;
  if (isDisabledInWorkspace(consent.choices, ext.dir)) return 'workspace-disabled';
  if (!needsConsent(ext.scope, consent.mode())) return undefined;
  const r = consentRecord(consent.choices, ext.dir);
  if (!r || r.fingerprint !== fingerprint) return 'consent';
  return r.answer === 'allow' ? undefined : 'denied';
}

async function fileDigest(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return undefined;
    if (st.size > FINGERPRINT_HASH_MAX_BYTES) return `size=${st.size},mtime=${st.mtimeMs}`;
    return createHash('sha256').update(await fs.readFile(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * The content fingerprint of an extension: sha-256 over its extension.json, its executable when that is a file
 * (a path, or a bare name found in its directory), and every argument that names a file inside its directory
 * (`node index.js`). Files above `FINGERPRINT_HASH_MAX_BYTES` count by size and mtime.
 */
export async function contentFingerprint(ext: { dir: string; manifestPath: string; exec?: string; args?: readonly string[] }): Promise<string> {
  const h = createHash('sha256');
  h.update(`manifest:${(await fileDigest(ext.manifestPath)) ?? '-'}\n`);
  if (ext.exec) {
    const resolved = resolveExec(ext.dir, ext.exec);
    const candidate = resolved === ext.exec && !path.isAbsolute(ext.exec) ? path.join(ext.dir, ext.exec) : resolved;
    h.update(`exec:${ext.exec}=${(await fileDigest(candidate)) ?? '-'}\n`);
  }
  for (const a of ext.args ?? []) {
    const p = path.resolve(ext.dir, a);
    if (!p.startsWith(ext.dir + path.sep)) continue;
    const d = await fileDigest(p);
    if (d) h.update(`arg:${a}=${d}\n`);
  }
  return h.digest('hex');
}

/** The notification's sentence: "This workspace wants to run 3 zut extensions: a, b, c". */
export function consentPrompt(names: readonly string[]): string {
  const n = names.length;
  return `This workspace wants to run ${n} zut extension${n === 1 ? '' : 's'}: ${names.join(', ')}`;
}
