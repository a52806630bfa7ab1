import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS build for the dependencies; our sources
    // must share that copy (the ESM build would be a second realm of graphql types)
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    // integration files start servers, workers and ffmpeg: two at a time on two cores
    maxWorkers: 2,
    minWorkers: 1,
  },
});
