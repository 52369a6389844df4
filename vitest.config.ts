import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: e2e files each start Chromium, so keep parallelism modest.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
