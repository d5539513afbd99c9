import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser download cannot run on our machines (guide/stack.md).
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 120_000,
  // A loaded 2-core CI machine answers slower than a laptop; waits for long work say so themselves.
  expect: { timeout: 10_000 },
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
