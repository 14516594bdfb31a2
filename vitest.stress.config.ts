import { defineConfig } from 'vitest/config';

/** `npm run stress`: fast-check properties of the codec and schemas, and the Manager soak (test/stress). */
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
