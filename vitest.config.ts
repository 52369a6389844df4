import { configDefaults, defineConfig } from 'vitest/config';

// The long multi-step scenarios (a load run, a store hammered by four hosts, a measured replay,
// packing and installing, the documentation's tour, the corpus quality floor) live in tests/scenario/ and
// run with `npm run test:scenarios` (vitest.scenarios.config.ts); CI runs both.
const SCENARIOS = 'tests/scenario/**';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: [...configDefaults.exclude, SCENARIOS],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most e2e files wait on Chromium, child processes and loopback servers, not on a core:
    // three files at once keep two cores busy without starving any one of them.
    maxWorkers: 3,
    fileParallelism: true,
    // WEBCAP_CPU_LOG=<file> logs each test file's CPU and wall seconds (see tests/helpers/cpu-meter.ts).
    setupFiles: process.env.WEBCAP_CPU_LOG ? ['tests/helpers/cpu-meter.ts'] : [],
  },
});
