// @ts-check
// The state of one real-VS-Code test run, shared by run.mjs and the UI harness through environment variables
// (so a UI test file can also be run on its own: the context is then created on first use).
//   ZUT_VSCODE_RUN_DIR  .test-runs/<stamp>/ (screenshots, logs, server dirs; kept)
//   ZUT_VSCODE_TMP      temp root for workspace copies and ZUT_HOME dirs (removed at the end of the run)
//   ZUT_VSCODE_TOOLS_JSON  provision() result
//   ZUT_VSCODE_VSIX     the packaged extension
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provision } from '../../../scripts/provision.mjs';
import { packageVsix } from '../../../scripts/package.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const EXAMPLE_WORKSPACE = path.join(REPO, 'examples', 'workspace');
export const FIXTURES = path.join(REPO, 'test', 'vscode', 'fixtures');

/** A sortable timestamp usable as a directory name. */
export function stamp() {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
}

/** Creates the run dir and temp root (once) and records them in the environment. */
export function ensureRunDirs() {
  if (!process.env.ZUT_VSCODE_RUN_DIR) {
    const dir = path.join(REPO, '.test-runs', stamp());
    fs.mkdirSync(dir, { recursive: true });
    process.env.ZUT_VSCODE_RUN_DIR = dir;
  }
  if (!process.env.ZUT_VSCODE_TMP) process.env.ZUT_VSCODE_TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-vscode-run-'));
  return { runDir: process.env.ZUT_VSCODE_RUN_DIR, tmpRoot: process.env.ZUT_VSCODE_TMP };
}

/** code-server (ZUT_CODE_SERVER_VERSION, default 4.139.1) + its Node: their paths (provisioned on first use). */
export async function tools() {
  if (!process.env.ZUT_VSCODE_TOOLS_JSON) process.env.ZUT_VSCODE_TOOLS_JSON = JSON.stringify(await provision());
  return JSON.parse(process.env.ZUT_VSCODE_TOOLS_JSON);
}

/** The packaged extension (built with `npm run build` and packaged on first use). */
export function vsix() {
  if (!process.env.ZUT_VSCODE_VSIX) {
    const { runDir } = ensureRunDirs();
    process.env.ZUT_VSCODE_VSIX = packageVsix({ out: path.join(runDir, 'zut-vscode.vsix'), production: false });
  }
  return process.env.ZUT_VSCODE_VSIX;
}

let seq = 0;
/** A fresh directory under the temp root, e.g. tempDir('zut-home'). */
export function tempDir(prefix) {
  const { tmpRoot } = ensureRunDirs();
  const dir = path.join(tmpRoot, `${prefix}-${++seq}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A fresh copy of examples/workspace; returns its absolute path. */
export function workspaceCopy() {
  const dir = tempDir('workspace');
  fs.cpSync(EXAMPLE_WORKSPACE, dir, { recursive: true });
  return dir;
}

/** A fresh directory within the run dir for one server (`servers/<n>-<name>`). */
export function serverDir(name) {
  const { runDir } = ensureRunDirs();
  const base = path.join(runDir, 'servers');
  fs.mkdirSync(base, { recursive: true });
  const n = fs.readdirSync(base).length + 1;
  return path.join(base, `${String(n).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '_')}`);
}

/** Test-only development extensions: every test/vscode/fixtures/<dir> whose package.json declares engines.vscode. */
export function fixtureExtensions() {
  if (!fs.existsSync(FIXTURES)) return [];
  return fs.readdirSync(FIXTURES).map((d) => path.join(FIXTURES, d)).filter((d) => {
    try { return Boolean(JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')).engines?.vscode); } catch { return false; }
  });
}

/**
 * A fixture extension packaged as a .vsix (once per run). code-server keeps only the last `extensionDevelopmentPath`
 * of a payload (it is read into a Map), so fixtures are installed next to the repo's development extension.
 */
export function fixtureVsix(dir) {
  const { runDir } = ensureRunDirs();
  const out = path.join(runDir, 'fixtures', `${path.basename(dir)}.vsix`);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const vsce = path.join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce');
  try {
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', out],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (e) {
    throw new Error(`vsce package ${dir} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  return out;
}

/** Removes the temp root unless ZUT_VSCODE_KEEP=1. */
export function removeTemp() {
  const t = process.env.ZUT_VSCODE_TMP;
  if (t && process.env.ZUT_VSCODE_KEEP !== '1') fs.rmSync(t, { recursive: true, force: true });
}
