import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // The leak check around every file (test/helpers/leakCheck.ts).
    setupFiles: ['test/helpers/setup.ts'],
    // The CLI and relay bundles, built once (test/helpers/globalSetup.ts).
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
