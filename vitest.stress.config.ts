import { defineConfig } from 'vitest/config';

/** `npm run stress`: fast-check properties of the codec and schemas, the Manager soak and the warm hook host's (test/stress). */
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    // The CLI bundle (the warm hook host's soak), built once (test/helpers/globalSetup.ts).
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
