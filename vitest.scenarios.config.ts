import { defineConfig } from 'vitest/config';

// `npm run test:scenarios`: the long multi-step scenarios in tests/scenario/ (a load
// run, a store hammered by four hosts, a measured replay, packing and installing, the documentation's
// tour, the corpus quality floor), left out of `npm test` by vitest.config.ts. Two at a time: each is a load of its own.
export default defineConfig({
  test: {
    include: ['tests/scenario/**/*.test.ts'],
    // Each is long by nature (a corpus, a load, a pack and install): the timeouts catch hangs only.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
    // One temporary folder per run, removed at its end (tests/helpers/temp-root.ts).
    globalSetup: ['tests/helpers/temp-root.ts'],
    setupFiles: process.env.WEBCAP_CPU_LOG ? ['tests/helpers/cpu-meter.ts'] : [],
  },
});
