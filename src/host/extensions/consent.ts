/**
 * Consent for project-local code (as VS Code asks for workspace MCP servers and automatic tasks). A project
 * extension is code from the repository: a `git pull`, a branch switch or an agent editing files can add or change
 * one. In mode `ask` it runs only once the user allowed THAT content: the answer is remembered per workspace and
 * per content fingerprint (fingerprint.ts: its whole directory plus the files `exec`/`args` name), so any change
 * asks again. Global extensions (the user's zut home) and explicit paths (`zut.extensionPaths`, read from user
 * settings only) need none, unless their directory lies inside a workspace folder: then they are the repository's
 * code like a project extension. Mode `trustedWorkspace` is Workspace Trust alone. Also the workspace-local
 * "Disable (Workspace)" choice. The decisions live here; adapters only store and show them. No `vscode`.
 */
import * as path from 'node:path';
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
  /** The user wrote this content through us ("New Extension…", "Install Extension…"): theirs, never asked for. */
  own?: true;
}

/** Why an extension is held back instead of spawned (`refused`: too large to fingerprint, fingerprint.ts). */
export type Gate = 'consent' | 'denied' | 'workspace-disabled' | 'refused';

/** What the Manager needs to decide (ManagerOptions.consent). */
export interface ConsentOptions {
  mode(): ConsentMode;
  choices: WorkspaceChoices;
}

const consentKey = (dir: string): string => `zut.consent:${dir}`;
const disabledKey = (dir: string): string => `zut.disabled:${dir}`;

/**
 * Whether an extension needs consent in `mode`: a project extension does, and so does any other whose directory
 * lies inside one of the workspace `folders` (a global or explicit path that points into the repository).
 */
export function needsConsent(ext: { dir: string; scope: Scope }, mode: ConsentMode, folders: readonly string[] = []): boolean {
  return mode === 'ask' && isRepositoryCode(ext, folders);
}

/**
 * Whether an extension is the repository's code: a project extension, or any other whose directory lies inside one
 * of the workspace `folders`. Such an extension is asked for (in mode `ask`), and its `data_dir` lies outside the
 * repository (paths.ts `projectDataDir`), so what it keeps there is never part of what it is asked for.
 */
export function isRepositoryCode(ext: { dir: string; scope: Scope }, folders: readonly string[]): boolean {
  return ext.scope === 'project' || folders.some((f) => isInside(ext.dir, f));
}

/** Whether `p` lies strictly inside `dir`. */
export function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The remembered answer for `dir`, if any and well-formed. */
export function consentRecord(choices: WorkspaceChoices, dir: string): ConsentRecord | undefined {
  const v = choices.get(consentKey(dir));
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Partial<ConsentRecord>;
  if ((r.answer !== 'allow' && r.answer !== 'deny') || typeof r.fingerprint !== 'string') return undefined;
  return { answer: r.answer, fingerprint: r.fingerprint, ...(r.own === true && { own: true as const }) };
}

export async function rememberConsent(choices: WorkspaceChoices, dir: string, record: ConsentRecord | undefined): Promise<void> {
  await choices.set(consentKey(dir), record);
}

function isDisabledInWorkspace(choices: WorkspaceChoices | undefined, dir: string): boolean {
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
  folders: readonly string[] = [],
): Gate | undefined {
  if (!consent) return undefined;
  if (isDisabledInWorkspace(consent.choices, ext.dir)) return 'workspace-disabled';
  if (!needsConsent(ext, consent.mode(), folders)) return undefined;
  const r = consentRecord(consent.choices, ext.dir);
  if (!r || r.fingerprint !== fingerprint) return 'consent';
  return r.answer === 'allow' ? undefined : 'denied';
}

/**
 * Choices that allow exactly the given content: directory → fingerprint (a headless run's `--pin`s, pins.ts). Any
 * other directory, or other content, has no answer and waits for consent — in a headless run, for ever.
 */
export function pinnedChoices(pins: ReadonlyMap<string, string>): WorkspaceChoices {
  const records = new Map([...pins].map(([dir, fingerprint]) => [consentKey(dir), { answer: 'allow', fingerprint } satisfies ConsentRecord]));
  return { get: (key) => records.get(key), set: () => undefined };
}
