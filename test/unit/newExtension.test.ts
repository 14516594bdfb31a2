/**
 * The "New Extension…" generator (src/host/authoring/newExtension.ts), shared by the VS Code command and `zut-host new`:
 * every language's template is written, loaded by the real Manager and answers its command and tool.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import { watchedFiles } from '../../src/host/disk/manifestSignature';
import { createNewExtension, NEW_EXTENSION_LANGS, newExtensionNameProblem, SDK_FILES, TS_TRANSFORM_FILE } from '../../src/host/authoring/newExtension';
import { cleanupTemps, MemoryChoices, RecordingUi, tempDir, zutHome, keepManager, stopManagers } from '../helpers/hostFixtures';

const ROOT = path.resolve(__dirname, '../..');
let sdkDir: string;

/** Whether a Go toolchain is on PATH (the Go template builds with it when it starts). */
function hasGo(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  // The Go template's binaries go to $XDG_CACHE_HOME/zut-go: a temporary one here (Go's own build cache kept).
  if (hasGo()) process.env.GOCACHE ??= execFileSync('go', ['env', 'GOCACHE'], { encoding: 'utf8' }).trim();
  process.env.XDG_CACHE_HOME = tempDir('zut-cache-');
  // The SDK as the build ships it (dist/sdk): the runtime bundle, its declarations and the TypeScript transform.
  sdkDir = tempDir('zut-sdk-');
  const { bundleSdkRuntime, bundleTsTransform } = await import('../../scripts/sdk.mjs');
  await bundleSdkRuntime(path.join(sdkDir, 'index.js'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'packages/sdk'), '--outDir', sdkDir]);
  await bundleTsTransform(path.join(sdkDir, TS_TRANSFORM_FILE));
}, 60_000);
afterEach(async () => {
  await stopManagers();
});
afterAll(cleanupTemps);

describe.each(NEW_EXTENSION_LANGS)('new %s extension', (lang) => {
  it('is written with a manifest, runs under the real host and answers its command and tool', async () => {
    const project = tempDir('zut-new-');
    const made = await createNewExtension({ lang, name: `hello-${lang}`, root: path.join(project, '.zut', 'extensions'), sdkDir });
    expect(made.dir).toBe(path.join(project, '.zut', 'extensions', `hello-${lang}`));
    expect(made.command).toBe(`hello-${lang}`);
    expect(made.tool).toBe(`hello_${lang}_greet`);
    const manifest = JSON.parse(fs.readFileSync(made.manifestPath, 'utf8'));
    expect(manifest).toMatchObject({ name: `hello-${lang}`, version: '0.1.0' });
    expect(fs.existsSync(made.mainFile)).toBe(true);
    // The file the author edits is one the watcher follows (saving it restarts the extension).
    expect(watchedFiles({ dir: made.dir, exec: manifest.exec, args: manifest.args })).toContain(made.mainFile);
    if (lang === 'ts') for (const f of [...SDK_FILES, TS_TRANSFORM_FILE]) expect(made.files).toContain(`sdk/${f}`);
    const { home } = zutHome();
    const m = new Manager({ folders: [project], zutHome: home, ui: new RecordingUi(), hostVersion: '0.0.0-test', autoRestart: false });
    keepManager(m);
    const report = await m.start();
    if (lang === 'go' && !hasGo()) {
      // Without Go on PATH the template cannot build: the load error says so (and names the log).
      expect(report.errors[0]?.message).toMatch(/hello-go/);
      expect(fs.readFileSync(path.join(home, 'logs', 'ext-hello-go.log'), 'utf8')).toMatch(/go: (not found|command not found)/);
      return;
    }
    expect(report.errors).toEqual([]);
    expect(m.extensions()[0]).toMatchObject({ name: `hello-${lang}`, state: 'running', readyMode: 'ready', language: manifest.language });
    expect(await m.invokeCommand(made.command, 'Ada')).toMatchObject({ action: 'display', display: `Hello from hello-${lang}: Ada` });
    expect(await m.invokeCommand(made.command, '')).toMatchObject({ action: 'display', display: `Hello from hello-${lang}: world` });
    expect(await m.callTool(made.tool, { who: 'Bo "the" \\ Builder' })).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Hello, Bo "the" \\ Builder!' }] });
    expect(await m.callTool(made.tool, {})).toMatchObject({ isError: true, content: [{ type: 'text', text: 'who is required (a non-empty string)' }] });
    expect(m.allTools()[0]!.schema).toEqual({ type: 'object', properties: { who: { type: 'string', description: 'Who to greet' } }, required: ['who'] });
  }, 120_000);
});

describe.each(NEW_EXTENSION_LANGS)('new %s extension in a project with consent "ask" (issue 32, points 1 and 2)', (lang) => {
  it('is allowed for exactly the files written: runs at once, never asks again across restarts and windows; its own saved edit is allowed, any other change asks', async () => {
    const project = tempDir('zut-new-');
    const root = path.join(project, '.zut', 'extensions');
    const choices = new MemoryChoices();
    const { home } = zutHome();
    const make = () => keepManager(new Manager({ folders: [project], zutHome: home, ui: new RecordingUi(), hostVersion: '0', autoRestart: false, consent: { mode: () => 'ask', choices } }));
    const m = make();
    const asked: string[] = [];
    m.onDidRequestConsent((infos) => asked.push(...infos.map((i) => i.name)));
    await m.start();
    const name = `own-${lang}`;
    const made = await createNewExtension({ lang, name, root, sdkDir, beforeCommit: (staging) => m.allowOwnContent(staging, path.join(root, name)) });
    await m.reload();
    const state = (mm: Manager) => mm.extensions().find((e) => e.name === name)!.state;
    if (lang === 'go' && !hasGo()) return expect(state(m)).toBe('error'); // it could not build: never asked
    expect(state(m)).toBe('running');
    expect(await m.invokeCommand(made.command, 'Ada')).toMatchObject({ display: `Hello from ${name}: Ada` });
    // Its runs write nothing into its folder (the Go build goes to a cache outside it): a restart and a new window run it.
    await m.restart(name);
    expect(state(m)).toBe('running');
    await m.stop();
    const again = make();
    again.onDidRequestConsent((infos) => asked.push(...infos.map((i) => i.name)));
    await again.start();
    expect(state(again)).toBe('running');
    expect(asked).toEqual([]);
    // An edit saved in the editor, the only change: the user's own, allowed; it restarts with no question.
    const edited = `${fs.readFileSync(made.mainFile, 'utf8')}\n`; // a blank line: valid in every language
    fs.writeFileSync(made.mainFile, edited);
    expect(await again.allowOwnEdit(made.mainFile, Buffer.from(edited))).toBe(true);
    await again.restart(name);
    expect(state(again)).toBe('running');
    expect(asked).toEqual([]);
    // Other bytes on disk than the editor saved: not that edit.
    fs.writeFileSync(made.mainFile, `${edited}\n`);
    expect(await again.allowOwnEdit(made.mainFile, Buffer.from(`${edited}\n\n`))).toBe(false);
    // The save plus another file changed (a git pull, a tool): not the user's edit alone; it asks.
    fs.writeFileSync(path.join(made.dir, 'extra.txt'), 'x');
    expect(await again.allowOwnEdit(made.mainFile, Buffer.from(`${edited}\n`))).toBe(false);
    await again.restart(name);
    expect(state(again)).toBe('consent');
    expect(asked).toEqual([name]);
  }, 120_000);
});

describe('new extension: refusals', () => {
  it('rejects bad names and an existing directory, leaving nothing behind', async () => {
    expect(newExtensionNameProblem('Hello')).toMatch(/invalid extension name "Hello"/);
    expect(newExtensionNameProblem('../x')).toBeDefined();
    expect(newExtensionNameProblem('a-b-2')).toBeUndefined();
    expect(newExtensionNameProblem('a'.repeat(48))).toBeUndefined();
    expect(newExtensionNameProblem('a'.repeat(49))).toMatch(/at most 48/);
    const root = tempDir();
    await expect(createNewExtension({ lang: 'sh', name: 'no/pe', root })).rejects.toThrow(/invalid extension name/);
    await createNewExtension({ lang: 'sh', name: 'twice', root });
    await expect(createNewExtension({ lang: 'python', name: 'twice', root })).rejects.toThrow(`${path.join(root, 'twice')} already exists`);
    expect(fs.readdirSync(path.join(root, 'twice')).sort()).toEqual(['extension.json', 'main.sh']);
    await expect(createNewExtension({ lang: 'ts', name: 'nosdk', root, sdkDir: path.join(root, 'missing') })).rejects.toThrow(/the zut SDK is missing/);
    expect(fs.existsSync(path.join(root, 'nosdk'))).toBe(false);
  });
});
