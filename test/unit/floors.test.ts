/** The floors as lint (scripts/lint/floors.mjs, ARCHITECTURE.md): a wrong-way import and a cycle are errors. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the lint set-up, without types
import { floors, LIGHT_HOOK_FILES, LIGHT_LEAVES, MEDIA_IMPORTS } from '../../scripts/lint/floors.mjs';
import { cleanupTemps, tempDir } from '../helpers/temp';

const root = path.resolve(__dirname, '../..');
const parser: Linter.Config = { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } };
const lint = (cwd: string) => new ESLint({ cwd, overrideConfigFile: true, overrideConfig: [parser, ...(floors as Linter.Config[])] });

async function messages(cwd: string, file: string, code: string): Promise<string[]> {
  const [r] = await lint(cwd).lintText(code, { filePath: path.join(cwd, file) });
  return r!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** The files `entry` imports (relative imports, type-only ones included), as paths from the root. */
function importsOf(entry: string): string[] {
  const text = readFileSync(path.join(root, entry), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    const base = path.join(path.dirname(entry), m[1] ?? m[2]!);
    const file = [`${base}.ts`, path.join(base, 'index.ts'), base].find((c) => c.endsWith('.ts') && existsSync(path.join(root, c)));
    if (file) out.push(file.split(path.sep).join('/'));
  }
  return out;
}

/** Every file `entry` reaches through its imports, itself included. */
function reached(entry: string): string[] {
  const seen = new Set<string>();
  const next = [entry];
  for (let f = next.pop(); f !== undefined; f = next.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    next.push(...importsOf(f));
  }
  return [...seen].sort();
}

describe('floors', () => {
  const tmp = tempDir('zut-floors-');
  afterAll(cleanupTemps);

  it('refuses imports that run upward, and vscode below src/vscode', async () => {
    expect(await messages(root, 'src/protocol/wrong.ts', "import { Manager } from '../host/manager';\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*src\/protocol imports nothing of ours/),
    ]);
    expect(await messages(root, 'src/host/process/wrong.ts', "import type { Loader } from '../extensions/loader';\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*src\/host\/process is below/),
    ]);
    expect(await messages(root, 'src/host/calls/wrong.ts', "import { x } from '../../mcp/server';\n")).toEqual([expect.stringMatching(/^no-restricted-imports/)]);
    expect(await messages(root, 'src/host/types.ts', "import type { Loader } from './extensions/loader';\n")).toEqual([expect.stringMatching(/^no-restricted-imports/)]);
    expect(await messages(root, 'src/mcp/wrong.ts', "import * as vscode from 'vscode';\n")).toEqual([expect.stringMatching(/^no-restricted-imports/)]);
    expect(await messages(root, 'src/ui-model/wrong.ts', "import { x } from '../vscode/host';\n")).toEqual([expect.stringMatching(/^no-restricted-imports/)]);
  });

  it('guards every file at the host\'s root, the roles below chat, and the light hook entry (issue 30\'s holes)', async () => {
    const refused = [expect.stringMatching(/^no-restricted-imports/)];
    // Any file at src/host's root but the façade is vocabulary: no vscode, no room, nothing outside the host.
    expect(await messages(root, 'src/host/newRootFile.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/newRootFile.ts', "import { Loader } from './extensions/loader';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/newRootFile.ts', "import { x } from '../hooks/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/newRootFile.ts', "import type { ExtensionHost } from './api';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/manager.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/manager.ts', "import { x } from '../ui-model/settings';\n")).toEqual(refused);
    // The roles (api.ts) are below chat, which takes them; chat is below their implementation (manager.ts).
    expect(await messages(root, 'src/host/api.ts', "import type { x } from './chat/loop';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/api.ts', "import type { Manager } from './manager';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/chat/wrong.ts', "import type { Manager } from '../manager';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/chat/right.ts', "import type { HostCalls } from '../api';\n")).toEqual([]);
    // Agent set-up is above the hooks and below the adapters.
    expect(await messages(root, 'src/hooks/wrong.ts', "import { ensureLauncher } from '../agentSetup/launcher';\n")).toEqual(refused);
    expect(await messages(root, 'src/agentSetup/wrong.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/agentSetup/wrong.ts', "import { x } from '../vscode/agentSetup';\n")).toEqual(refused);
    expect(await messages(root, 'src/agentSetup/right.ts', "import { MCP_SERVER_NAME } from '../hooks/names';\n")).toEqual([]);
    // The runtime under every shell: over the Manager, beside the hooks (neither imports the other), below mcp and the shells.
    expect(await messages(root, 'src/runtime/wrong.ts', "import { HookServer } from '../hooks/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/runtime/wrong.ts', "import { runMcpStdio } from '../mcp/stdio';\n")).toEqual(refused);
    expect(await messages(root, 'src/runtime/wrong.ts', "import { hostOptions } from '../cli/common';\n")).toEqual(refused);
    expect(await messages(root, 'src/runtime/wrong.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/hooks/wrong.ts', "import { HostRuntime } from '../runtime/runtime';\n")).toEqual(refused);
    expect(await messages(root, 'src/host/extensions/wrong.ts', "import { HostRuntime } from '../../runtime/runtime';\n")).toEqual(refused);
    expect(await messages(root, 'src/runtime/right.ts', "import { Manager } from '../host/manager';\nimport { WATCH_DEBOUNCE_MS } from '../protocol/limits';\n")).toEqual([]);
    expect(await messages(root, 'src/mcp/right.ts', "import { HostRuntime } from '../runtime/runtime';\n")).toEqual([]);
    // src/hook.ts (dist/hook.js) takes only the hooks' fast path and the protocol's limits.
    expect(await messages(root, 'src/hook.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { main } from './cli';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { Manager } from './host/manager';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { x } from './mcp/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { askRunningHost } from './hooks/client';\nimport { HOOK_INPUT_MAX_BYTES } from './protocol/limits';\n")).toEqual([]);
  });

  it('holds the light hook path (dist/hook.js, run per tool call) to Node and itself: no zod, no host, no Manager', async () => {
    const refused = [expect.stringMatching(/^no-restricted-imports: .*On the light hook path/)];
    // The lists are exactly what src/hook.ts reaches: a file added to the path must be added to them (and so held).
    expect(reached('src/hook.ts')).toEqual([...LIGHT_HOOK_FILES, ...LIGHT_LEAVES].sort());
    expect(await messages(root, 'src/hooks/client.ts', "import { Manager } from '../host/manager';\n")).toEqual(refused);
    expect(await messages(root, 'src/hooks/client.ts', "import * as z from 'zod';\n")).toEqual(refused);
    expect(await messages(root, 'src/hooks/names.ts', "import type { GuardRequest } from '../host/calls/toolGuard';\n")).toEqual(refused);
    expect(await messages(root, 'src/hooks/rendezvous.ts', "import * as fs from 'fs';\n")).toEqual(refused); // built-ins as node:
    expect(await messages(root, 'src/hooks/failure.ts', "import { answerHook } from './answer';\n")).toEqual(refused); // the answering side
    expect(await messages(root, 'src/hook.ts', "import { HookServer } from './hooks/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { frameSchema } from './protocol/frames';\n")).toEqual(refused);
    // Its leaves in lower floors import only Node's built-ins.
    expect(await messages(root, 'src/host/disk/paths.ts', "import { readManifest } from './manifest';\n")).toEqual(refused);
    expect(await messages(root, 'src/protocol/limits.ts', "import * as z from 'zod';\n")).toEqual(refused);
    // The answering side of src/hooks may import the host (this is the rule the light files are out of).
    expect(await messages(root, 'src/hooks/answerSide.ts', "import type { Manager } from '../host/manager';\nimport * as z from 'zod';\n")).toEqual([]);
    expect(await messages(root, 'src/hooks/client.ts', "import * as net from 'node:net';\nimport { HOOK_BUDGET_MS } from '../protocol/limits';\nimport { isObject } from '../protocol/json';\nimport { readRendezvous } from './rendezvous';\nimport { resolveZutHome } from '../host/disk/paths';\n")).toEqual([]);
  });

  it("holds the webview's script (media/) to the two modules it shares with the extension", async () => {
    const refused = [expect.stringMatching(/^no-restricted-imports: .*The webview's script/)];
    expect(importsOf('media/panel.ts').sort()).toEqual(MEDIA_IMPORTS);
    expect(await messages(root, 'media/panel.ts', "import { RenderCoalescer } from '../src/ui-model/panelModel';\n")).toEqual(refused);
    expect(await messages(root, 'media/panel.ts', "import type { PanelKeyName } from '../src/protocol/frames';\n")).toEqual(refused);
    expect(await messages(root, 'media/panel.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'media/other.ts', "import { applyRender } from '../src/ui-model/panelRender';\nimport { mapPanelKey } from '../src/ui-model/panelKeys';\n")).toEqual([]);
  });

  it('draws the hooks one floor below mcp and agentSetup, which import them; floor 7 imports none of itself', async () => {
    const refused = [expect.stringMatching(/^no-restricted-imports/)];
    expect(await messages(root, 'src/mcp/right.ts', "import { listenLocal } from '../hooks/localSocket';\n")).toEqual([]);
    expect(await messages(root, 'src/hooks/wrong.ts', "import { x } from '../mcp/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/mcp/wrong.ts', "import { x } from '../agentSetup/launcher';\n")).toEqual(refused);
    expect(await messages(root, 'src/ui-model/wrong.ts', "import { x } from '../agentSetup/launcher';\n")).toEqual(refused);
    expect(await messages(root, 'src/ui-model/wrong.ts', "import { x } from '../hooks/names';\n")).toEqual(refused);
  });

  it('allows imports that run downward', async () => {
    expect(await messages(root, 'src/host/calls/right.ts', "import type { ExtensionSupervisor } from '../extensions/supervisor';\nimport { MAX_FRAME_BYTES } from '../../protocol/limits';\n")).toEqual([]);
    expect(await messages(root, 'src/vscode/right.ts', "import * as vscode from 'vscode';\nimport type { ExtensionHost } from '../host/api';\n")).toEqual([]);
  });

  it('reports both imports of a cycle, type-only ones included', async () => {
    mkdirSync(path.join(tmp, 'src'), { recursive: true });
    writeFileSync(path.join(tmp, 'src/a.ts'), "import type { B } from './b';\nexport type A = B;\n");
    writeFileSync(path.join(tmp, 'src/b.ts'), "import { c } from './c';\nexport type B = string;\nexport const d = c;\n");
    writeFileSync(path.join(tmp, 'src/c.ts'), "import type { A } from './a';\nexport const c: A = '';\n");
    writeFileSync(path.join(tmp, 'src/d.ts'), "import { c } from './c';\nexport const e = c;\n");
    const [a, d] = await Promise.all([
      messages(tmp, 'src/a.ts', "import type { B } from './b';\nexport type A = B;\n"),
      messages(tmp, 'src/d.ts', "import { c } from './c';\nexport const e = c;\n"),
    ]);
    expect(a).toEqual([expect.stringMatching(/^house\/no-cycle: Import cycle: b\.ts is in a cycle with this file \(a\.ts, b\.ts, c\.ts\)/)]);
    expect(d).toEqual([]);
  });

  it('finds no cycle and no wrong-way import in src today', async () => {
    const results = await lint(root).lintFiles(['src/**/*.ts']);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}: ${m.message}`))).toEqual([]);
  });
});
