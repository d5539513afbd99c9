import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Timeouts catch a hang, not slowness: a file's tests run several times slower on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most of a file's time is spent waiting
    // on the simulator, a child process or a timer, not computing.
    maxWorkers: 2,
  },
});
