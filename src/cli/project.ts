/**
 * The project's own extensions in a headless run. `.zut/extensions`, `.zot/extensions` and `.e/extensions` under
 * `--cwd` are code from the repository, and nobody is there to be asked: they start only with `--allow-project`
 * (or `$ZUT_ALLOW_PROJECT=1`, for CI). Without it the host gets no project folder at all (common.ts), and they are
 * only discovered here, to be listed by the doctor as "not started" and counted when a name is not found.
 */
import type { DiscoveredExtension } from '../host/types';
import type { DoctorEntry } from '../host/disk/doctor';
import { discover } from '../host/disk/discovery';
import { logPathFor } from '../host/disk/paths';

/** What a project extension held back shows (doctor), and why. */
const HOLD_PROJECT = 'not started: project extension (pass --allow-project)';

/** Whether this run may start the project's own extensions (the hooks' rule, warmHost.ts: every verb reads it so). */
export { allowProject } from '../hooks/warmHost';

/** Where to look: the project and the ecosystems this run loads. */
export interface ProjectScan {
  cwd: string;
  zutHome: string;
  zot?: { home: string };
  e?: { home: string };
}

/** The project's extensions of every ecosystem this run loads, found but never started (a held run's). */
export function heldExtensions(scan: ProjectScan): Promise<DiscoveredExtension[]> {
  return discover({
    folders: [scan.cwd],
    zutHome: scan.zutHome,
    searchGlobal: false,
    ...(scan.zot && { zot: scan.zot }),
    ...(scan.e && { e: scan.e }),
  });
}

/** The doctor's entry for a held extension: what discovery knows, and `HOLD_PROJECT` when it would have started. */
export function heldEntry(d: DiscoveredExtension, zutHome: string): DoctorEntry {
  const wouldStart = d.status === 'enabled';
  const status = d.status === 'enabled' ? 'warning' : d.status;
  const state = d.status === 'enabled' ? 'blocked' : d.status;
  return {
    name: d.name,
    scope: d.scope,
    ...(d.ecosystem !== undefined && { ecosystem: d.ecosystem }),
    dir: d.dir,
    ...(d.ecosystem === 'e' && { entry: d.manifestPath }),
    ...(d.manifest?.version !== undefined && { version: d.manifest.version }),
    status,
    state,
    ...(d.shadowedBy !== undefined && { shadowedBy: d.shadowedBy }),
    commands: [],
    tools: [],
    subscriptions: [],
    interceptions: [],
    skills: d.skills.map((s) => ({ name: s.name, path: s.path })),
    diagnostics: wouldStart ? [HOLD_PROJECT, ...d.diagnostics] : [...d.diagnostics],
    logPath: logPathFor(zutHome, d.name),
    ...(d.error !== undefined && { error: d.error }),
  };
}

/** "; 2 project extensions not started (pass --allow-project)", or "" (a name was not found: say why it may be). */
export async function heldHint(scan: ProjectScan | undefined): Promise<string> {
  const n = scan ? (await heldExtensions(scan)).filter((d) => d.status === 'enabled').length : 0;
  return n === 0 ? '' : `; ${n} project extension${n === 1 ? '' : 's'} not started (pass --allow-project)`;
}
