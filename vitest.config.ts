import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/**
 * The suite in three tiers (README, Tests), each its own project:
 * - unit: inside the test process alone, no database and no program (test/support/unit-guard.ts
 *   refuses them), the edit loop's `npm run test:unit`;
 * - integration: a real database, ffmpeg, the speech engines, the service in the test's process;
 * - e2e: the service, its workers or its CLI as processes of their own, browsers, crashes.
 * `npm test` runs the unit tier first, so a broken unit is known in seconds, then the other two
 * together on both cores, the longest files first (test/support/sequencer.ts): the long files
 * of each tier then run beside the short ones of the other, and both cores end together.
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
    minWorkers: 1,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: ['test/support/unit-guard.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'], sequence: { groupOrder: 1 } },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
