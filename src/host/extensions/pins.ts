/**
 * Pins: a project's extensions allowed by their content, for a client nobody can ask (a copied MCP configuration
 * running `zut-host mcp --allow-project --pin ID=FINGERPRINT…`). `projectPins` fingerprints the project's
 * extensions now, with the consent fingerprint (fingerprint.ts, as the Gatekeeper does before every spawn); a
 * headless host given `pinnedConsent` starts only a project extension whose content still has its pinned
 * fingerprint. One that changed since (a pull, a branch switch, an agent's edit), or appeared, is held at the consent
 * gate — checked again before each spawn and restart — until the pins are copied again. The ID is the extension's
 * identity (its directory; an e extension's entry file) relative to the folder, so the command names each one
 * readably. No `vscode`.
 */
import * as path from 'node:path';
import { discover, identity } from '../disk/discovery';
import type { ConsentOptions } from './consent';
import { pinnedChoices } from './consent';
import { contentFingerprint, fingerprintTarget } from './fingerprint';

/** Why a pinned run holds an extension back (said on stderr by `zut-host mcp`). */
export const PIN_HELD =
  'its content is not the one pinned when this configuration was copied (it changed since, or is new): review the change, then copy the configuration again ("Zut: Copy MCP Client Configuration…"), or remove the --pin arguments to start whatever is there';

/** One project extension pinned to its content. */
export interface Pin {
  /** Its identity relative to the folder, `/`-separated. */
  id: string;
  name: string;
  fingerprint: string;
}

/** The project's extensions (every ecosystem the CLI loads) and their fingerprints now; `refused` says who has none. */
export async function projectPins(folder: string, o: { zutHome: string; zot?: { home: string }; e?: { home: string } }): Promise<{ pins: Pin[]; refused: string[] }> {
  const found = await discover({ folders: [folder], zutHome: o.zutHome, searchGlobal: false, ...(o.zot && { zot: o.zot }), ...(o.e && { e: o.e }) });
  const pins: Pin[] = [];
  const refused: string[] = [];
  for (const d of found.filter((x) => x.scope === 'project' && x.status === 'enabled' && x.manifest?.exec)) {
    const fp = await contentFingerprint(fingerprintTarget(d, [folder], o.zutHome));
    if (fp.ok) pins.push({ id: path.relative(folder, identity(d)).split(path.sep).join('/'), name: d.name, fingerprint: fp.fingerprint });
    else refused.push(fp.error);
  }
  return { pins, refused };
}

/** `ID=FINGERPRINT` → a pin (the last `=` splits: an ID may hold one); throws naming the bad one. */
export function parsePin(s: string): { id: string; fingerprint: string } {
  const at = s.lastIndexOf('=');
  const id = s.slice(0, at);
  const fingerprint = s.slice(at + 1);
  if (at <= 0 || !/^[0-9a-f]{64}$/.test(fingerprint) || path.isAbsolute(id) || id.split(/[\\/]/).includes('..')) {
    throw new Error(`--pin ${s}: expected ID=FINGERPRINT (a project extension's path inside --cwd, and 64 hex digits)`);
  }
  return { id, fingerprint };
}

/** Consent that allows exactly the pinned content of `folder`'s extensions (mode `ask`). */
export function pinnedConsent(folder: string, pins: readonly { id: string; fingerprint: string }[]): ConsentOptions {
  const choices = pinnedChoices(new Map(pins.map((p) => [path.resolve(folder, p.id), p.fingerprint])));
  return { mode: () => 'ask', choices };
}
