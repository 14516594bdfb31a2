/**
 * The TypeScript template end to end: `zut-host new --lang ts` (the real CLI bundle, with the SDK and the
 * TypeScript transform built as dist/sdk is) writes a real `main.ts` that the real host runs through `node run.js
 * main.ts` with nothing installed, on every Node at hand (this one, and the provisioned Node 24 when it is there:
 * Node 20 loads .ts through `module.register`, Node 22.15+ through `module.registerHooks`). An edit to main.ts is
 * the new behaviour after the restart the watcher asks for; TypeScript-only syntax runs; a type error is reported by
 * `tsc` against the SDK's types (tsconfig.json) but does not stop the extension; a syntax error names the file.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import { watchedFiles } from '../../src/host/disk/manifestSignature';
import { SDK_FILES, TS_TRANSFORM_FILE } from '../../src/host/authoring/newExtension';
import { cleanupTemps, RecordingUi, tempDir, keepManager, stopManagers } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

const ROOT = path.resolve(__dirname, '../..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let tmp: string;
let cli: string;
let home: string;

/** The Node binaries to run extensions with: `{ label, binDir }` (put first on PATH: the manifest's exec is `node`). */
const nodes: { label: string; binDir: string }[] = [{ label: `Node ${process.version} (this one)`, binDir: path.dirname(process.execPath) }];


function run(args: string[], o: { cwd?: string; binDir?: string } = {}): Promise<Run> {
  const env = isolatedEnv(tmp, home, { PATH: `${o.binDir ?? nodes[0]!.binDir}${path.delimiter}${process.env.PATH ?? ''}` });
  return runProcess(process.execPath, [cli, ...args], { cwd: o.cwd ?? tmp, env });
}

/** `tsc -p dir`: '' when it type-checks, else its report. */
function tsc(dir: string): string {
  try {
    execFileSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (e) {
    return String((e as { stdout?: string }).stdout);
  }
}

/** A new TypeScript extension `name` in a fresh project (through `zut-host new`); returns the project and its dir. */
async function newTs(name: string): Promise<{ project: string; dir: string; made: Run }> {
  const project = path.join(tempDir('zut-tsnew-'), 'project'); // outside the repository: no node_modules/@types above
  fs.mkdirSync(project);
  const made = await run(['new', '--lang', 'ts', name], { cwd: project });
  return { project, dir: path.join(project, '.zut', 'extensions', name), made };
}

beforeAll(async () => {
  tmp = tempDir('zut-tstemplate-');
  home = path.join(tmp, 'home');
  cli = path.join(tmp, 'cli.js');
  // The CLI bundle and, beside it, the SDK as the build ships it in dist/sdk (runtime, declarations, transform).
  fs.copyFileSync(builtCli(), cli);
  const sdk = await import('../../scripts/sdk.mjs');
  const sdkDir = path.join(tmp, 'sdk');
  await sdk.bundleSdkRuntime(path.join(sdkDir, 'index.js'));
  execFileSync(process.execPath, [TSC, '-p', path.join(ROOT, 'packages/sdk'), '--outDir', sdkDir]);
  await sdk.bundleTsTransform(path.join(sdkDir, sdk.TS_TRANSFORM_FILE));
  const node24 = (await import('../../scripts/provision.mjs')).installedNode();
  if (node24) nodes.push({ label: 'the provisioned Node 24', binDir: node24.nodeBinDir });
}, 120_000);
afterEach(async () => {
  await stopManagers();
});
afterAll(cleanupTemps);

describe('zut-host new --lang ts', () => {
  it('writes main.ts, run.js, tsconfig.json and sdk/ (with the transform); main.ts type-checks against the SDK', async () => {
    const { dir, made } = await newTs('hello-ts');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`created ${dir}\n  extension.json\n  package.json\n  tsconfig.json\n  run.js\n  main.ts\n`);
    expect(made.stdout).toContain(`  sdk/${TS_TRANSFORM_FILE}\n`);
    expect(made.stdout).toContain('edit .zut/extensions/hello-ts/main.ts;');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8'));
    // Self-contained: nothing points into zut-vscode's install, so the zut terminal host runs it the same way.
    expect(manifest).toMatchObject({ name: 'hello-ts', exec: 'node', args: ['run.js', 'main.ts'], language: 'typescript' });
    expect(fs.readdirSync(path.join(dir, 'sdk')).sort()).toEqual([...SDK_FILES, TS_TRANSFORM_FILE].sort());
    expect(fs.existsSync(path.join(dir, 'main.js'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'main.ts'), 'utf8')).toMatch(/^interface GreetArgs \{/m);
    // Saving main.ts (or run.js) restarts the extension and both count in its consent fingerprint.
    expect(watchedFiles({ dir, exec: manifest.exec, args: manifest.args })).toEqual([path.join(dir, 'run.js'), path.join(dir, 'main.ts')]);
    expect(tsc(dir)).toBe('');
    // The transform carries sucrase's licence.
    expect(fs.readFileSync(path.join(dir, 'sdk', TS_TRANSFORM_FILE), 'utf8')).toMatch(/^\/\/ TypeScript → JavaScript[^]*sucrase \d+\.\d+\.\d+, licence MIT:\n \* The MIT License \(MIT\)/);
  }, 60_000);

  it('the transform the build ships is the one the template copies', async () => {
    expect((await import('../../scripts/sdk.mjs')).TS_TRANSFORM_FILE).toBe(TS_TRANSFORM_FILE);
  });

  it('runs under the real host on every Node at hand: its command and tool answer', async () => {
    const { project } = await newTs('hello-ts');
    for (const { label, binDir } of nodes) {
      const cmd = await run(['command', '--cwd', project, '--allow-project', 'hello-ts', 'Ada'], { binDir });
      expect(cmd.stderr, label).toBe('');
      expect(JSON.parse(cmd.stdout), label).toMatchObject({ action: 'display', display: 'Hello from hello-ts: Ada' });
      const tool = await run(['tool', '--cwd', project, '--allow-project', 'hello_ts_greet', '{"who":"Ada"}'], { binDir });
      expect(JSON.parse(tool.stdout), label).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Hello, Ada!' }] });
      const bad = await run(['tool', '--cwd', project, '--allow-project', 'hello_ts_greet', '{}'], { binDir });
      expect(JSON.parse(bad.stdout), label).toMatchObject({ isError: true, content: [{ type: 'text', text: 'who is required (a non-empty string)' }] });
    }
  }, 60_000);

  it('an edit saved in main.ts is the new behaviour after the restart the watcher asks for', async () => {
    const { project, dir } = await newTs('hello-ts');
    const m = new Manager({ folders: [project], zutHome: home, ui: new RecordingUi(), hostVersion: '0.0.0-test', autoRestart: false });
    keepManager(m);
    expect((await m.start()).errors).toEqual([]);
    expect(await m.invokeCommand('hello-ts', 'Ada')).toMatchObject({ display: 'Hello from hello-ts: Ada' });
    const main = path.join(dir, 'main.ts');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('Hello from', 'Howdy from'));
    expect(await m.applyChanges([main])).toEqual({ reloaded: false, restarted: ['hello-ts'] });
    expect(await m.invokeCommand('hello-ts', 'Bo')).toMatchObject({ display: 'Howdy from hello-ts: Bo' });
  }, 60_000);
});

/** main.ts and two modules using TypeScript-only syntax, with one type error (the `wrong` line). */
const SYNTAX: Record<string, string> = {
  'types.ts': `import type { Tone } from './greet.ts';
export interface Greeting { text: string; tone: Tone }
export type Maybe<T> = T | undefined;
`,
  'greet.ts': `import type { Greeting, Maybe } from './types.ts';
export enum Tone { Warm = 1, Loud }
export class Shouter {
  constructor(private readonly g: Greeting) {}
  shout(): string { return (this.g.text as string).toUpperCase() + '!'.repeat(this.g.tone); }
}
export function pick<T>(xs: readonly T[]): Maybe<T> { return xs[0]; }
`,
  'main.ts': `import { createExtension, type ToolReturn } from './sdk/index.js';
import type { Greeting } from './types.ts';
import { pick, Shouter, Tone } from './greet.js'; // greet.ts, as TypeScript's nodenext resolution writes it

abstract class Base<T> {
  constructor(protected readonly value: T) {}
  abstract render(): string;
}
class Hello extends Base<string> {
  declare extra: number;
  render(): string { return \`\${Tone[Tone.Warm]}:\${this.value!}\`; }
}
const wrong: number = 'a type error does not stop it';
const ext = createExtension({ name: 'ts-syntax', version: '0.1.0' });
ext.command('ts-syntax', 'TypeScript-only syntax', (args: string) => {
  const g = { text: args, tone: Tone.Loud } satisfies Greeting;
  return { display: [new Hello(args).render(), new Shouter(g).shout(), pick<string>([args, 'x']), String(wrong)].join(' | ') };
});
ext.tool<{ n?: number }>({ name: 'ts_syntax_enum' }, (a): ToolReturn => \`\${Tone.Loud}:\${Tone[Tone.Loud]}:\${a.n ?? 0}\`);
await ext.start();
`,
};

describe('TypeScript-only syntax in a new extension', () => {
  it('tsc reports the type error against the SDK types; the extension runs all the same', async () => {
    const { dir } = await newTs('ts-syntax');
    for (const [f, text] of Object.entries(SYNTAX)) fs.writeFileSync(path.join(dir, f), text);
    const report = tsc(dir).trim().split('\n');
    expect(report).toEqual([expect.stringMatching(/^main\.ts\(13,7\): error TS2322: Type 'string' is not assignable to type 'number'\.$/)]);
  }, 60_000);

  it('interfaces, generics, as, satisfies, enums, parameter properties, type-only and .js→.ts imports run on every Node at hand', async () => {
    const { project, dir } = await newTs('ts-syntax');
    for (const [f, text] of Object.entries(SYNTAX)) fs.writeFileSync(path.join(dir, f), text);
    for (const { label, binDir } of nodes) {
      const cmd = await run(['command', '--cwd', project, '--allow-project', 'ts-syntax', 'ada'], { binDir });
      expect(cmd.stderr, label).toBe('');
      expect(JSON.parse(cmd.stdout), label).toMatchObject({ display: 'Warm:ada | ADA!! | ada | a type error does not stop it' });
      const tool = await run(['tool', '--cwd', project, '--allow-project', 'ts_syntax_enum', '{"n":3}'], { binDir });
      expect(JSON.parse(tool.stdout), label).toMatchObject({ isError: false, content: [{ type: 'text', text: '2:Loud:3' }] });
    }
  }, 60_000);

  it('a syntax error stops it, and its log names the file, line and column', async () => {
    const { project, dir } = await newTs('ts-broken');
    const main = path.join(dir, 'main.ts');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('await ext.start();', 'await ext.start(;'));
    const r = await run(['command', '--cwd', project, '--allow-project', 'ts-broken', 'Ada']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ts-broken: load ts-broken .*extension exited before hello: exit status 1/);
    const log = fs.readFileSync(path.join(home, 'logs', 'ext-ts-broken.log'), 'utf8');
    expect(log).toContain(`run.js: ${main}:30:18: Unexpected token\n`);
    expect(log).not.toContain('sucrase.js'); // no stack through the transform
  }, 60_000);
});
