import { configDefaults, defineConfig } from 'vitest/config';

// The long multi-step scenarios (a load run, a store hammered by four hosts, a measured replay,
// packing and installing, the documentation's tour, the corpus quality floor) live in tests/scenario/ and
// run with `npm run test:scenarios` (vitest.scenarios.config.ts); CI runs both.
const SCENARIOS = 'tests/scenario/**';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, SCENARIOS],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most e2e files wait on Chromium, child processes and loopback servers, not on a core:
    // three files at once keep two cores busy without starving any one of them.
    maxWorkers: 3,
    fileParallelism: true,
    // WEBCAP_CPU_LOG=<file> logs each test file's CPU and wall seconds (see tests/helpers/cpu-meter.ts).
    setupFiles: process.env.WEBCAP_CPU_LOG ? ['tests/helpers/cpu-meter.ts'] : [],
    projects: [
      {
        // Pure functions and in-process parts: one module graph per worker thread, loaded once,
        // instead of a fresh process per file (a quarter of the CPU). A file that keeps
        // process-wide state (the metrics registry) resets it before it counts.
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], pool: 'threads', isolate: false },
      },
      {
        // Hosts, sidecars, Chromium, daemons: each file in a process of its own.
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts', 'tests/protocol/**/*.test.ts'] },
      },
    ],
  },
});
