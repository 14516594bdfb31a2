/** The floors as lint (scripts/lint/floors.mjs, ARCHITECTURE.md): a wrong-way import and a cycle are errors. */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the lint set-up, without types
import { floors } from '../../scripts/lint/floors.mjs';
import { cleanupTemps, tempDir } from '../helpers/temp';

const root = path.resolve(__dirname, '../..');
const parser: Linter.Config = { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } };
const lint = (cwd: string) => new ESLint({ cwd, overrideConfigFile: true, overrideConfig: [parser, ...(floors as Linter.Config[])] });

async function messages(cwd: string, file: string, code: string): Promise<string[]> {
  const [r] = await lint(cwd).lintText(code, { filePath: path.join(cwd, file) });
  return r!.messages.map((m) => `${m.ruleId}: ${m.message}`);
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
    // src/hook.ts (dist/hook.js) takes only the hooks' fast path and the protocol's limits.
    expect(await messages(root, 'src/hook.ts', "import * as vscode from 'vscode';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { main } from './cli';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { Manager } from './host/manager';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { x } from './mcp/server';\n")).toEqual(refused);
    expect(await messages(root, 'src/hook.ts', "import { askRunningHost } from './hooks/client';\nimport { HOOK_INPUT_MAX_BYTES } from './protocol/limits';\n")).toEqual([]);
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
