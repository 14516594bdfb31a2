/**
 * What holds an extension back, and the user's local choices: consent for project-local code and "Disable
 * (Workspace)" (decided by consent.ts, remembered in the workspace's choices), and Stop / Start. The Manager runs
 * each operation in its serial queue (loader.ts), which also applies the gates as it loads; this module does the
 * work. Choices are keyed by the extension's `identity` (its directory; an e extension's entry file, as top-level
 * e files share a directory). No `vscode`.
 */
import * as path from 'node:path';
import type { ManagerOptions } from './options';
import { MANIFEST_FILE, readManifest } from '../disk/manifest';
import { identity } from '../disk/discovery';
import { consentRecord, decideGate, isInside, isRepositoryCode, needsConsent, rememberConsent, setDisabledInWorkspace, type ConsentOptions } from './consent';
import { contentFingerprint, filePart, fingerprintTarget, type FingerprintResult } from './fingerprint';
import type { ExtensionSupervisor } from './supervisor';
import type { ExtensionInfo } from '../types';

/** What the Gatekeeper needs from the Manager. */
export interface GateHost {
  options(): ManagerOptions;
  find(name: string): ExtensionSupervisor | undefined;
  /** Every supervisor, shadowed copies included. */
  all(): readonly ExtensionSupervisor[];
  extensions(): ExtensionInfo[];
  /** Tell listeners that these extensions wait for consent. */
  requestConsent(pending: ExtensionInfo[]): void;
}

export class Gatekeeper {
  /**
   * What the user's own extensions (New Extension, Install) last passed the gate with, by identity: an editor save
   * is compared against it (`allowOwnEdit`). Only those, so memory follows what the user made.
   */
  private readonly ownAdmitted = new Map<string, { fingerprint: string; parts: ReadonlyMap<string, string> }>();

  constructor(private readonly host: GateHost) {}

  /**
   * Re-decides whether `s` may start (workspace-disabled, consent for its current content). When consent applies,
   * the content is fingerprinted now; an extension too large to fingerprint is refused (state `error`).
   */
  async applyGate(s: ExtensionSupervisor): Promise<void> {
    const consent = this.host.options().consent;
    if (!consent || !s.runnable || !s.manifest?.exec) return s.setGate(undefined);
    const { folders } = this.host.options();
    const ext = { dir: identity(s.disc), scope: s.disc.scope };
    if (!needsConsent(ext, consent.mode(), folders) || decideGate(ext, undefined, consent, folders) === 'workspace-disabled') {
      return s.setGate(decideGate(ext, undefined, consent, folders), { fingerprint: undefined });
    }
    const fp = await this.fingerprint(s);
    if (!fp.ok) return s.refuse(fp.error);
    const gate = decideGate(ext, fp.fingerprint, consent, folders);
    if (gate === undefined && consentRecord(consent.choices, ext.dir)?.own) this.ownAdmitted.set(ext.dir, { fingerprint: fp.fingerprint, parts: fp.parts });
    s.setGate(gate, { fingerprint: fp.fingerprint });
  }

  /**
   * A file of the user's own extension (created or installed through us: `allowOwnContent`) saved in the editor
   * with `bytes`: when that file, with exactly those bytes, is the only difference from the content the extension
   * last passed the gate with, the new content is the user's too and is allowed (no question for their own edit).
   * Anything else changed as well (a `git pull`, another file, other bytes on disk) asks as usual. Resolves whether
   * it allowed the new content; an extension waiting for consent with it starts.
   */
  async allowOwnEdit(file: string, bytes: Uint8Array): Promise<boolean> {
    const consent = this.host.options().consent;
    const s = consent && this.host.all().find((x) => x.disc.ecosystem !== 'e' && isInside(file, x.disc.dir));
    if (!consent || !s) return false;
    const dir = identity(s.disc);
    const record = consentRecord(consent.choices, dir);
    const before = this.ownAdmitted.get(dir);
    if (!record?.own || record.answer !== 'allow' || before?.fingerprint !== record.fingerprint) return false;
    const fp = await this.fingerprint(s);
    if (!fp.ok) return false;
    const key = path.relative(s.disc.dir, file).split(path.sep).join('/');
    const changed = new Set([...before.parts.keys(), ...fp.parts.keys()].filter((k) => before.parts.get(k) !== fp.parts.get(k)));
    if (fp.fingerprint !== record.fingerprint && (changed.size !== 1 || !changed.has(key) || fp.parts.get(key) !== filePart(bytes))) return false;
    await rememberConsent(consent.choices, dir, { answer: 'allow', fingerprint: fp.fingerprint, own: true });
    this.ownAdmitted.set(dir, { fingerprint: fp.fingerprint, parts: fp.parts });
    if (s.gate === 'consent') {
      await this.applyGate(s);
      if (s.spawnable && !s.conn) await s.start();
    }
    return true;
  }

  /**
   * The gate every spawn passes (first start, Start, restart, automatic restart after a crash): re-decided on
   * the content on disk now, so code changed since the last answer waits for a new one.
   */
  async admit(s: ExtensionSupervisor): Promise<boolean> {
    await this.applyGate(s);
    if (s.gate === 'consent') this.requestConsent([s]);
    return s.spawnable;
  }

  private fingerprint(s: ExtensionSupervisor): Promise<FingerprintResult> {
    const o = this.host.options();
    return contentFingerprint(fingerprintTarget({ ...s.disc, manifest: s.manifest }, o.folders, o.zutHome));
  }

  /** When any of `among` now waits for consent: fires once with everything pending. */
  requestConsent(among: readonly ExtensionSupervisor[]): void {
    if (!among.some((s) => s.gate === 'consent')) return;
    const pending = this.pendingConsent();
    if (pending.length > 0) this.host.requestConsent(pending);
  }

  /** Extensions waiting for consent, each with `allowedBefore` when an earlier content of it was allowed here. */
  pendingConsent(): ExtensionInfo[] {
    const choices = this.host.options().consent?.choices;
    return this.host
      .extensions()
      .filter((e) => e.state === 'consent')
      .map((e) => {
        const s = this.host.find(e.name);
        const r = choices && s ? consentRecord(choices, identity(s.disc)) : undefined;
        return r?.answer === 'allow' ? { ...e, allowedBefore: true as const } : e;
      });
  }

  /**
   * The user's answer for these extensions (by name), for the content they were shown with: `seen` holds the
   * fingerprint each had when the prompt was raised (default: the one it waits with). Allow for content that
   * changed since asks again instead (Allow never approves unseen code). The answer is remembered for the current
   * content; `allow` starts them, `deny` stops them and keeps them from starting until their content changes or the
   * answer is revoked.
   */
  async answerConsent(names: readonly string[], answer: 'allow' | 'deny', seen?: Readonly<Record<string, string>>): Promise<void> {
    const consent = this.requireConsent();
    const { folders } = this.host.options();
    const sups = names
      .map((n) => this.host.find(n))
      .filter((s): s is ExtensionSupervisor => !!s && needsConsent({ dir: identity(s.disc), scope: s.disc.scope }, 'ask', folders));
    const changed: ExtensionSupervisor[] = [];
    for (const s of sups) {
      const fp = await this.fingerprint(s);
      if (!fp.ok) {
        s.refuse(fp.error);
        continue;
      }
      const shown = seen?.[s.name] ?? s.fingerprint;
      if (answer === 'allow' && fp.fingerprint !== shown) {
        s.setGate(decideGate({ dir: identity(s.disc), scope: s.disc.scope }, fp.fingerprint, consent, folders), { fingerprint: fp.fingerprint });
        changed.push(s);
        continue;
      }
      await rememberConsent(consent.choices, identity(s.disc), { answer, fingerprint: fp.fingerprint });
      if (answer === 'deny') await s.stop();
      await this.applyGate(s);
    }
    this.requestConsent(changed);
    await Promise.all(sups.filter((s) => s.spawnable && !s.conn).map((s) => s.start()));
  }

  /**
   * "New Extension…" and "Install Extension…" into a project: the user wrote `staging` (complete, not yet renamed
   * to `dest`) through us, so it is theirs. Records Allow for exactly that content under `dest`: the extension runs
   * at once when its content is still what was written, and any other change asks as usual. Not serialised (called
   * from inside `exclusive`); a destination outside every workspace folder needs no answer.
   */
  async allowOwnContent(staging: string, dest: string): Promise<void> {
    const { consent, folders, zutHome } = this.host.options();
    if (!consent || !isRepositoryCode({ dir: dest, scope: 'global' }, folders)) return;
    const m = await readManifest(staging);
    if (!m.ok) throw new Error(`${dest}: ${m.error}`);
    const fp = await contentFingerprint(fingerprintTarget({ name: m.manifest.name, dir: staging, manifestPath: path.join(staging, MANIFEST_FILE), manifest: m.manifest }, folders, zutHome));
    if (!fp.ok) throw new Error(fp.error);
    await rememberConsent(consent.choices, dest, { answer: 'allow', fingerprint: fp.fingerprint, own: true });
  }

  /** Forgets the answer for this extension: it stops and waits for consent again. */
  async revokeConsent(name: string): Promise<void> {
    const s = this.require(name);
    await rememberConsent(this.requireConsent().choices, identity(s.disc), undefined);
    await s.stop();
    await this.applyGate(s);
  }

  /** "Disable (Workspace)": a local choice kept in workspace state (the manifest is not touched). */
  async setDisabledInWorkspace(name: string, disabled: boolean): Promise<void> {
    const s = this.require(name);
    await setDisabledInWorkspace(this.requireConsent().choices, identity(s.disc), disabled);
    if (disabled) await s.stop();
    await this.applyGate(s);
    this.requestConsent([s]);
    if (!disabled) await s.start();
  }

  /** Stops one extension until Start, a restart or a reload (not a crash: no automatic restart). */
  async stopExtension(name: string): Promise<void> {
    await this.require(name).stopByUser();
  }

  /** Starts one stopped extension (if nothing holds it back). */
  async startExtension(name: string): Promise<void> {
    await this.require(name).startByUser();
  }

  private require(name: string): ExtensionSupervisor {
    const s = this.host.find(name);
    if (!s) throw new Error(`no extension named "${name}"`);
    return s;
  }

  private requireConsent(): ConsentOptions {
    const consent = this.host.options().consent;
    if (!consent) throw new Error('this host keeps no workspace choices');
    return consent;
  }
}
