import { defineConfig } from 'vitest/config';

// `npm run test:scenarios`: the long multi-step scenarios in tests/scenario/ (load,
// crashes under load, measured replays, packing and installing, the documentation's
// tour), left out of `npm test` by vitest.config.ts. Two at a time: each is a load of its own.
export default defineConfig({
  test: {
    include: ['tests/scenario/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    fileParallelism: true,
    setupFiles: process.env.WEBCAP_CPU_LOG ? ['tests/helpers/cpu-meter.ts'] : [],
  },
});
