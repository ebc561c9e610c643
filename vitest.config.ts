import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build for the dependencies; make our sources use the same copy.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Once per run: the migrated template database that each test app's database copies.
    globalSetup: ['test/support/global-setup.ts'],
    // Before each file: the module-level state a fresh module graph would have (see the file).
    setupFiles: ['test/support/per-file.ts'],
    pool: 'forks',
    // Files share their worker's modules: importing the app once per worker instead of once per file
    // (import was two thirds of the suite's time). test/support/per-file.ts resets the shared state.
    isolate: false,
    fileParallelism: true,
    maxWorkers: 2,
    // expect.poll waits for a state that must come (a row written, a process listening): on a loaded
    // machine (load 4 on 2 cores) a second is not enough for a round trip through another process.
    // Waiting longer never lets a wrong state pass; only a failure is reported later.
    expect: { poll: { timeout: 10_000 } },
  },
});
