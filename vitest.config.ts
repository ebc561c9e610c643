import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build for the dependencies; make our sources use the same copy.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // expect.poll waits for a state that must come (a row written, a process listening): on a loaded
    // machine (load 4 on 2 cores) a second is not enough for a round trip through another process.
    // Waiting longer never lets a wrong state pass; only a failure is reported later.
    expect: { poll: { timeout: 10_000 } },
  },
});
