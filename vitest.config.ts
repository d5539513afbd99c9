import { defineConfig } from 'vitest/config';
import { ISOLATED_TEST_FILES as ISOLATED } from './test/isolated-files.js';

// Files that mock the `electron` module, or set the process's environment, keep a module graph of their own; every
// other file shares its worker's (isolate: false), so the engine's modules load once a worker instead of once a file.

export default defineConfig({
  test: {
    // Timeouts catch a hang, not slowness: a file's tests run several times slower on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most of a file's time is spent waiting
    // on the simulator, a child process or a timer, not computing.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/e2e/**', 'node_modules/**', ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
