import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: e2e files each start Chromium, so keep parallelism modest.
    maxWorkers: 2,
    fileParallelism: true,
    // WEBCAP_CPU_LOG=<file> logs each test file's CPU and wall seconds (see tests/helpers/cpu-meter.ts).
    setupFiles: process.env.WEBCAP_CPU_LOG ? ['tests/helpers/cpu-meter.ts'] : [],
  },
});
