#!/usr/bin/env node
// @ts-check
// The in-host suite (test/vscode/inhost) in VS Code desktop through @vscode/test-electron, for machines that can
// download VS Code (or have one: VSCODE_EXECUTABLE_PATH=/path/to/code). Not part of `npm test`; on machines
// without that download use `npm run test:vscode` (code-server) instead.
//   node test/vscode/electron.mjs [--grep REGEX] [--version stable|1.104.0]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { toolsDir } from '../../scripts/provision.mjs';
import { REPO, ensureRunDirs, fixtureExtensions, removeTemp, tempDir, workspaceCopy } from './lib/context.mjs';

const { values: opts } = parseArgs({ options: { grep: { type: 'string' }, version: { type: 'string', default: 'stable' } } });
const { runDir } = ensureRunDirs();
const resultFile = path.join(runDir, 'electron-result.json');
const logsDir = path.join(runDir, 'electron-logs');
const workspace = workspaceCopy();
const env = {
  ZUT_TEST_WORKSPACE: workspace, ZUT_HOME: tempDir('zut-home'), ZUT_TEST_RESULT_FILE: resultFile,
  ZUT_TEST_LOGS_DIR: logsDir, ZUT_TEST_EXTENSION_PATH: REPO, ...(opts.grep ? { ZUT_TEST_GREP: opts.grep } : {}),
};

let code = 1;
try {
  const exe = process.env.VSCODE_EXECUTABLE_PATH;
  code = await runTests({
    ...(exe ? { vscodeExecutablePath: exe } : { version: opts.version, cachePath: path.join(toolsDir(), 'vscode-test') }),
    extensionDevelopmentPath: [REPO, ...fixtureExtensions()],
    extensionTestsPath: path.join(REPO, 'test', 'vscode', 'inhost', 'index.js'),
    extensionTestsEnv: env,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes',
      `--logsPath=${logsDir}`, `--user-data-dir=${path.join(runDir, 'electron-user-data')}`,
      `--extensions-dir=${path.join(runDir, 'electron-extensions')}`],
  });
} catch (e) {
  const msg = String(e?.message ?? e);
  console.error(`@vscode/test-electron could not run VS Code desktop: ${msg.split('\n')[0]}`);
  if (/download|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|fetch|getaddrinfo|socket|network/i.test(msg)) {
    console.error('VS Code desktop cannot be downloaded from this machine (only the npm registry is reachable).\n'
      + 'Set VSCODE_EXECUTABLE_PATH to an installed VS Code, or run the same suite in code-server: npm run test:vscode -- --suite inhost');
  }
} finally {
  removeTemp();
}
let passed = 0;
let failed = code === 0 ? 0 : 1;
if (fs.existsSync(resultFile)) {
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  for (const t of r.tests.filter((x) => x.state !== 'passed')) console.log(`  ✖ ${t.state}: ${t.title}\n      ${String(t.error ?? '').split('\n')[0]}`);
  passed = r.passes;
  failed = r.failures + r.pending;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || code ? 1 : 0);
