import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/helpers/longest-first.js';

// The long multi-step scenarios (a load run, a store hammered by four hosts, a measured replay,
// packing and installing, the documentation's tour, the corpus quality floor) live in tests/scenario/ and
// run with `npm run test:scenarios` (vitest.scenarios.config.ts); CI runs both.
const SCENARIOS = 'tests/scenario/**';
const E2E = ['tests/e2e/**/*.test.ts', 'tests/protocol/**/*.test.ts'];
const OWN_PROCESS = ['crash-containment', 'runtime-recovery', 'warm-up', 'sidecar-init-error', 'screenshot-tall'].map((f) => `tests/e2e/${f}.test.ts`);

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, SCENARIOS],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most e2e files wait on Chromium, child processes and loopback servers, not on a core: six files
    // at once keep two cores busy (on two quiet cores: three workers 8.6 min, six 6.9, eight 7.8, the
    // CPU saturated). WEBCAP_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.WEBCAP_TEST_WORKERS ?? 6),
    fileParallelism: true,
    // Longest files first across the projects (tests/helpers/longest-first.ts), so none is left running alone at the end.
    sequence: { sequencer: LongestFirst },
    // WEBCAP_CPU_LOG=<file> logs each test file's CPU and wall seconds (see tests/helpers/cpu-meter.ts).
    // One temporary folder per run, removed at its end (tests/helpers/temp-root.ts).
    globalSetup: ['tests/helpers/temp-root.ts'],
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
        // Hosts, sidecars, Chromium, daemons: each worker process loads the host's modules once for
        // all the files it runs (each file makes and closes its own hosts, servers and stores). More
        // workers than cores: these files mostly wait on browsers, children and timers.
        extends: true,
        test: { name: 'e2e', include: E2E, exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false },
      },
      {
        // Files that find their sidecar or Chromium among this process's children, or kill them:
        // a process of their own, so no other file's processes are among them.
        extends: true,
        test: { name: 'e2e-own-process', include: OWN_PROCESS },
      },
    ],
  },
});
