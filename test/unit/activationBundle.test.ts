// Activation loads only what a window needs before its first extension answers (issue 41): dist/extension.js holds
// none of the modules of the lazy bundles (esbuild.mjs; ARCHITECTURE.md "Lazy bundles") nor the heavy modules only
// they use; loading it builds no zod schema (lazySchema), nor does activate() in a first window (no setting set,
// nothing stored: nothing to validate), and neither loading it nor activate() requires a lazy bundle.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

const ROOT = path.join(__dirname, '..', '..');
/** Modules a first window does not need, each reached only through a lazy bundle today. */
const NOT_AT_ACTIVATION = [
  'src/host/chat/loop.ts', // a `@zut` request (dist/chat.js)
  'src/host/chat/systemPrompt.ts',
  'src/vscode/chat/lmModel.ts',
  'src/vscode/chat/render.ts',
  'src/host/disk/install.ts', // management (dist/management.js)
  'src/host/disk/installSources.ts',
  'src/host/disk/doctor.ts',
  'src/host/disk/trash.ts',
  'src/vscode/installFlow.ts',
  'src/ui-model/toolArgs.ts', // "Call Tool…" (dist/management.js)
  'src/ui-model/panelRender.ts', // the panels' webviews (dist/panels.js; panelModel.ts's message schema stays)
];

let dir: string;
let inputs: string[];
let lazyEntries: string[];

beforeAll(async () => {
  const esm = await import('../../esbuild.mjs');
  const esbuild = await import('esbuild');
  dir = tempDir('zut-activation-');
  const outdir = path.join(dir, 'dist');
  const [extension, , processes] = esm.buildOptions({ outdir });
  // The bundles loaded at run time: every entry of the third set but the two that run as processes of their own.
  lazyEntries = [
    ...Object.entries(processes!.entryPoints as Record<string, string>).filter(([name]) => name !== 'mcp-relay' && name !== 'hook').map(([, file]) => path.relative(ROOT, file)),
    ...esm.LAZY_STAND_INS.map((l) => l.module),
  ];
  // zod outside the bundle, so the probe can count the schemas built.
  const r = await esbuild.build({ ...extension, external: [...(extension!.external ?? []), 'zod'], metafile: true, sourcemap: false });
  const meta: Metafile = r.metafile;
  const out = Object.entries(meta.outputs).find(([f]) => f.endsWith(`${path.sep}extension.js`) || f.endsWith('/extension.js'));
  inputs = Object.keys(out![1].inputs).map((f) => path.relative(ROOT, path.resolve(f)));
}, 60_000);
afterAll(cleanupTemps);

describe('activation bundle', () => {
  it('holds no module of a lazy bundle, nor the modules only they need', () => {
    expect(lazyEntries).toEqual(expect.arrayContaining(['src/vscode/chat/request.ts', 'src/vscode/managementCommands.ts', 'src/vscode/panels.ts', 'src/host/authoring/newExtension.ts']));
    expect(inputs).toContain('src/extension.ts');
    expect(inputs.filter((f) => lazyEntries.includes(f))).toEqual([]);
    expect(inputs.filter((f) => NOT_AT_ACTIVATION.includes(f))).toEqual([]);
  });

  it('builds no zod schema while it loads or activates a first window, and requires no lazy bundle then', () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(home, { recursive: true });
    const r = spawnSync(process.execPath, [path.join(__dirname, 'fixtures', 'activationProbe.cjs'), path.join(dir, 'dist', 'extension.js'), dir], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, ZUT_HOME: path.join(home, '.zut'), XDG_CONFIG_HOME: path.join(home, '.config') },
      timeout: 30_000,
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
    expect(line, r.stderr).toBeDefined();
    const probe = JSON.parse(line!) as { atLoad: { zodCalls: string[]; required: string[] }; duringActivate: { zodCalls: string[]; required: string[] }; err?: string };
    expect(probe.err).toBeUndefined();
    expect(probe.atLoad.required).toEqual([path.join('dist', 'extension.js')]);
    expect(probe.atLoad.zodCalls).toEqual([]);
    expect(probe.duringActivate.required).toEqual([]);
    // A first window (no setting set, nothing stored) validates nothing, so activate() builds no schema either.
    expect(probe.duringActivate.zodCalls).toEqual([]);
  });
});
