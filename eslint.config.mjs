import tseslint from 'typescript-eslint';
import { floors } from './scripts/lint/floors.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '**/*.js', '**/*.mjs', 'media/**/*.d.ts'] },
  ...tseslint.configs.recommended,
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
