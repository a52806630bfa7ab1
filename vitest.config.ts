import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/**
 * The suite in three tiers (README, Tests), one folder each:
 * - test/unit: inside the test process alone, no database and no program (test/support/unit-guard.ts
 *   refuses them), the edit loop's `npm run test:unit`;
 * - test/integration: a real database, ffmpeg, the speech engines, the service in the test's process;
 * - test/e2e: the service, its workers or its CLI as processes of their own, browsers, crashes.
 * `npm test` runs the unit project first, so a broken unit is known in seconds, then the
 * `service` project, the integration and e2e tiers together on both cores, the longest files
 * first (test/support/sequencer.ts): the long files of each tier run beside the short ones of
 * the other and both cores end together (a project of its own for each would wait for the
 * slowest file of the first before starting the second).
 *
 * A worker process runs file after file (isolate: false): the service's dependencies load
 * once per worker instead of once per file, which halves the CPU time of a short file. Each
 * file still starts its own service, database and data folder; the workers start fresh for
 * the service project, so the unit guard never reaches it.
 */
export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS build for the dependencies; our sources
    // must share that copy (the ESM build would be a second realm of graphql types)
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    // integration files start servers, workers and ffmpeg: two at a time on two cores
    maxWorkers: 2,
    minWorkers: 2,
    isolate: false,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: ['test/support/unit-guard.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
