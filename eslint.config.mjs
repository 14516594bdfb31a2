import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { floors } from './scripts/lint/floors.mjs';

export default tseslint.config(
  // JS is ignored except the VS Code suites (test/vscode), the real-agent scenarios (test/agents) and the UI bench
  // (bench/ui), which get the recommended JS rules below.
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '**/*.js', '**/*.mjs', '!test/vscode/**/*.js', '!test/vscode/**/*.mjs', '!test/agents/**/*.mjs', '!bench/ui/**/*.js', '!bench/ui/**/*.mjs', 'media/**/*.d.ts'] },
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: c.files ?? ['**/*.ts', '**/*.mts', '**/*.cts'] })),
  {
    // The VS Code suites: CommonJS in the extension host (mocha tdd), ES modules driving the browser (mocha bdd,
    // page.evaluate bodies run in the page).
    files: ['test/vscode/**/*.js', 'test/vscode/**/*.mjs'],
    ...js.configs.recommended,
  },
  { files: ['test/vscode/**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.mocha } } },
  { files: ['test/vscode/**/*.mjs'], languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.mocha, ...globals.browser } } },
  // npm run bench:ui: the driver (ES modules in Node; page.evaluate bodies run in the page) and its test-only VS Code
  // extensions (CommonJS in the extension host).
  { files: ['bench/ui/**/*.js', 'bench/ui/**/*.mjs'], ...js.configs.recommended, rules: { ...js.configs.recommended.rules, 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] } },
  { files: ['bench/ui/**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } } },
  { files: ['bench/ui/**/*.mjs'], languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser } } },
  // The real-agent scenarios (npm run test:agents): ES modules in Node, mocha bdd.
  { files: ['test/agents/**/*.mjs'], ...js.configs.recommended, languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.mocha } } },
  {
    files: ['src/**/*.ts', 'packages/sdk/src/**/*.ts', 'test/unit/**/*.ts', 'test/helpers/**/*.ts', 'test/stress/**/*.ts', 'test/fixtures/**/*.ts', 'bench/**/*.ts', 'media/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['media/*.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // `import { z } from 'zod'` (or the default import) makes esbuild bundle every zod locale (~264 KB):
      // a namespace import lets it tree-shake them (test/unit/bundle.test.ts holds the size limit).
      'no-restricted-syntax': ['error', {
        selector: "ImportDeclaration[source.value=/^zod/] > :matches(ImportSpecifier, ImportDefaultSpecifier)",
        message: "Import zod as a namespace (import * as z from 'zod'): named/default imports bundle all its locales.",
      }],
    },
  },
  // The floors (ARCHITECTURE.md): nothing imports upward, src/protocol imports nothing of ours, no cycles.
  ...floors,
);
