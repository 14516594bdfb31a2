/**
 * The SDK's frame types never drift from the host's zod schemas: the committed packages/sdk/src/frames.ts is
 * exactly what the generator makes (the build fails otherwise too), each generated type equals the schema's
 * input (extension → host) or output (host → extension) type (checked by the compiler below, at `npm run
 * typecheck`), the SDK copy in the example is the current build, and typed JavaScript written against the SDK's
 * declarations is really type-checked (an error is reported).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Sdk from '../../packages/sdk/src/frames.js' with { 'resolution-mode': 'import' };
import type { extFrameSchemas, hostFrameSchemas } from '../../src/protocol';
import { SDK_FILES as TEMPLATE_SDK_FILES } from '../../src/host/authoring/newExtension';
import { generateSdkFrameTypes } from '../../src/protocol/typesGen';
import { cleanupTemps, tempDir } from '../helpers/hostFixtures';
import { EXAMPLES_DIR } from '../helpers/stdioDriver';

afterAll(cleanupTemps);

// ---------------------------------------------------------------- compile-time: exact type equality per frame
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type ExtSame = { [K in keyof typeof extFrameSchemas]: Same<Extract<Sdk.ExtFrame, { type: K }>, z.input<(typeof extFrameSchemas)[K]>> };
type HostSame = { [K in keyof typeof hostFrameSchemas]: Same<Extract<Sdk.HostFrame, { type: K }>, z.output<(typeof hostFrameSchemas)[K]>> };
type AllTrue<T> = { [K in keyof T]: T[K] extends true ? true : K };
const extSame: AllTrue<ExtSame> = Object.fromEntries(Object.keys({} as ExtSame).map((k) => [k, true])) as AllTrue<ExtSame>;
const hostSame: AllTrue<HostSame> = Object.fromEntries(Object.keys({} as HostSame).map((k) => [k, true])) as AllTrue<HostSame>;
// A mismatch makes the offending key's type its own name instead of `true`, so this assignment fails to compile:
const everyFrame: Record<string, true> = { ...extSame, ...hostSame };

const ROOT = path.resolve(__dirname, '../..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const sdkScript = () => import('../../scripts/sdk.mjs');

describe('SDK frame types', () => {
  it('the committed frames.ts is what the generator makes from src/protocol (run `node scripts/sdk.mjs --write` after a schema change)', async () => {
    const committed = fs.readFileSync(path.join(ROOT, 'packages/sdk/src/frames.ts'), 'utf8');
    expect(generateSdkFrameTypes()).toBe(committed);
    expect(await (await sdkScript()).sdkFrameTypes()).toBe(committed);
    expect(everyFrame).toBeDefined();
  });

  it('the generator follows the schemas: a field of the host schema is a field of the SDK type', () => {
    const text = generateSdkFrameTypes();
    expect(text).toMatch(/export interface RegisterToolFromExt \{\n {2}type: "register_tool";\n {2}name: string;\n {2}description\?: string;\n {2}schema\?: unknown;\n {2}deferred\?: boolean;\n {2}interactive\?: boolean;\n {2}annotations\?: \{\n {4}title\?: string;\n {4}readOnlyHint\?: boolean;/);
    // Input types where the host transforms: null is accepted where the host tolerates it.
    expect(text).toMatch(/capabilities\?: string\[\] \| null;/);
    expect(text).toContain("export type PanelKeyName = 'up' | 'down'");
  });

  it('the SDK copy in the sdk-demo example is the current build (runtime and declarations)', async () => {
    const { bundleSdkRuntime, SDK_COPIES, SDK_FILES } = await sdkScript();
    // The build copies the files new TypeScript extensions get.
    expect(SDK_FILES).toEqual([...TEMPLATE_SDK_FILES]);
    const fresh = tempDir();
    await bundleSdkRuntime(path.join(fresh, 'index.js'));
    execFileSync(process.execPath, [TSC, '-p', path.join(ROOT, 'packages/sdk'), '--outDir', fresh]);
    for (const copy of SDK_COPIES) {
      for (const f of SDK_FILES) {
        expect(fs.readFileSync(path.join(copy, f), 'utf8'), `${copy}/${f} is stale: run npm run sdk`).toBe(fs.readFileSync(path.join(fresh, f), 'utf8'));
      }
    }
  });

  it('typed JavaScript against the SDK declarations type-checks, and a type error is reported', () => {
    const dir = path.join(tempDir(), 'sdk-demo'); // outside the repository: no node_modules/@types above it
    fs.cpSync(path.join(EXAMPLES_DIR, 'sdk-demo'), dir, { recursive: true });
    execFileSync(process.execPath, [TSC, '-p', path.join(dir, 'jsconfig.json'), '--noEmit'], { encoding: 'utf8' });
    const main = path.join(dir, 'main.js');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace("ext.notify(`counted to ${n}`, 'success')", "ext.notify(n, 'loud')"));
    let out = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', path.join(dir, 'jsconfig.json'), '--noEmit'], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout);
    }
    expect(out).toMatch(/main\.js\(\d+,\d+\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/);
  });
});
