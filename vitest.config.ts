import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build for the dependencies; make our sources use the same copy.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    // A test that starts service processes (shutdown, flows' durability, scale-out) or a browser needs more than
    // 30 s when the machine is busy: a clean-clone run beside four other jobs (load 15-17) timed out seven such
    // tests at 30 s while every one of them passes alone. A longer limit lets no wrong result pass; a hung test
    // is only reported later.
    testTimeout: 120_000,
    hookTimeout: 180_000,
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
