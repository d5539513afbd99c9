// The test files that keep a module graph of their own (vitest.config.ts): they mock the `electron` module, fake the
// timers or set the process's environment. Every other file shares its worker's modules, and lint (eslint.config.js)
// keeps mocks and environment changes out of those.
export const ISOLATED_TEST_FILES = ['test/main/**/*.test.ts', 'test/cli/system-schedule.test.ts', 'test/cli/watch-command.test.ts', 'test/engine/core/progress-timer.test.ts'];
