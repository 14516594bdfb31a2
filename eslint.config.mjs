import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '**/*.js', '**/*.mjs', 'media/**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'packages/sdk/src/**/*.ts', 'test/unit/**/*.ts', 'test/stress/**/*.ts', 'test/fixtures/**/*.ts', 'bench/**/*.ts', 'media/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['media/*.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
